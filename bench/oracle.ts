// Oracle: how long the expected answer of one query takes over 100,000 baseline events (target under 20 ms).
import fc from "fast-check";
import { queryArbitrary } from "../src/generate/index.ts";
import { type EpcisEvent, type EventQuery, runOracle } from "../src/model/index.ts";
import { BENCH_SEED, servedEvents } from "./baseline-events.ts";
import { progress } from "./child.ts";
import { QUERY_KINDS, queriesOf } from "./queries.ts";
import type { Benchmark, BenchRow } from "./row.ts";
import { measure, median } from "./sample.ts";

const EVENTS = 100_000;
const TARGET_MS = 20;
const PER_KIND = 3;
/** Queries drawn as the events suites draw them: a mix of parameters, values and combinations. */
const DRAWN = 15;

async function timesOf(events: readonly EpcisEvent[], queries: readonly EventQuery[]): Promise<number[]> {
  const out: number[] = [];
  for (const q of queries) {
    out.push((await measure(() => runOracle(events, q), { minSamples: 3, budgetMs: 300 })).medianMs);
  }
  return out;
}

function row(what: string, times: readonly number[], note: string): BenchRow {
  const value = median(times);
  return {
    what: "oracle",
    measure: `${what}, runOracle over ${EVENTS.toLocaleString("en-US")} events`,
    value,
    unit: "ms",
    target: `< ${TARGET_MS} ms`,
    met: value < TARGET_MS,
    note,
  };
}

export const oracleBenchmark: Benchmark = {
  name: "oracle",
  async run() {
    progress(`oracle: generating ${EVENTS} events`);
    const events = await servedEvents(EVENTS);
    const rows: BenchRow[] = [];
    for (const kind of QUERY_KINDS) {
      const times = await timesOf(events, queriesOf(kind, events, PER_KIND));
      rows.push(
        row(
          `${kind} query`,
          times,
          `median of ${times.length} queries; slowest ${Math.max(...times).toFixed(1)} ms`,
        ),
      );
    }
    const drawn = fc.sample(queryArbitrary(events), { seed: BENCH_SEED, numRuns: DRAWN });
    const times = await timesOf(events, drawn);
    rows.push(
      row(
        "query drawn as the events suites draw them",
        times,
        `median of ${times.length}; slowest ${Math.max(...times).toFixed(1)} ms`,
      ),
    );
    return rows;
  },
};
