// Reference load: a million generated events loaded and indexed (targets: under 60 s, resident set under 4 GiB).

import { referenceFigures } from "./reference-figures.ts";
import type { Benchmark } from "./row.ts";
import { formatNumber } from "./table.ts";

const EVENTS = 1_000_000;
const TARGET_SECONDS = 60;
const TARGET_GIB = 4;

export const loadBenchmark: Benchmark = {
  name: "load",
  async run() {
    const f = await referenceFigures(EVENTS);
    const seconds = f.loadMs / 1000;
    const gib = f.peakRssAfterLoadBytes / 2 ** 30;
    const generated = `generating them took ${formatNumber(f.generateMs / 1000)} s more`;
    return [
      {
        what: "reference load",
        measure: "1M generated events loaded and indexed (EventStore.load)",
        value: seconds,
        unit: "s",
        target: `< ${TARGET_SECONDS} s`,
        met: seconds < TARGET_SECONDS,
        note: generated,
      },
      {
        what: "reference load",
        measure: "peak resident set of a process holding the 1M generated events and the loaded store",
        value: gib,
        unit: "GiB",
        target: `< ${TARGET_GIB} GiB`,
        met: gib < TARGET_GIB,
      },
    ];
  },
};
