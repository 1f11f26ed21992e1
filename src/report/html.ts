import {
  type ConformanceClass,
  type Report,
  type RequirementResult,
  SENDER_CLASSES,
  type Status,
} from "../engine/types.ts";
import { CONFORMANCE_CLASSES, groupByClass, STATUSES } from "./classes.ts";
import { evidenceItem, evidenceSection } from "./html-evidence.ts";
import { STYLE } from "./html-style.ts";
import { escapeHtml as h } from "./text.ts";
import { type VerdictText, verdictOf } from "./verdict.ts";

function statusCell(status: Status): string {
  return `<span class="status ${status}">${status}</span>`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The banner's sentence: what decided the verdict, with correct plurals. */
function because(v: VerdictText): string {
  if (v.word === "PASS") return "Every applicable MUST requirement passed";
  if (v.word === "FAIL") {
    const causes = [
      ...(v.mustFailed > 0 ? [`${plural(v.mustFailed, "MUST requirement")} failed`] : []),
      ...(v.regressed > 0 ? [`${plural(v.regressed, "requirement")} regressed against the baseline`] : []),
    ];
    return causes.join(" and ") || v.because;
  }
  return v.because;
}

/** The first thing on the page: the verdict, why, and the counts that make it. */
function banner(report: Report): string {
  const v = verdictOf(report);
  const count = (s: Status) => report.requirements.filter((r) => r.status === s).length;
  const counts = [
    `<li><strong>${plural(v.mustFailed, "MUST failure")}</strong></li>`,
    `<li><strong>${plural(v.warnings, "warning")}</strong></li>`,
    ...(count("error") > 0 ? [`<li>${count("error")} not decided (error)</li>`] : []),
    `<li>${count("pass")} passed</li>`,
    `<li>${count("skip")} skipped</li>`,
    `<li>exit ${v.exitCode}</li>`,
  ];
  return (
    `<header class="banner verdict-${v.word.toLowerCase()}" id="verdict">` +
    `<div class="word">${v.word}</div><div class="because">${h(because(v))}</div>` +
    `<ul class="counts">${counts.join("")}</ul></header>`
  );
}

function chosenClasses(report: Report): readonly string[] {
  return report.options?.suites ?? CONFORMANCE_CLASSES;
}

/** What shaped the run, so that a reader can tell what was checked and replay it. */
function meta(report: Report): string {
  const rows: [string, string][] = [
    ["Events target", h(report.target.events)],
    ["Resolver", h(report.target.resolver)],
  ];
  const o = report.options;
  if (o) {
    // A report judges one role: the sender's classes, or the receiver's.
    const role: readonly ConformanceClass[] = o.suites.includes("receiver") ? ["receiver"] : SENDER_CLASSES;
    const notRun = role.filter((c) => !o.suites.includes(c));
    const skipped = notRun.length > 0 ? ` <span class="note">(not run: ${h(notRun.join(", "))})</span>` : "";
    rows.push(["Suites", `${h(o.suites.join(", "))}${skipped}`]);
    rows.push(["Modules", h(o.modules.join(", "))]);
    if (o.faults.length > 0) {
      rows.push([
        "Faults injected",
        `${h(o.faults.join(", "))} <span class="note">(into the embedded reference)</span>`,
      ]);
    }
    if (o.referenceConfig !== undefined) rows.push(["Reference configuration", h(o.referenceConfig)]);
    const given = o.definition.given
      ? ""
      : ' <span class="note">(the default; --definition was not given)</span>';
    rows.push([
      "Definition",
      `<code>${h(o.definition.file)}</code>${given}<br>sha-256 <code>${h(o.definition.sha256)}</code>`,
    ]);
    if (o.dataset !== undefined) rows.push(["Dataset", `<code>${h(o.dataset)}</code>`]);
    if (o.startFrom !== undefined) rows.push(["Start from", `<code>${h(o.startFrom)}</code>`]);
    if (o.party !== undefined) rows.push(["Party", `<code>${h(o.party)}</code>`]);
    if (o.gln !== undefined) rows.push(["GLN", `<code>${h(o.gln)}</code>`]);
  }
  rows.push(["Seed", String(report.seed)], ["Runs per property", String(report.runs)]);
  if (o) {
    const rate = o.rate > 0 ? `${o.rate} requests/s` : "unlimited";
    rows.push([
      "HTTP",
      `timeout ${seconds(o.timeoutMs)}, concurrency ${o.concurrency}, rate ${h(rate)}, retry budget ${o.retryBudgetSeconds} s`,
    ]);
  }
  const b = report.baseline;
  if (b) {
    const completeness = b.complete ? "complete" : "partial";
    const note = b.note ? `; ${b.note}` : "";
    rows.push(["Baseline", h(`${b.method}, ${b.events} events, ${completeness}${note}`)]);
  }
  rows.push(
    ["Tool", h(`${report.tool.name} ${report.tool.version}`)],
    ["Started", h(report.startedAt)],
    ["Duration", seconds(report.durationMs)],
  );
  if (report.incompleteReason !== undefined) rows.push(["Why incomplete", h(report.incompleteReason)]);
  return `<dl class="meta">${rows.map(([k, v]) => `<dt>${h(k)}</dt><dd>${v}</dd>`).join("")}</dl>`;
}

function summaryTable(report: Report): string {
  const head = STATUSES.map((s) => `<th class="${s}">${s}</th>`).join("");
  const cells = STATUSES.map((s) => `<td class="num ${s}">${report.summary[s]}</td>`).join("");
  return `<table class="summary"><thead><tr>${head}</tr></thead><tbody><tr>${cells}</tr></tbody></table>`;
}

/** The exchange that showed why the run could not be completed, when one did. */
function whyIncomplete(report: Report): string {
  const evidence = report.incompleteEvidence ?? [];
  if (evidence.length === 0) return "";
  return (
    `<h2 id="why-incomplete">Why the run is incomplete</h2><p class="reason">${h(report.incompleteReason ?? "")}</p>` +
    `<div class="evidence">${evidence.map(evidenceItem).join("")}</div>`
  );
}

/** What changed since the report --baseline named: each change a row, its id a link to the requirement's row. */
function changesSection(report: Report): string {
  const c = report.changes;
  if (c === undefined) return "";
  const link = (id: string) => `<a href="#${h(id)}"><code>${h(id)}</code></a>`;
  const rows = [
    ...c.newlyFailing.map((x) => ["newly failing", link(x.id), h(`${x.from} → ${x.to}`)]),
    ...c.newlyPassing.map((x) => ["newly passing", link(x.id), h(`${x.from} → ${x.to}`)]),
    ...c.changed.map((x) => ["changed", link(x.id), h(`${x.from} → ${x.to}`)]),
    ...c.added.map((id) => ["added", link(id), "not in the baseline"]),
    // A removed requirement has no row in this report to link to.
    ...c.removed.map((id) => ["removed", `<code>${h(id)}</code>`, "not in this run"]),
  ];
  const verdict = c.regressed
    ? `<strong class="fail">${plural(c.newlyFailing.length, "requirement")} regressed</strong>`
    : '<strong class="pass">no regression</strong>';
  const table =
    rows.length === 0
      ? "<p>No requirement changed status.</p>"
      : `<table class="changes"><thead><tr><th>Change</th><th>Id</th><th>Status</th></tr></thead><tbody>` +
        `${rows.map((cells) => `<tr>${cells.map((x) => `<td>${x}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
  return (
    `<h2 id="changes">Changes since the baseline</h2><p>Compared with <code>${h(c.baseline)}</code>: ${verdict}.</p>` +
    table
  );
}

function hasEvidenceSection(r: RequirementResult): boolean {
  return r.status === "fail" || r.status === "warn" || r.status === "error";
}

/** The spec's words the requirement rests on, quoted under its title. */
function specQuote(r: RequirementResult): string {
  return r.spec === undefined ? "" : `<blockquote class="spec">${h(r.spec)}</blockquote>`;
}

/** The reason; of a blocked skip, with its blocker's id a link to the row of the requirement that failed. */
function reasonCell(r: RequirementResult): string {
  const reason = r.reason ?? "";
  if (r.blockedBy === undefined) return `<td>${h(reason)}</td>`;
  const link = `<a class="blocked-by" href="#${h(r.blockedBy)}"><code>${h(r.blockedBy)}</code></a>`;
  const said = `blocked by ${r.blockedBy}`;
  return reason.startsWith(said)
    ? `<td>blocked by ${link}${h(reason.slice(said.length))}</td>`
    : `<td>blocked by ${link}: ${h(reason)}</td>`;
}

function requirementRow(r: RequirementResult): string {
  const idCell = hasEvidenceSection(r)
    ? `<a href="#evidence-${h(r.id)}"><code>${h(r.id)}</code></a>`
    : `<code>${h(r.id)}</code>`;
  return (
    `<tr id="${h(r.id)}"><td>${idCell}</td><td>${h(r.title)}${specQuote(r)}</td><td>${h(r.section)}</td>` +
    `<td>${h(r.level)}</td><td>${statusCell(r.status)}</td>${reasonCell(r)}</tr>`
  );
}

function requirementsTable(requirements: readonly RequirementResult[]): string {
  const groups = groupByClass(requirements).map(
    (g) =>
      `<tbody><tr><th class="group" colspan="6" id="class-${h(g.class)}">${h(g.class)}</th></tr>` +
      `${g.requirements.map(requirementRow).join("")}</tbody>`,
  );
  return (
    "<table><thead><tr><th>Id</th><th>Title</th><th>Section</th><th>Level</th><th>Status</th><th>Reason</th>" +
    `</tr></thead>${groups.join("")}</table>`
  );
}

/** The chosen classes' requirements, then those of classes not chosen folded into one line. */
function requirementsSection(report: Report): string {
  if (report.requirements.length === 0) return "<p>No requirement was checked.</p>";
  const chosen = chosenClasses(report);
  const run = report.requirements.filter((r) => chosen.includes(r.class));
  const notRun = report.requirements.filter((r) => !chosen.includes(r.class));
  const parts = run.length > 0 ? [requirementsTable(run)] : [];
  if (notRun.length > 0) {
    const classes = groupByClass(notRun).map((g) => g.class);
    parts.push(
      `<details class="more not-selected" id="not-selected"><summary>${plural(notRun.length, "requirement")} of ` +
        `${h(classes.join(", "))} skipped: class not selected with --suite</summary>${requirementsTable(notRun)}</details>`,
    );
  }
  return parts.join("");
}

const FLAGGED_ORDER: Record<Status, number> = { fail: 0, error: 1, warn: 2, skip: 3, pass: 4 };

function evidenceDetails(r: RequirementResult): string {
  // A warning is collapsed: it does not decide the verdict, and failures come first.
  const open = r.status === "warn" ? "" : " open";
  const reason = r.reason ? `<p class="reason">${h(r.reason)}</p>` : "";
  const where = `${r.level} · section ${r.section} · ${r.class}`;
  return (
    `<details class="requirement req-${r.status}" id="evidence-${h(r.id)}"${open}><summary>${statusCell(r.status)} ` +
    `<code>${h(r.id)}</code> ${h(r.title)}<span class="meta">${h(where)}</span></summary>` +
    `${specQuote(r)}${reason}${evidenceSection(r)}</details>`
  );
}

/**
 * Requirements that could not be decided for one reason and left no evidence (a run that stopped early makes
 * every selected one so), in one block instead of one each; each keeps the anchor its row links to.
 */
function undecidedBlock(reason: string, requirements: readonly RequirementResult[]): string {
  const items = requirements
    .map((r) => `<li id="evidence-${h(r.id)}"><code>${h(r.id)}</code> ${h(r.title)}</li>`)
    .join("");
  return (
    `<details class="requirement req-error" open><summary>${statusCell("error")} ` +
    `${plural(requirements.length, "requirement")} not decided</summary><p class="reason">${h(reason)}</p>` +
    `<ul class="others">${items}</ul></details>`
  );
}

function flaggedSection(report: Report): string {
  const flagged = report.requirements.filter(hasEvidenceSection);
  if (flagged.length === 0) return "";
  const ordered = groupByClass(flagged)
    .flatMap((g) => g.requirements)
    .map((r, i) => ({ r, i }))
    .sort((a, b) => FLAGGED_ORDER[a.r.status] - FLAGGED_ORDER[b.r.status] || a.i - b.i)
    .map(({ r }) => r);
  const undecided = new Map<string, RequirementResult[]>();
  for (const r of ordered) {
    if (r.status !== "error" || r.evidence.length > 0) continue;
    const reason = r.reason ?? "no reason given";
    undecided.set(reason, [...(undecided.get(reason) ?? []), r]);
  }
  const blocks: string[] = [];
  for (const r of ordered) {
    const alike =
      r.status === "error" && r.evidence.length === 0
        ? undecided.get(r.reason ?? "no reason given")
        : undefined;
    if (alike === undefined || alike.length < 2) blocks.push(evidenceDetails(r));
    else if (alike[0] === r) blocks.push(undecidedBlock(r.reason ?? "no reason given", alike));
  }
  return `<h2 id="evidence">Failures, errors and warnings</h2>${blocks.join("\n")}`;
}

/** report.html: a single self-contained page that needs neither scripts nor the network to be read or printed. */
export function toHtml(report: Report): string {
  const v = verdictOf(report);
  const flagged = report.requirements.some(hasEvidenceSection);
  const toc = [
    ...((report.incompleteEvidence ?? []).length > 0
      ? ['<a href="#why-incomplete">Why the run is incomplete</a>']
      : []),
    '<a href="#run">What shaped this run</a>',
    ...(report.changes === undefined ? [] : ['<a href="#changes">Changes since the baseline</a>']),
    ...(flagged ? ['<a href="#evidence">Failures, errors and warnings</a>'] : []),
    '<a href="#requirements">All requirements</a>',
  ];
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${v.word}: tracecheck report for ${h(report.target.events)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    banner(report),
    `<h1>tracecheck report for ${h(report.target.events)}</h1>`,
    `<nav class="toc">${toc.join("")}</nav>`,
    whyIncomplete(report),
    '<h2 id="run">What shaped this run</h2>',
    meta(report),
    '<h2 id="summary">Summary</h2>',
    summaryTable(report),
    changesSection(report),
    flaggedSection(report),
    '<h2 id="requirements">All requirements</h2>',
    requirementsSection(report),
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
