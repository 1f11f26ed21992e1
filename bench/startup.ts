// Start-up: `tracecheck run --suite auth` against the embedded reference, the smallest run there is, so that its
// wall time is mostly what every run pays before its first check (target at most 0.6 s).
import { BENCH_SEED } from "./baseline-events.ts";
import { progress } from "./child.ts";
import type { Benchmark } from "./row.ts";
import {
  allPassed,
  envWithoutKey,
  medianMs,
  type RunFigures,
  runOnce,
  runsNote,
  verdictNote,
} from "./tracecheck-run.ts";

const TARGET_SECONDS = 0.6;
/** Runs timed; their median is the figure. */
const ROUNDS = 5;

export const startupBenchmark: Benchmark = {
  name: "startup",
  async run() {
    const env = envWithoutKey();
    const runs: RunFigures[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      progress(`startup: run ${round} of ${ROUNDS} of --suite auth`);
      runs.push(await runOnce(["--suite", "auth"], env));
    }
    const ms = medianMs(runs);
    return [
      {
        what: "start-up",
        measure: `wall time of \`tracecheck run --seed ${BENCH_SEED} --suite auth\`, embedded reference`,
        value: ms / 1000,
        unit: "s",
        target: `≤ ${TARGET_SECONDS} s`,
        met: allPassed(runs) && ms / 1000 <= TARGET_SECONDS,
        note: `${runsNote(runs)}; ${verdictNote(runs)}`,
      },
    ];
  },
};
