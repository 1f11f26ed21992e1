// The hostile matrix at full size: `tracecheck run`, a process of its own as users run it, against targets that
// misbehave in every way a target was seen to (pages of ~15 MiB that never end, a body of a gigabyte, hangs, drips,
// resets, loops, redirects and links to another origin, 500, a standing 429, slow headers, a resolver that hangs).
// Each row must end with the exit status due, within a bound only a hang would cross, under the bound of resident
// memory, with its report written, and without the key reaching another origin. `npm test` runs the same targets
// small (test/hostile); this is where their full sizes are shown. The rows are hostile-table.ts's, each run by
// hostile-runner.ts and judged by hostile-judge.ts; hostile-text.ts writes the table.
import { mkdir } from "node:fs/promises";
import { type HostileResult, judgeHostileRun, keyLeaks } from "./hostile-judge.ts";
import { HOSTILE_KEY, runAgainstHostileTarget } from "./hostile-runner.ts";
import { HOSTILE_ROWS, type HostileEffort, type HostileRow, PEAK_RSS_BOUND_BYTES } from "./hostile-table.ts";
import { mapPool } from "./pool.ts";

/** Runs one row against a hostile target of its own and judges it. */
export async function runHostileRow(
  row: HostileRow,
  effort: HostileEffort,
  workDir: string,
): Promise<HostileResult> {
  const { flags, run, otherOrigin, texts } = await runAgainstHostileTarget(row, effort, workDir);
  const leaks = keyLeaks(HOSTILE_KEY, otherOrigin, texts);
  // The reason for a budget flag is the full size's; the quick effort sets its small budgets on every row.
  const judged = effort.name === "full" ? row : { ...row, why: undefined };
  return judgeHostileRun(judged, flags, run, leaks, otherOrigin.length, effort.runBoundMs);
}

export interface HostileMatrix {
  generatedAt: string;
  effort: HostileEffort["name"];
  events: number;
  pageBytes: number;
  peakBoundBytes: number;
  concurrency: number;
  wallMs: number;
  rows: HostileResult[];
  ok: number;
  total: number;
}

export interface HostileMatrixOptions {
  effort: HostileEffort;
  concurrency: number;
  /** Report directories go here, one per row. */
  workDir: string;
  /** Only these rows (all by default). */
  rows?: readonly HostileRow[];
  onRow?: (row: HostileResult) => void;
}

export async function runHostileMatrix(opts: HostileMatrixOptions): Promise<HostileMatrix> {
  const started = Date.now();
  await mkdir(opts.workDir, { recursive: true });
  const rows = await mapPool(opts.rows ?? HOSTILE_ROWS, opts.concurrency, async (row) => {
    const result = await runHostileRow(row, opts.effort, opts.workDir);
    opts.onRow?.(result);
    return result;
  });
  return {
    generatedAt: new Date(started).toISOString(),
    effort: opts.effort.name,
    events: opts.effort.events,
    pageBytes: opts.effort.pageBytes,
    peakBoundBytes: PEAK_RSS_BOUND_BYTES,
    concurrency: opts.concurrency,
    wallMs: Date.now() - started,
    rows,
    ok: rows.filter((r) => r.ok).length,
    total: rows.length,
  };
}
