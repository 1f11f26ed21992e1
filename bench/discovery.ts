// Discovery: the harness finding every event of a target that refuses broad queries with 413, at two sizes
// (targets at 1M: completes, harness resident set at most 1 GiB, time linear in events).
import { randomBytes } from "node:crypto";
import { BENCH_SEED } from "./baseline-events.ts";
import { progress, runChild } from "./child.ts";
import type { DiscoveryFigures } from "./child-discovery.ts";
import type { Benchmark, BenchRow } from "./row.ts";
import { RECORDED } from "./row.ts";
import { serveTarget } from "./serve-child.ts";
import { formatNumber } from "./table.ts";

const SMALL = 200_000;
const LARGE = 1_000_000;
/** Queries without a selective parameter matching more than this are refused with 413. */
const BROAD_LIMIT = 10_000;
const TARGET_GIB = 1;
/** Time per event at the large size ÷ at the small size; above this the growth is not linear. */
const LINEAR_SLACK = 1.5;
const MINUTE = 60_000;

async function discover(events: number): Promise<DiscoveryFigures> {
  const key = `bench-${randomBytes(12).toString("hex")}`;
  const env = { ...process.env, TRACECHECK_API_KEY: key };
  progress(`discovery: serving ${events} events, 413 above ${BROAD_LIMIT}`);
  const target = await serveTarget(
    ["--seed", String(BENCH_SEED), "--events", String(events), "--broad-limit", String(BROAD_LIMIT)],
    env,
    (events / LARGE) * 8 * MINUTE + MINUTE,
  );
  try {
    progress(`discovery: discovering ${target.eventsBase}`);
    return await runChild<DiscoveryFigures>(
      "child-discovery.ts",
      [target.eventsBase],
      (events / LARGE) * 10 * MINUTE + MINUTE,
      env,
    );
  } finally {
    await target.stop();
  }
}

export const discoveryBenchmark: Benchmark = {
  name: "discovery",
  async run() {
    const small = await discover(SMALL);
    const large = await discover(LARGE);
    const perEvent = (f: DiscoveryFigures, n: number) => f.ms / n;
    const growth = perEvent(large, LARGE) / perEvent(small, SMALL);
    const gib = large.peakRssBytes / 2 ** 30;
    // Found and served counts differ by the events that share an identity: the harness keeps one per identity.
    const found = (f: DiscoveryFigures, n: number) =>
      f.error !== undefined
        ? `did not complete after ${f.requests} requests: ${f.error}`
        : `${f.complete ? "complete" : "incomplete"}: ${f.events.toLocaleString("en-US")} distinct of ${n.toLocaleString("en-US")} served, by ${f.method}, ${f.requests} requests`;
    const rows: BenchRow[] = [
      {
        what: "discovery",
        measure: `time to discover ${SMALL.toLocaleString("en-US")} events, 413 above ${BROAD_LIMIT.toLocaleString("en-US")}`,
        value: small.ms / 1000,
        unit: "s",
        target: RECORDED,
        met: small.complete,
        note: found(small, SMALL),
      },
      {
        what: "discovery",
        measure: `time to discover ${LARGE.toLocaleString("en-US")} events; ratio = time per event ÷ that at ${SMALL.toLocaleString("en-US")}`,
        value: large.ms / 1000,
        unit: "s",
        target: `completes; ratio ≤ ${LINEAR_SLACK} (linear)`,
        ratio: growth,
        met: large.complete && growth <= LINEAR_SLACK,
        note: found(large, LARGE),
      },
      {
        what: "discovery",
        measure: `peak resident set of the harness discovering ${LARGE.toLocaleString("en-US")} events`,
        value: gib,
        unit: "GiB",
        target: `≤ ${TARGET_GIB} GiB`,
        met: large.complete && gib <= TARGET_GIB,
        note: large.complete
          ? `${formatNumber(large.peakRssBytes / large.events)} bytes per event held`
          : "peak until discovery stopped",
      },
    ];
    return rows;
  },
};
