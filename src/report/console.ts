import type { Report, RequirementResult, Status, Summary } from "../engine/types.ts";
import { type Paint, paint } from "./ansi.ts";
import { countStatuses, groupByClass, STATUSES } from "./classes.ts";
import type { ReportDiff } from "./diff.ts";
import { singleLine, stripTerminalControls } from "./text.ts";
import { verdictOf } from "./verdict.ts";

export const STATUS_PAINT: Record<Status, Paint> = {
  pass: "green",
  fail: "red",
  warn: "yellow",
  skip: "cyan",
  error: "magenta",
};

const LABEL_WIDTH = Math.max(...STATUSES.map((s) => s.length));

function statusLabel(status: Status, color: boolean): string {
  return paint(status.toUpperCase().padEnd(LABEL_WIDTH), STATUS_PAINT[status], color);
}

function table(rows: { name: string; counts: Summary }[], total: Summary, color: boolean): string[] {
  const nameWidth = Math.max("class".length, "total".length, ...rows.map((r) => r.name.length));
  const widths = STATUSES.map((s) =>
    Math.max(s.length, String(total[s]).length, ...rows.map((r) => String(r.counts[s]).length)),
  );
  const line = (name: string, cells: string[], counts?: Summary): string => {
    const padded = cells.map((cell, i) => {
      const status = STATUSES[i]!;
      const text = cell.padStart(widths[i]!);
      // Zeros stay plain so that the eye lands on the counts that matter.
      return counts && counts[status] > 0 ? paint(text, STATUS_PAINT[status], color) : text;
    });
    return `${name.padEnd(nameWidth)}  ${padded.join("  ")}`;
  };
  const numbers = (counts: Summary): string[] => STATUSES.map((s) => String(counts[s]));
  return [
    paint(line("class", [...STATUSES]), "bold", color),
    ...rows.map((r) => line(r.name, numbers(r.counts), r.counts)),
    line("total", numbers(total), total),
  ];
}

/** Where a requirement's curl line goes: under its id, so that the eye reads the failure and then its replay. */
const CURL_INDENT = " ".repeat(LABEL_WIDTH + 2);

function requirementLines(r: RequirementResult, color: boolean): string[] {
  const reason = r.reason ? ` (${singleLine(r.reason)})` : "";
  const line = `${statusLabel(r.status, color)}  ${singleLine(r.id)}  ${singleLine(r.title)}${reason}`;
  // The first exchange that shows the defect, as a command the vendor can run against their own server.
  const curl = r.status === "skip" ? undefined : r.evidence.find((e) => e.curl !== undefined)?.curl;
  return curl === undefined ? [line] : [line, `${CURL_INDENT}${paint(singleLine(curl), "dim", color)}`];
}

/** Whether the run chose the requirement's class; a report of an older version, without options, chose all. */
function selected(report: Report): (r: RequirementResult) => boolean {
  const suites = report.options?.suites;
  return (r) => suites === undefined || suites.includes(r.class);
}

/** One line for every requirement of a class the run did not choose, instead of one SKIP line each. */
function notSelectedLine(skipped: readonly RequirementResult[], color: boolean): string {
  const classes = groupByClass(skipped).map((g) => stripTerminalControls(g.class));
  return `${statusLabel("skip", color)}  ${skipped.length} requirement(s) of ${classes.join(", ")}: class not selected with --suite`;
}

function verdictLine(report: Report, diff: ReportDiff | undefined, color: boolean): string {
  const v = verdictOf(report, diff);
  const style: Record<typeof v.word, Paint> = {
    PASS: "green",
    FAIL: "red",
    INCOMPLETE: "magenta",
    INTERRUPTED: "magenta",
  };
  const warned = v.word === "PASS" && v.warnings > 0 ? ` with ${v.warnings} warning(s)` : "";
  return paint(
    `verdict: ${v.word}, ${singleLine(v.because)}${warned} (exit ${v.exitCode})`,
    style[v.word],
    color,
  );
}

/**
 * The end-of-run summary: counts per chosen class, one line per requirement that did not pass with the curl line
 * that replays its first exchange, one line for the classes not chosen, totals, and the verdict. With a diff, the
 * verdict accounts for a regression as the exit status does.
 */
export function formatSummary(report: Report, opts: { color: boolean; diff?: ReportDiff }): string {
  const isSelected = selected(report);
  const chosen = report.requirements.filter(isSelected);
  const notChosen = report.requirements.filter((r) => !isSelected(r));
  const groups = groupByClass(chosen);
  const rows = groups.map((g) => ({
    name: stripTerminalControls(g.class),
    counts: countStatuses(g.requirements),
  }));
  const total = countStatuses(report.requirements);
  const lines = table(rows, total, opts.color);
  const notPassing = groups.flatMap((g) => g.requirements.filter((r) => r.status !== "pass"));
  const listed = notPassing.flatMap((r) => requirementLines(r, opts.color));
  if (notChosen.length > 0) listed.push(notSelectedLine(notChosen, opts.color));
  if (listed.length > 0) lines.push("", ...listed);
  const counted = STATUSES.map((s) => `${total[s]} ${s}`).join(", ");
  lines.push(
    "",
    `${report.requirements.length} requirements: ${counted}`,
    verdictLine(report, opts.diff, opts.color),
  );
  return lines.join("\n");
}

/** Colour only for a terminal that wants it: never when piped, with NO_COLOR set to anything, or TERM=dumb. */
export function useColor(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  if (stream.isTTY !== true) return false;
  if (env["NO_COLOR"] !== undefined) return false;
  return env["TERM"] !== "dumb";
}

export interface ProgressEvent {
  class: string;
  done: number;
  total?: number;
  id?: string;
  status?: Status;
}

/** One line of progress while a class runs, e.g. "events 12/40 EVT-TIME-LT-STRICT PASS". */
export function progressLine(event: ProgressEvent, opts: { color: boolean } = { color: false }): string {
  const count = event.total === undefined ? String(event.done) : `${event.done}/${event.total}`;
  const parts = [stripTerminalControls(event.class), count];
  if (event.id !== undefined) parts.push(singleLine(event.id));
  if (event.status !== undefined)
    parts.push(paint(event.status.toUpperCase(), STATUS_PAINT[event.status], opts.color));
  return parts.join(" ");
}
