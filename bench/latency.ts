// Latency: what 50 ms more on every request costs a full run. The same `tracecheck run --target` goes to a
// reference through a proxy that delays each request 50 ms, and to a reference directly, in alternation. If the
// harness kept its `concurrency` requests in flight all the time, the delay would cost requests × 50 ms ÷
// concurrency; the ratio is the extra wall time measured ÷ that (target at most 1.5). Requests that wait for one
// another, the pages of one answer and the hops of a trace, count in the request total like any other.
import { randomBytes } from "node:crypto";
import { generateDataset } from "../src/generate/index.ts";
import { resolveRunOptions } from "../src/harness/options.ts";
import { type RunningReference, startReference } from "../src/reference/index.ts";
import { BENCH_SEED } from "./baseline-events.ts";
import { progress } from "./child.ts";
import { type DelayingProxy, startDelayingProxy } from "./delaying-proxy.ts";
import type { Benchmark } from "./row.ts";
import { median } from "./sample.ts";
import { formatNumber } from "./table.ts";
import { envWithoutKey, type RunFigures, runOnce, seriesOf } from "./tracecheck-run.ts";

const DELAY_MS = 50;
const TARGET_RATIO = 1.5;
/** Runs of each kind; their median is the figure. */
const ROUNDS = 3;

export const latencyBenchmark: Benchmark = {
  name: "latency",
  async run() {
    const defaults = resolveRunOptions({}, {}, {});
    const concurrency = defaults.concurrency;
    const dataset = generateDataset({ seed: BENCH_SEED, events: defaults.embeddedEvents });
    const key = `bench-${randomBytes(12).toString("hex")}`;
    const keyed = { ...envWithoutKey(), TRACECHECK_API_KEY: key };

    // Two references holding the same dataset: one reached directly, one only through the proxy. The far one
    // writes the proxy's origin into the links it serves (next pages, link-set targets), which a run follows: those
    // requests are delayed too, and go where the run's key may go. The proxy forwards to where it listens.
    const direct = await startReference({ dataset, apiKeys: [key] });
    let far: RunningReference | undefined;
    let proxy: DelayingProxy | undefined;
    try {
      let upstreamPort = 0;
      proxy = await startDelayingProxy({ upstreamPort: () => upstreamPort, delayMs: DELAY_MS });
      far = await startReference({ dataset, apiKeys: [key], origin: proxy.origin });
      upstreamPort = Number(new URL(far.listensOn).port);
      const proxiedRuns: RunFigures[] = [];
      const directRuns: RunFigures[] = [];
      const counts: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        progress(
          `latency: round ${round} of ${ROUNDS}: --target through a ${DELAY_MS} ms proxy, then direct`,
        );
        const before = proxy.requests;
        proxiedRuns.push(await runOnce(["--target", proxy.origin], keyed));
        counts.push(proxy.requests - before);
        directRuns.push(await runOnce(["--target", direct.eventsBase], keyed));
      }

      const throughProxy = seriesOf(proxiedRuns);
      const straight = seriesOf(directRuns);
      const requests = median(counts);
      const idealMs = (requests * DELAY_MS) / concurrency;
      const ratio = (throughProxy.ms - straight.ms) / idealMs;
      const failed = proxy.failed;
      return [
        {
          what: "latency",
          measure: `extra wall time of a full --target run through a proxy adding ${DELAY_MS} ms to every request; ratio = it ÷ (requests × ${DELAY_MS} ms ÷ concurrency ${concurrency})`,
          value: (throughProxy.ms - straight.ms) / 1000,
          unit: "s",
          target: `≤ ${TARGET_RATIO}×`,
          ratio,
          met: failed === 0 && throughProxy.passed && straight.passed && ratio <= TARGET_RATIO,
          note:
            `through the proxy (${throughProxy.note}); ` +
            `direct (${straight.note}); ` +
            `${requests} requests through the proxy (per run ${counts.join(", ")}), ` +
            `so ${formatNumber(idealMs / 1000)} s at full concurrency` +
            (failed > 0 ? `; ${failed} proxied requests failed` : ""),
        },
      ];
    } finally {
      // Each is stopped even if another fails to; the proxy first, so that its connections leave the reference.
      await Promise.allSettled([proxy?.close(), far?.close(), direct.close()]);
    }
  },
};
