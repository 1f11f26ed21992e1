// Oracle: how long the expected answer of one query takes over 100,000 baseline events (target ≤ 20 ms). The
// oracle answers an array's first query with its plain filter and later ones from an index it builds on the
// second; the timed queries run on a built index, and what building it costs is a row of its own.
import fc from "fast-check";
import { queryArbitrary } from "../src/generate/arbitraries.ts";
import { type EpcisEvent, type EventQuery, runOracle } from "../src/model/index.ts";
import { BENCH_SEED, servedEvents } from "./baseline-events.ts";
import { progress } from "./child.ts";
import { QUERY_KINDS, queriesOf } from "./queries.ts";
import type { Benchmark, BenchRow } from "./row.ts";
import { RECORDED } from "./row.ts";
import { measure, median } from "./sample.ts";
import { formatNumber } from "./table.ts";

const EVENTS = 100_000;
const TARGET_MS = 20;
const PER_KIND = 3;
/** Queries drawn as the events suites draw them: a mix of parameters, values and combinations. */
const DRAWN = 15;
/** New arrays the cost of building the index is taken over. */
const BUILDS = 3;
const PER_EVENTS = `over ${EVENTS.toLocaleString("en-US")} events`;

async function timesOf(events: readonly EpcisEvent[], queries: readonly EventQuery[]): Promise<number[]> {
  const out: number[] = [];
  for (const q of queries) {
    // Untimed, as a run's repeated queries would: the first query of the array is filtered plainly, and the
    // next builds the parts of the index this one needs.
    runOracle(events, q);
    runOracle(events, q);
    out.push((await measure(() => runOracle(events, q), { minSamples: 5, budgetMs: 300 })).medianMs);
  }
  return out;
}

function row(what: string, times: readonly number[]): BenchRow {
  const value = median(times);
  return {
    what: "oracle",
    measure: `${what}, runOracle ${PER_EVENTS}`,
    value,
    unit: "ms",
    target: `≤ ${TARGET_MS} ms`,
    met: value <= TARGET_MS,
    note: `median of ${times.length} queries (each the median of its samples); slowest ${formatNumber(Math.max(...times))} ms`,
  };
}

/** One query naming every parameter, so that answering it builds every part of the index. */
function everyParameter(events: readonly EpcisEvent[]): EventQuery {
  const [epc, cls, day] = QUERY_KINDS.map((kind) => queriesOf(kind, events, 1)[0]);
  return {
    ...epc,
    ...cls,
    ...day,
    GE_recordTime: day?.GE_eventTime,
    EQ_bizStep: ["shipping"],
    EQ_transformationID: ["urn:uuid:bench"],
    EQ_bizLocation: ["https://id.gs1.org/414/0000000000000"],
  };
}

/** A new array's first query (the plain filter) and its second (building the index, then answering). */
function buildTimes(events: readonly EpcisEvent[]): { plainMs: number; buildMs: number } {
  const q = everyParameter(events);
  const plain: number[] = [];
  const build: number[] = [];
  for (let k = 0; k < BUILDS; k++) {
    const fresh = [...events];
    let started = performance.now();
    runOracle(fresh, q);
    plain.push(performance.now() - started);
    started = performance.now();
    runOracle(fresh, q);
    build.push(performance.now() - started);
  }
  return { plainMs: median(plain), buildMs: median(build) };
}

export const oracleBenchmark: Benchmark = {
  name: "oracle",
  async run() {
    progress(`oracle: generating ${EVENTS} events`);
    const events = await servedEvents(EVENTS);
    const rows: BenchRow[] = [];
    for (const kind of QUERY_KINDS) {
      progress(`oracle: ${kind} queries`);
      rows.push(row(`${kind} query`, await timesOf(events, queriesOf(kind, events, PER_KIND))));
    }
    progress("oracle: drawn queries");
    const drawn = fc.sample(queryArbitrary(events), { seed: BENCH_SEED, numRuns: DRAWN });
    rows.push(row("query drawn as the events suites draw them", await timesOf(events, drawn)));
    progress("oracle: building the index of new arrays");
    const { plainMs, buildMs } = buildTimes(events);
    rows.push({
      what: "oracle",
      measure: `a new array's second query, every parameter: builds the whole index, ${PER_EVENTS}`,
      value: buildMs,
      unit: "ms",
      target: RECORDED,
      met: true,
      note: `median of ${BUILDS} arrays; their first query, the plain filter, took ${formatNumber(plainMs)} ms`,
    });
    return rows;
  },
};
