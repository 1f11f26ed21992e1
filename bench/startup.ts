// Start-up: `tracecheck run --suite auth` against the embedded reference, the smallest run there is, so that its
// wall time is mostly what every run pays before its first check (target at most 0.6 s). Beside it, in the same
// rounds, Node's own start-up (`node -e 0`, same environment): the part of the figure no code of tracecheck's runs
// in, which the machine's pace and its environment (NODE_EXTRA_CA_CERTS, for one) set.
import { BENCH_SEED } from "./baseline-events.ts";
import { progress } from "./child.ts";
import { timeCommand } from "./command.ts";
import { extraCaCertsSet } from "./machine.ts";
import type { Benchmark } from "./row.ts";
import { RECORDED } from "./row.ts";
import { median } from "./sample.ts";
import { formatNumber } from "./table.ts";
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
const NODE_TIMEOUT_MS = 60_000;

export const startupBenchmark: Benchmark = {
  name: "startup",
  async run() {
    const env = envWithoutKey();
    const runs: RunFigures[] = [];
    const bare: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      progress(`startup: run ${round} of ${ROUNDS} of --suite auth, and of node -e 0`);
      runs.push(await runOnce(["--suite", "auth"], env));
      const node = await timeCommand(process.execPath, ["-e", "0"], env, NODE_TIMEOUT_MS);
      if (node.exitCode !== 0) throw new Error(`node -e 0 exited with ${node.exitCode}: ${node.stderr}`);
      bare.push(node.ms);
    }
    const ms = medianMs(runs);
    const nodeMs = median(bare);
    const certs = extraCaCertsSet(env) ? "; NODE_EXTRA_CA_CERTS is set, and Node reads it as it starts" : "";
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
      {
        what: "start-up",
        measure:
          "wall time of `node -e 0`, same environment, in the same rounds: Node's own start-up, within the figure above",
        value: nodeMs / 1000,
        unit: "s",
        target: RECORDED,
        met: true,
        note: `median of ${bare.map((b) => formatNumber(b / 1000)).join(", ")} s${certs}`,
      },
    ];
  },
};
