import type { Report, ReportChanges, RequirementResult, StatusChange } from "../engine/types.ts";
import { type Paint, paint } from "./ansi.ts";
import { isFailing } from "./classes.ts";
import { stripTerminalControls } from "./text.ts";

export type Change = StatusChange;

/**
 * What changed from one report to another: the `changes` a report records, without the file it was compared with.
 * A change to error is never newly failing: an undecided requirement (the network broke, the harness faulted) says
 * nothing of the target, so it goes to `changed` and the run is incomplete.
 */
export type ReportDiff = Omit<ReportChanges, "baseline">;

function byId(report: Pick<Report, "requirements">): Map<string, RequirementResult> {
  return new Map(report.requirements.map((r) => [r.id, r]));
}

/** What changed from an earlier run to a later one, listed in the later report's order. */
export function diffReports(
  oldR: Pick<Report, "requirements">,
  newR: Pick<Report, "requirements">,
): ReportDiff {
  const before = byId(oldR);
  const after = byId(newR);
  const diff: ReportDiff = {
    newlyFailing: [],
    newlyPassing: [],
    changed: [],
    added: [],
    removed: [],
    regressed: false,
  };
  for (const r of after.values()) {
    const old = before.get(r.id);
    if (!old) {
      diff.added.push(r.id);
      continue;
    }
    if (old.status === r.status) continue;
    const change: Change = { id: r.id, from: old.status, to: r.status };
    if (!isFailing(old.status) && r.status === "fail") diff.newlyFailing.push(change);
    else if (isFailing(old.status) && (r.status === "pass" || r.status === "warn"))
      diff.newlyPassing.push(change);
    else diff.changed.push(change);
  }
  for (const id of before.keys()) if (!after.has(id)) diff.removed.push(id);
  diff.regressed = diff.newlyFailing.length > 0;
  return diff;
}

function changeLines(title: string, changes: Change[], style: Paint, color: boolean): string[] {
  if (changes.length === 0) return [];
  const width = Math.max(...changes.map((c) => c.id.length));
  return [
    paint(`${title} (${changes.length})`, style, color),
    ...changes.map((c) => `  ${stripTerminalControls(c.id).padEnd(width)}  ${c.from} -> ${c.to}`),
  ];
}

function idLines(title: string, ids: string[]): string[] {
  if (ids.length === 0) return [];
  return [`${title} (${ids.length})`, ...ids.map((id) => `  ${stripTerminalControls(id)}`)];
}

/** The diff for the console: one block per kind of change, then whether the run regressed. */
export function formatDiff(d: ReportDiff, opts: { color: boolean }): string {
  const lines = [
    ...changeLines("newly failing", d.newlyFailing, "red", opts.color),
    ...changeLines("newly passing", d.newlyPassing, "green", opts.color),
    ...changeLines("changed", d.changed, "yellow", opts.color),
    ...idLines("added", d.added),
    ...idLines("removed", d.removed),
  ];
  if (lines.length === 0) lines.push("no requirement changed status");
  lines.push(
    d.regressed
      ? paint(`regressed: ${d.newlyFailing.length} requirement(s) newly failing`, "red", opts.color)
      : paint("no regression", "green", opts.color),
  );
  return lines.join("\n");
}
