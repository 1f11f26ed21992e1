import type { Report, RequirementResult, Status, Summary } from "../types.ts";
import { type Paint, paint } from "./ansi.ts";
import { countStatuses, groupByClass, STATUSES } from "./classes.ts";
import type { ReportDiff } from "./diff.ts";
import { exitCodeFor } from "./exit-code.ts";
import { singleLine, stripTerminalControls } from "./text.ts";

const STATUS_PAINT: Record<Status, Paint> = {
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

function requirementLine(r: RequirementResult, color: boolean): string {
  const reason = r.reason ? ` (${singleLine(r.reason)})` : "";
  return `${statusLabel(r.status, color)}  ${singleLine(r.id)}  ${singleLine(r.title)}${reason}`;
}

function verdict(report: Report, diff: ReportDiff | undefined, color: boolean): string {
  const code = exitCodeFor(report, diff);
  const must = report.requirements.filter((r) => r.level === "MUST");
  if (code === 1) {
    const failed = must.filter((r) => r.status === "fail").length;
    const causes = [
      ...(failed > 0 ? [`${failed} MUST requirement(s) failed`] : []),
      ...(diff?.regressed
        ? [`${diff.newlyFailing.length} requirement(s) regressed against the baseline`]
        : []),
    ];
    return paint(`verdict: FAIL, ${causes.join(" and ")} (exit 1)`, "red", color);
  }
  if (code === 2) {
    const errored = must.filter((r) => r.status === "error").length;
    return paint(
      `verdict: INCOMPLETE, ${errored} MUST requirement(s) could not be checked (exit 2)`,
      "magenta",
      color,
    );
  }
  const warnings = report.requirements.filter((r) => r.status === "warn").length;
  const suffix = warnings > 0 ? ` with ${warnings} warning(s)` : "";
  return paint(`verdict: PASS, every applicable MUST requirement passed${suffix} (exit 0)`, "green", color);
}

/**
 * The end-of-run summary: counts per class, one line per requirement that did not pass, totals, and the
 * verdict. With a diff, the verdict accounts for a regression as the exit status does.
 */
export function formatSummary(report: Report, opts: { color: boolean; diff?: ReportDiff }): string {
  const groups = groupByClass(report.requirements);
  const rows = groups.map((g) => ({
    name: stripTerminalControls(g.class),
    counts: countStatuses(g.requirements),
  }));
  const total = countStatuses(report.requirements);
  const lines = table(rows, total, opts.color);
  const notPassing = groups.flatMap((g) => g.requirements.filter((r) => r.status !== "pass"));
  if (notPassing.length > 0) lines.push("", ...notPassing.map((r) => requirementLine(r, opts.color)));
  const counted = STATUSES.map((s) => `${total[s]} ${s}`).join(", ");
  lines.push(
    "",
    `${report.requirements.length} requirements: ${counted}`,
    verdict(report, opts.diff, opts.color),
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
