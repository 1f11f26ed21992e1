import type { Evidence, Report, RequirementResult, Status } from "../types.ts";
import { groupByClass, STATUSES } from "./classes.ts";
import { escapeHtml as h, jsonText } from "./text.ts";

// Inline styles only and a policy that forbids every fetch: the file is opened from CI artefacts and mail.
const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1f2328; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dl.meta dt { font-weight: 600; }
dl.meta dd { margin: 0; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { border: 1px solid #d0d7de; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
tbody th.group { background: #eaeef2; font-size: 1rem; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font: 12px/1.4 ui-monospace, monospace; }
pre { background: #f6f8fa; padding: .5rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; margin: .3rem 0; }
.status { font-weight: 600; text-transform: uppercase; }
.pass { color: #1a7f37; } .fail { color: #cf222e; } .warn { color: #9a6700; }
.skip { color: #57606a; } .error { color: #8250df; }
details { border: 1px solid #d0d7de; border-radius: 6px; padding: .5rem .8rem; margin: .6rem 0; }
summary { cursor: pointer; font-weight: 600; }
.evidence { border-top: 1px dashed #d0d7de; margin-top: .6rem; padding-top: .4rem; }
.compare { display: grid; grid-template-columns: 1fr 1fr; gap: .8rem; }
h4 { margin: .5rem 0 .2rem; font-size: .9rem; }
blockquote.spec { margin: .25rem 0 0; padding-left: .6rem; border-left: 3px solid #d0d7de; color: #57606a; font-size: 13px; }
`;

function statusCell(status: Status): string {
  return `<span class="status ${status}">${status}</span>`;
}

function meta(report: Report): string {
  const rows: [string, string][] = [
    ["Events target", report.target.events],
    ["Resolver", report.target.resolver],
    ["Started", report.startedAt],
    ["Duration", `${report.durationMs} ms`],
    ["Harness", `${report.tool.name} ${report.tool.version}`],
    ["Seed", String(report.seed)],
    ["Runs per property", String(report.runs)],
  ];
  const b = report.baseline;
  if (b) {
    const completeness = b.complete ? "complete" : "partial";
    const note = b.note ? `; ${b.note}` : "";
    rows.push(["Baseline", `${b.method}, ${b.events} events, ${completeness}${note}`]);
  }
  return `<dl class="meta">${rows.map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join("")}</dl>`;
}

function summaryTable(report: Report): string {
  const head = STATUSES.map((s) => `<th class="${s}">${s}</th>`).join("");
  const cells = STATUSES.map((s) => `<td class="num ${s}">${report.summary[s]}</td>`).join("");
  return `<table class="summary"><thead><tr>${head}</tr></thead><tbody><tr>${cells}</tr></tbody></table>`;
}

function hasEvidenceSection(r: RequirementResult): boolean {
  return r.status === "fail" || r.status === "warn" || r.status === "error";
}

/** The spec's words the requirement rests on, quoted under its title. */
function specQuote(r: RequirementResult): string {
  return r.spec === undefined ? "" : `<blockquote class="spec">${h(r.spec)}</blockquote>`;
}

function requirementRow(r: RequirementResult): string {
  const idCell = hasEvidenceSection(r)
    ? `<a href="#evidence-${h(r.id)}"><code>${h(r.id)}</code></a>`
    : `<code>${h(r.id)}</code>`;
  return (
    `<tr id="${h(r.id)}"><td>${idCell}</td><td>${h(r.title)}${specQuote(r)}</td><td>${h(r.section)}</td>` +
    `<td>${h(r.level)}</td><td>${statusCell(r.status)}</td><td>${h(r.reason ?? "")}</td></tr>`
  );
}

function requirementsTable(report: Report): string {
  if (report.requirements.length === 0) return "<p>No requirement was checked.</p>";
  const groups = groupByClass(report.requirements).map(
    (g) =>
      `<tbody><tr><th class="group" colspan="6" id="class-${h(g.class)}">${h(g.class)}</th></tr>` +
      `${g.requirements.map(requirementRow).join("")}</tbody>`,
  );
  return (
    "<table><thead><tr><th>Id</th><th>Title</th><th>Section</th><th>Level</th><th>Status</th><th>Reason</th>" +
    `</tr></thead>${groups.join("")}</table>`
  );
}

function pre(value: string): string {
  return `<pre>${h(value)}</pre>`;
}

function headers(record: Record<string, string>): string {
  return Object.entries(record)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
}

function exchange(e: Evidence): string {
  const parts: string[] = [];
  if (e.request) {
    const head = headers(e.request.headers);
    parts.push(`<h4>Request</h4>${pre(`${e.request.method} ${e.request.url}${head ? `\n${head}` : ""}`)}`);
  }
  if (e.response) {
    const r = e.response;
    const size = `${r.bodyBytes} bytes${r.truncated ? ", excerpt truncated" : ""}`;
    const head = headers(r.headers);
    parts.push(
      `<h4>Response: ${r.status} (${h(size)})</h4>${pre(`${head}${head ? "\n\n" : ""}${r.bodyExcerpt}`)}`,
    );
  }
  return parts.join("");
}

function idList(label: string, ids: string[] | undefined): string {
  if (!ids || ids.length === 0) return "";
  return `<h4>${label} (${ids.length})</h4><ul>${ids.map((id) => `<li><code>${h(id)}</code></li>`).join("")}</ul>`;
}

function evidenceBlock(e: Evidence): string {
  const parts: string[] = [];
  if (e.message !== undefined) parts.push(`<p>${h(e.message)}</p>`);
  parts.push(exchange(e));
  if (e.expected !== undefined || e.actual !== undefined) {
    const side = (label: string, v: unknown): string =>
      `<div><h4>${label}</h4>${v === undefined ? "<p>(not recorded)</p>" : pre(jsonText(v))}</div>`;
    parts.push(`<div class="compare">${side("Expected", e.expected)}${side("Actual", e.actual)}</div>`);
  }
  parts.push(idList("Missing", e.missing), idList("Extra", e.extra));
  if (e.seed !== undefined) parts.push(`<h4>Seed</h4>${pre(String(e.seed))}`);
  if (e.counterexample !== undefined) parts.push(`<h4>Counterexample</h4>${pre(jsonText(e.counterexample))}`);
  if (e.curl !== undefined) parts.push(`<h4>Reproduce</h4>${pre(e.curl)}`);
  return `<div class="evidence">${parts.join("")}</div>`;
}

function evidenceDetails(r: RequirementResult): string {
  const open = r.status === "warn" ? "" : " open";
  const reason = r.reason ? `<p>${h(r.reason)}</p>` : "";
  const items =
    r.evidence.length === 0 ? "<p>No evidence was recorded.</p>" : r.evidence.map(evidenceBlock).join("");
  return (
    `<details id="evidence-${h(r.id)}"${open}><summary>${statusCell(r.status)} <code>${h(r.id)}</code> ` +
    `${h(r.title)}</summary>${specQuote(r)}${reason}${items}</details>`
  );
}

/** report.html: a single self-contained page that needs neither scripts nor the network to be read. */
export function toHtml(report: Report): string {
  const flagged = report.requirements.filter(hasEvidenceSection);
  const evidence =
    flagged.length === 0
      ? ""
      : `<h2>Evidence</h2>${groupByClass(flagged)
          .flatMap((g) => g.requirements.map(evidenceDetails))
          .join("\n")}`;
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>tracecheck report: ${h(report.target.events)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    "<h1>tracecheck report</h1>",
    meta(report),
    "<h2>Summary</h2>",
    summaryTable(report),
    "<h2>Requirements</h2>",
    requirementsTable(report),
    evidence,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
