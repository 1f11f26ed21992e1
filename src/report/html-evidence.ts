// The evidence of one requirement in report.html: the values that decide it first, in words, then the curl line
// that replays it, then the exchange itself collapsed, its body indented. Exchanges that differ only in their
// identifier values are shown once per kind with a count, so that twenty like link sets do not bury the rest.
import type { Evidence, RequirementResult } from "../engine/types.ts";
import {
  type EventFact,
  eventFacts,
  eventQueryOf,
  findingShape,
  groupKey,
  groupNoun,
  inWords,
  type ParameterFact,
  prettyBody,
  readableUrl,
  type WordFact,
} from "./evidence-facts.ts";
import { escapeHtml as h, jsonText } from "./text.ts";

/** Items shown of each group of like exchanges; the rest are listed by their request line only. */
export const SHOWN_PER_GROUP = 3;
/** Rows of a missing/extra table shown before the rest collapse. */
const EVENT_ROWS_SHOWN = 12;

function pre(value: string, cls = ""): string {
  return `<pre${cls === "" ? "" : ` class="${cls}"`}>${h(value)}</pre>`;
}

function headerText(record: Record<string, string>): string {
  return Object.entries(record)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
}

function words(facts: readonly WordFact[]): string {
  const [only] = facts;
  if (facts.length === 1 && only !== undefined && only.label === "")
    return `<p class="value">${h(only.text)}</p>`;
  return `<dl class="facts">${facts.map((f) => `<dt>${h(f.label)}</dt><dd>${h(f.text)}</dd>`).join("")}</dl>`;
}

/** A recorded value in words when it can be said so, else its indented JSON. */
function valueBlock(value: unknown): string {
  const facts = inWords(value);
  return facts === undefined ? pre(jsonText(value)) : words(facts);
}

function queryFacts(facts: readonly ParameterFact[]): string {
  return facts.map((f) => `<li><code>${h(f.parameter)}</code>: ${h(f.asks)}</li>`).join("");
}

function sideCell(e: EventFact): string {
  return e.side === "missing"
    ? '<span class="side-missing">missing</span>: selected, not answered'
    : '<span class="side-extra">extra</span>: answered, not selected';
}

function valueCells(e: EventFact, columns: number): string {
  if (e.values === undefined) {
    const where = e.side === "missing" ? "not in the answer" : "not in the recorded part of the answer";
    return `<td colspan="${columns}" class="unknown">${where}; the evidence records only its id</td>`;
  }
  return e.values
    .map((v) => {
      const mark =
        v.meets === undefined
          ? ""
          : v.meets
            ? ' <span class="meets">meets it</span>'
            : ' <span class="breaks">does not meet it</span>';
      return `<td><code>${h(v.value)}</code>${mark}</td>`;
    })
    .join("");
}

/** The missing and extra events, each with what it holds in the fields the query reads, when that is known. */
function eventTable(e: Evidence): string {
  const found = eventFacts(e);
  if (found === undefined) return "";
  const { facts, events } = found;
  // Field columns only when some event's values are known; else one line says what is missing from the evidence.
  const columns = events.some((x) => x.values !== undefined) ? facts.length : 0;
  const head =
    "<tr><th>Event</th><th>Why listed</th>" +
    facts
      .slice(0, columns)
      .map((f) => `<th>${h(f.field)} <span class="mono">(${h(f.parameter)})</span></th>`)
      .join("") +
    "</tr>";
  const row = (x: EventFact) =>
    `<tr><td class="id"><code>${h(x.id)}</code></td><td>${sideCell(x)}</td>${columns > 0 ? valueCells(x, columns) : ""}</tr>`;
  const table = (rows: readonly EventFact[]) =>
    `<table class="events"><thead>${head}</thead><tbody>${rows.map(row).join("")}</tbody></table>`;
  const missing = events.filter((x) => x.side === "missing").length;
  const extra = events.length - missing;
  const title = `<h4>Events: ${missing} missing, ${extra} extra</h4>`;
  const fields = facts.map((f) => f.field).join(", ");
  const note =
    columns === 0 && facts.length > 0
      ? `<p class="unknown">The evidence records only these events' ids, not their ${h(fields)}.</p>`
      : "";
  if (events.length <= EVENT_ROWS_SHOWN) return `${title}${table(events)}${note}`;
  const rest = events.slice(EVENT_ROWS_SHOWN);
  return (
    `${title}${table(events.slice(0, EVENT_ROWS_SHOWN))}` +
    `<details class="more"><summary>${rest.length} more events</summary>${table(rest)}</details>${note}`
  );
}

function exchangeDetails(e: Evidence): string {
  if (e.request === undefined && e.response === undefined) return "";
  const parts: string[] = [];
  if (e.request) {
    const head = headerText(e.request.headers);
    parts.push(`<h4>Request</h4>${pre(`${e.request.method} ${e.request.url}${head ? `\n${head}` : ""}`)}`);
  }
  let label = "Request";
  if (e.response) {
    const r = e.response;
    const body = prettyBody(r.bodyExcerpt);
    const size = `${r.bodyBytes} bytes${r.truncated ? ", excerpt truncated" : ""}`;
    label = `Request and response: ${r.status} (${size})`;
    parts.push(`<h4>Response: ${r.status} (${h(size)})</h4>${pre(headerText(r.headers))}`);
    if (r.bodyExcerpt !== "") {
      // The evidence keeps an excerpt of each body: a cut one is no longer JSON and is shown as it came.
      const cut = r.truncated || r.bodyExcerpt.length < r.bodyBytes;
      const note = cut ? ` (the first ${r.bodyExcerpt.length} characters)` : "";
      parts.push(`<h4>Body${note}</h4>${pre(body.text, body.json ? "json" : "")}`);
    }
  } else if (e.request) {
    label = "Request (no answer)";
  }
  return `<details class="exchange"><summary>${h(label)}</summary>${parts.join("")}</details>`;
}

/** Whether an actual value says nothing the message does not: absent, or text the message already holds. */
function repeatsMessage(actual: unknown, message: string | undefined): boolean {
  if (actual === undefined) return true;
  if (message === undefined) return false;
  const texts = Array.isArray(actual) ? actual : [actual];
  return texts.every((t) => typeof t === "string" && message.includes(t));
}

/** One evidence item: what was asked, what decides the verdict, how to replay it, and the exchange collapsed. */
export function evidenceItem(e: Evidence): string {
  const parts: string[] = [];
  if (e.message !== undefined) parts.push(`<p class="message">${h(e.message)}</p>`);
  const facts: string[] = [];
  if (e.request) {
    facts.push(
      `<dt>Request</dt><dd><code>${h(`${e.request.method} ${readableUrl(e.request.url)}`)}</code></dd>`,
    );
    const asked = eventQueryOf(e.request.url);
    if (asked !== undefined && asked.facts.length > 0) {
      facts.push(`<dt>Asks for</dt><dd><ul class="asks">${queryFacts(asked.facts)}</ul></dd>`);
    }
  }
  if (e.response)
    facts.push(`<dt>Answer</dt><dd>status ${e.response.status}, ${e.response.bodyBytes} bytes</dd>`);
  if (e.counterexample !== undefined)
    facts.push(`<dt>Counterexample</dt><dd>${valueBlock(e.counterexample)}</dd>`);
  if (e.seed !== undefined)
    facts.push(`<dt>Seed</dt><dd>${e.seed} (replay with <code>--seed ${e.seed}</code>)</dd>`);
  if (facts.length > 0) parts.push(`<dl class="facts">${facts.join("")}</dl>`);
  if (e.expected !== undefined || !repeatsMessage(e.actual, e.message)) {
    const side = (label: string, v: unknown): string =>
      `<div><h4>${label}</h4>${v === undefined ? "<p>(not recorded)</p>" : valueBlock(v)}</div>`;
    parts.push(`<div class="compare">${side("Expected", e.expected)}${side("Actual", e.actual)}</div>`);
  }
  parts.push(eventTable(e));
  if (e.curl !== undefined) parts.push(`<div class="curl"><h4>Reproduce</h4>${pre(e.curl, "curl")}</div>`);
  parts.push(exchangeDetails(e));
  return `<div class="item">${parts.join("")}</div>`;
}

/** Evidence items in groups of like ones, in the order their first member came. */
export function groupEvidence(evidence: readonly Evidence[]): Evidence[][] {
  const groups = new Map<string, Evidence[]>();
  for (const e of evidence) {
    const key = groupKey(e);
    const group = groups.get(key);
    if (group) group.push(e);
    else groups.set(key, [e]);
  }
  return [...groups.values()];
}

/** The items a group shows: those whose findings differ first, so that no kind of defect hides in the rest. */
function pickShown(group: readonly Evidence[]): { shown: Evidence[]; rest: Evidence[] } {
  const seen = new Set<string>();
  const distinct: Evidence[] = [];
  for (const e of group) {
    const shape = findingShape(e);
    if (!seen.has(shape) && distinct.length < SHOWN_PER_GROUP) distinct.push(e);
    seen.add(shape);
  }
  const shown = [...distinct, ...group.filter((e) => !distinct.includes(e))].slice(0, SHOWN_PER_GROUP);
  return { shown: group.filter((e) => shown.includes(e)), rest: group.filter((e) => !shown.includes(e)) };
}

function groupBlock(group: readonly Evidence[]): string {
  const first = group[0]!;
  const { shown, rest } = pickShown(group);
  const note =
    group.length > 1
      ? `<p class="group-note">${group.length} ${h(groupNoun(first, group.length))} like this; ${shown.length} shown</p>`
      : "";
  const others =
    rest.length === 0
      ? ""
      : `<details class="more"><summary>The other ${rest.length}</summary><ul class="others">${rest
          .map((e) => {
            const line = e.request
              ? `<code>${h(`${e.request.method} ${readableUrl(e.request.url)}`)}</code>`
              : "";
            const message = e.message === undefined ? "" : `${line === "" ? "" : ": "}${h(e.message)}`;
            return `<li>${line}${message}</li>`;
          })
          .join("")}</ul></details>`;
  return `${note}${shown.map(evidenceItem).join("")}${others}`;
}

/** Every evidence item of a requirement, like exchanges grouped. */
export function evidenceSection(r: RequirementResult): string {
  if (r.evidence.length === 0) return "<p>No evidence was recorded.</p>";
  return groupEvidence(r.evidence).map(groupBlock).join("");
}
