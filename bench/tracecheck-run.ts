// One `tracecheck run` as a user would start it, timed, with the report it wrote; and the notes the benchmarks
// that time such runs share.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Report } from "../src/engine/types.ts";
import { BENCH_SEED } from "./baseline-events.ts";
import { type CommandOutcome, timeTracecheck } from "./command.ts";
import { median } from "./sample.ts";
import { formatNumber } from "./table.ts";

const RUN_TIMEOUT_MS = 10 * 60_000;

export interface RunFigures {
  outcome: CommandOutcome;
  report?: Report;
}

/** `tracecheck run --seed <bench seed> --quiet <args>`, its report written to a folder removed afterwards. */
export async function runOnce(args: readonly string[], env: NodeJS.ProcessEnv): Promise<RunFigures> {
  const reportDir = await mkdtemp(path.join(os.tmpdir(), "tracecheck-bench-"));
  try {
    const outcome = await timeTracecheck(
      ["run", "--seed", String(BENCH_SEED), "--quiet", "--report-dir", reportDir, ...args],
      env,
      RUN_TIMEOUT_MS,
    );
    const report = await readFile(path.join(reportDir, "report.json"), "utf8").then(
      (text) => JSON.parse(text) as Report,
      () => undefined,
    );
    return report === undefined ? { outcome } : { outcome, report };
  } finally {
    await rm(reportDir, { recursive: true, force: true });
  }
}

/** The environment without an API key from the caller's shell: a run is given exactly the key it needs. */
export function envWithoutKey(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.TRACECHECK_API_KEY;
  return env;
}

/** The verdict counts of the first run, and the exit status of every run. */
export function verdictNote(runs: readonly RunFigures[]): string {
  const s = runs[0]?.report?.summary;
  const summary =
    s === undefined ? "no report" : `${s.pass} pass, ${s.fail} fail, ${s.skip} skip, ${s.error} error`;
  return `exit ${runs.map((r) => r.outcome.exitCode).join(", ")}; ${summary}`;
}

export function runsNote(runs: readonly RunFigures[]): string {
  return `median of ${runs.map((r) => formatNumber(r.outcome.ms / 1000)).join(", ")} s`;
}

export function medianMs(runs: readonly RunFigures[]): number {
  return median(runs.map((r) => r.outcome.ms));
}

export function allPassed(runs: readonly RunFigures[]): boolean {
  return runs.every((r) => r.outcome.exitCode === 0);
}

/** What a series of runs of one kind comes to: its median wall time, whether every run exited 0, and a note of both. */
export function seriesOf(runs: readonly RunFigures[]): { ms: number; passed: boolean; note: string } {
  return { ms: medianMs(runs), passed: allPassed(runs), note: `${runsNote(runs)}; ${verdictNote(runs)}` };
}
