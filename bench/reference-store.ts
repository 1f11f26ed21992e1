// Reference store: single-EPC, single-class and one-day-window queries answered from the indexes, against a
// linear scan over the same events, at three sizes (target: at least 100× faster at 1M).

import { referenceFigures } from "./reference-figures.ts";
import type { Benchmark, BenchRow } from "./row.ts";
import { RECORDED } from "./row.ts";
import { formatNumber } from "./table.ts";

const STORE_SIZES = [10_000, 100_000, 1_000_000] as const;
const TARGET_SIZE = 1_000_000;
const TARGET_SPEEDUP = 100;

export const storeBenchmark: Benchmark = {
  name: "store",
  async run() {
    const rows: BenchRow[] = [];
    for (const size of STORE_SIZES) {
      const figures = await referenceFigures(size);
      for (const k of figures.kinds) {
        const speedup = k.scanMs / k.indexedMs;
        const judged = size === TARGET_SIZE;
        rows.push({
          what: "reference store",
          measure: `${k.kind} at ${size.toLocaleString("en-US")} events: store.query; ratio = linear scan ÷ indexed`,
          value: k.indexedMs,
          unit: "ms",
          target: judged ? `≥ ${TARGET_SPEEDUP}× faster` : RECORDED,
          ratio: speedup,
          met: !judged || speedup >= TARGET_SPEEDUP,
          note: `scan ${formatNumber(k.scanMs)} ms; median matches ${k.indexedMatches} indexed, ${k.scanMatches} scanned (forms as written); median of ${k.queries} queries, each the median of ${figures.rounds} alternating samples`,
        });
      }
    }
    return rows;
  },
};
