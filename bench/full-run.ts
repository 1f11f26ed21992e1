// Full run and harness overhead: `tracecheck run` against the embedded reference at default effort (target at
// most 2 s), the requests it sends, and its wall time ÷ a bare undici loop sending the same requests (target at
// most 3×). A run at four times the default --runs shows what more property cases cost, and its extra time per
// extra request ÷ the bare loop's is the cost of a request past start-up (target at most 2×).
import { randomBytes } from "node:crypto";
import { generateDataset } from "../src/generate/index.ts";
import { DEFAULT_RUNS, resolveRunOptions } from "../src/harness/options.ts";
import { startReference } from "../src/reference/index.ts";
import { replay } from "./bare-replay.ts";
import { BENCH_SEED } from "./baseline-events.ts";
import { progress } from "./child.ts";
import { type RecordedRequest, RequestRecorder } from "./request-recorder.ts";
import type { Benchmark, BenchRow } from "./row.ts";
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

const TARGET_SECONDS = 2;
const TARGET_OVERHEAD = 3;
const TARGET_PER_REQUEST = 2;
const EFFORT_FACTOR = 4;
/**
 * Rounds of runs; the median of each kind is its figure. A round runs each kind once, the bare loop's two replays
 * included, so that the machine's pace, which moves from minute to minute, is the same for both sides of a ratio.
 */
const ROUNDS = 5;

/** The wall time of one bare replay, in milliseconds; failed requests counted into `failures`. */
async function timeReplay(
  requests: readonly RecordedRequest[],
  concurrency: number,
  failures: { count: number },
): Promise<number> {
  const started = performance.now();
  const { failed } = await replay(requests, "127.0.0.1", concurrency);
  const ms = performance.now() - started;
  failures.count += failed;
  return ms;
}

export const fullRunBenchmark: Benchmark = {
  name: "full-run",
  async run() {
    const defaults = resolveRunOptions({}, {}, {});
    const env = envWithoutKey();

    // Beside the embedded run, the same run with --target against a reference this process holds, so that its
    // requests can be counted and then replayed by the bare loop against the very same server.
    const dataset = generateDataset({ seed: BENCH_SEED, events: defaults.embeddedEvents });
    const key = `bench-${randomBytes(12).toString("hex")}`;
    const reference = await startReference({ dataset, apiKeys: [key] });
    const keyed = { ...env, TRACECHECK_API_KEY: key };
    const port = Number(new URL(reference.eventsBase).port);
    const effortRuns = DEFAULT_RUNS * EFFORT_FACTOR;
    const recorded = async (args: string[]) => {
      const recorder = new RequestRecorder([port]);
      try {
        return { figures: await runOnce(["--target", reference.eventsBase, ...args], keyed), recorder };
      } finally {
        recorder.stop();
      }
    };
    try {
      const embeddedRuns: RunFigures[] = [];
      const targetedRuns: RunFigures[] = [];
      const heavyRuns: RunFigures[] = [];
      const counts: number[] = [];
      const heavyCounts: number[] = [];
      const bareLightMs: number[] = [];
      const bareHeavyMs: number[] = [];
      const failures = { count: 0 };
      let requests: RecordedRequest[] = [];
      let heavyRequests: RecordedRequest[] = [];
      // Rounds interleave the kinds of run, so that load from elsewhere on the machine spreads over all.
      for (let round = 1; round <= ROUNDS; round++) {
        progress(
          `full-run: round ${round} of ${ROUNDS}: embedded, --target, --target --runs ${effortRuns}, bare replays`,
        );
        embeddedRuns.push(await runOnce([], env));
        const light = await recorded([]);
        targetedRuns.push(light.figures);
        counts.push(light.recorder.requests.length);
        const heavy = await recorded(["--runs", String(effortRuns)]);
        heavyRuns.push(heavy.figures);
        heavyCounts.push(heavy.recorder.requests.length);
        if (round === 1) {
          requests = [...light.recorder.requests];
          heavyRequests = [...heavy.recorder.requests];
          // Once untimed, so that the timed replays run optimised code.
          await timeReplay(requests, defaults.concurrency, failures);
          await timeReplay(heavyRequests, defaults.concurrency, failures);
        }
        bareLightMs.push(await timeReplay(requests, defaults.concurrency, failures));
        bareHeavyMs.push(await timeReplay(heavyRequests, defaults.concurrency, failures));
      }
      const bare = { lightMs: median(bareLightMs), heavyMs: median(bareHeavyMs) };
      const failed = failures.count;

      const embeddedMs = medianMs(embeddedRuns);
      const targetedMs = medianMs(targetedRuns);
      const heavyMs = medianMs(heavyRuns);
      const overhead = targetedMs / bare.lightMs;
      const marginal = (heavyMs - targetedMs) / (bare.heavyMs - bare.lightMs);
      const rows: BenchRow[] = [
        {
          what: "full run",
          measure: `wall time of \`tracecheck run --seed ${BENCH_SEED}\`, embedded reference, default effort (--runs ${DEFAULT_RUNS}, ${defaults.embeddedEvents} events)`,
          value: embeddedMs / 1000,
          unit: "s",
          target: `≤ ${TARGET_SECONDS} s`,
          met: allPassed(embeddedRuns) && embeddedMs / 1000 <= TARGET_SECONDS,
          note: `${runsNote(embeddedRuns)}; ${verdictNote(embeddedRuns)}`,
        },
        {
          what: "full run",
          measure:
            "requests the reference received, same run with --target on a reference holding the embedded dataset",
          value: median(counts),
          unit: "requests",
          target: RECORDED,
          met: allPassed(targetedRuns),
          note: `per round ${counts.join(", ")}; ${verdictNote(targetedRuns)}`,
        },
        {
          what: "harness overhead",
          measure: `that --target run's wall time; ratio = it ÷ a bare undici loop sending its ${requests.length} requests (concurrency ${defaults.concurrency})`,
          value: targetedMs / 1000,
          unit: "s",
          target: `≤ ${TARGET_OVERHEAD}×`,
          ratio: overhead,
          met: failed === 0 && overhead <= TARGET_OVERHEAD,
          note: `${runsNote(targetedRuns)}; bare loop ${formatNumber(bare.lightMs / 1000)} s${failed > 0 ? `; ${failed} replayed requests failed` : ""}`,
        },
        {
          what: "full run",
          measure: `wall time at --runs ${effortRuns} (${EFFORT_FACTOR}× the default), --target as above; ratio = ÷ the default --target run`,
          value: heavyMs / 1000,
          unit: "s",
          target: RECORDED,
          ratio: heavyMs / targetedMs,
          met: allPassed(heavyRuns),
          note: `${runsNote(heavyRuns)}; requests per round ${heavyCounts.join(", ")}; ${verdictNote(heavyRuns)}`,
        },
        {
          what: "harness overhead",
          measure: `per request past start-up: extra wall time at --runs ${effortRuns}; ratio = it ÷ the bare loop's extra time for the extra requests`,
          value: (heavyMs - targetedMs) / 1000,
          unit: "s",
          target: `≤ ${TARGET_PER_REQUEST}×`,
          ratio: marginal,
          met: failed === 0 && allPassed(heavyRuns) && marginal <= TARGET_PER_REQUEST,
          note: `bare loop ${formatNumber(bare.heavyMs / 1000)} s for ${heavyRequests.length} requests, ${formatNumber(bare.lightMs / 1000)} s for ${requests.length}`,
        },
      ];
      return rows;
    } finally {
      await reference.close();
    }
  },
};
