// Latency: what 50 ms more on every request costs a full run. The same `tracecheck run --target` goes to a
// reference through a proxy that delays each request 50 ms, and to a reference directly, in alternation. If the
// harness kept its `concurrency` requests in flight all the time, the delay would cost requests × 50 ms ÷
// concurrency; the ratio is the extra wall time measured ÷ that (target at most 1.5). Requests that wait for one
// another, the pages of one answer and the hops of a trace, count in the request total like any other.
import { randomBytes } from "node:crypto";
import diagnosticsChannel from "node:diagnostics_channel";
import http from "node:http";
import type { AddressInfo } from "node:net";
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

/** The HTTP server listening on `port` in this process, found through the one request sent to it. */
async function serverOn(port: number): Promise<http.Server> {
  let found: http.Server | undefined;
  const listener = (message: unknown): void => {
    const { server } = message as { server: http.Server };
    if ((server.address() as AddressInfo | null)?.port === port) found = server;
  };
  diagnosticsChannel.subscribe("http.server.request.start", listener);
  try {
    await new Promise<void>((resolve, reject) => {
      const req = http.get({ host: "127.0.0.1", port, path: "/", agent: false }, (res) => {
        res.resume();
        res.on("end", resolve);
        res.on("error", reject);
      });
      req.on("error", reject);
    });
  } finally {
    diagnosticsChannel.unsubscribe("http.server.request.start", listener);
  }
  if (found === undefined)
    throw new Error(`No HTTP server of this process took the request to port ${port}.`);
  return found;
}

/**
 * Puts the delaying proxy where the reference was. The reference writes its own origin into the links it serves
 * (next pages, link-set targets), and a run follows them; so that those requests are delayed too, and go where
 * the run's key may go, the proxy takes over the reference's port and the reference moves to a free one. Nothing
 * in what either serves is rewritten.
 */
async function behindProxy(reference: RunningReference): Promise<DelayingProxy> {
  const port = Number(new URL(reference.eventsBase).port);
  const server = await serverOn(port);
  await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const upstreamPort = (server.address() as AddressInfo).port;
  return startDelayingProxy({ upstreamPort, delayMs: DELAY_MS, port });
}

export const latencyBenchmark: Benchmark = {
  name: "latency",
  async run() {
    const defaults = resolveRunOptions({}, {}, {});
    const concurrency = defaults.concurrency;
    const dataset = generateDataset({ seed: BENCH_SEED, events: defaults.embeddedEvents });
    const key = `bench-${randomBytes(12).toString("hex")}`;
    const keyed = { ...envWithoutKey(), TRACECHECK_API_KEY: key };

    // Two references holding the same dataset: one reached directly, one only through the proxy.
    const direct = await startReference({ dataset, apiKeys: [key] });
    let far: RunningReference | undefined;
    let proxy: DelayingProxy | undefined;
    try {
      far = await startReference({ dataset, apiKeys: [key] });
      proxy = await behindProxy(far);
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
