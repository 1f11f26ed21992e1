// The hostile matrix's judge: a run held to what its row expects (the exit due, ended by itself within its bound,
// under the bound of resident memory, its report written, the key kept from every other origin).

import type { MeasuredRun } from "./hostile-runner.ts";
import type { Misbehaviour, Received, Scope } from "./hostile-server.ts";
import { type HostileRow, PEAK_RSS_BOUND_BYTES } from "./hostile-table.ts";

const MIB = 1024 * 1024;

/** Where the key showed that it must not: a request on another origin, the run's output, its report files. */
export function keyLeaks(key: string, other: readonly Received[], texts: Record<string, string>): string[] {
  const found: string[] = [];
  for (const r of other) {
    if (r.key !== undefined) found.push(`X-API-Key on the other origin's ${r.path}`);
    else if (r.headerText.includes(key)) found.push(`a header on the other origin's ${r.path}`);
    if (r.path.includes(key)) found.push(`the URL ${r.path.split(key).join("<key>")} on the other origin`);
  }
  for (const [where, text] of Object.entries(texts)) if (text.includes(key)) found.push(where);
  return found;
}

export interface HostileResult {
  label: string;
  behaviour: string;
  misbehaviour: Misbehaviour;
  scope: Scope;
  /** The flags beyond the target, key, seed and report directory. */
  flags: string[];
  why?: string;
  exitDue: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  durationMs: number;
  boundMs: number;
  peakRssBytes?: number;
  peakAtExit: boolean;
  reportWritten: boolean;
  /** What the run decided: the requirements it failed and those it left undecided (error). */
  failed: string[];
  errored: string[];
  /** Requests that reached the other origin, and where the key showed that it must not. */
  otherOriginRequests: number;
  keyLeaks: string[];
  /** Why the row is not as it must be; empty when it is. */
  problems: string[];
  ok: boolean;
  /** The run's reason when incomplete, or, when it wrote no report, the last lines it printed on stderr. */
  note?: string;
}

/** Judges one run: the exit due, ended by itself within its bound, under the memory bound, report written, key kept. */
export function judgeHostileRun(
  row: HostileRow,
  flags: string[],
  run: MeasuredRun,
  leaks: string[],
  otherOriginRequests: number,
  boundMs: number,
): HostileResult {
  const problems: string[] = [];
  if (run.timedOut) problems.push(`still running after ${Math.round(boundMs / 1000)} s, stopped`);
  else if (run.signal !== null) problems.push(`killed by ${run.signal}`);
  if (run.exitCode !== row.exit) problems.push(`exit ${run.exitCode ?? "-"}, due ${row.exit}`);
  if (run.peakRssBytes === undefined) problems.push("no peak resident memory was measured");
  else if (run.peakRssBytes >= PEAK_RSS_BOUND_BYTES || !run.peakAtExit) {
    const mib = Math.round(run.peakRssBytes / MIB);
    problems.push(
      run.peakAtExit
        ? `peak resident memory ${mib} MiB, over ${PEAK_RSS_BOUND_BYTES / MIB} MiB`
        : `peak resident memory at least ${mib} MiB before the process died`,
    );
  }
  if (run.report === undefined) problems.push("no report.json");
  if (leaks.length > 0) problems.push(`the key showed in ${leaks.join("; ")}`);
  if (/heap out of memory|harness error|Unhandled/.test(run.stderr)) problems.push("the harness crashed");
  const lastWords = run.stderr.trim().split("\n").slice(-3).join(" ").trim();
  const note = run.report === undefined ? lastWords || undefined : run.report.incompleteReason;
  const ids = (status: string) =>
    (run.report?.requirements ?? []).filter((r) => r.status === status).map((r) => r.id);
  return {
    label: row.label,
    behaviour: row.behaviour,
    misbehaviour: row.misbehaviour,
    scope: row.scope,
    flags,
    ...(row.why === undefined ? {} : { why: row.why }),
    exitDue: row.exit,
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    boundMs,
    ...(run.peakRssBytes === undefined ? {} : { peakRssBytes: run.peakRssBytes }),
    peakAtExit: run.peakAtExit,
    reportWritten: run.report !== undefined,
    failed: ids("fail"),
    errored: ids("error"),
    otherOriginRequests,
    keyLeaks: leaks,
    problems,
    ok: problems.length === 0,
    ...(note === undefined ? {} : { note }),
  };
}
