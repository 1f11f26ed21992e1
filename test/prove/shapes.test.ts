// The dataset shapes keep every instant and the order of events while changing how times are written.
import { describe, expect, test } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import { compareInstants, parseInstant } from "../../src/model/index.ts";
import type { Dataset } from "../../src/model/types.ts";
import { DATASET_SHAPES, QUICK_SCALE, shareInstants, spreadOffsets } from "../../src/prove/shapes.ts";

function instants(ds: Dataset) {
  return ds.events.map((e) => parseInstant(e.eventTime!));
}

const base = generateDataset({ seed: 21, events: 60 });

describe("dataset shapes", () => {
  test("spreadOffsets keeps each instant and writes many different offsets", () => {
    const spread = spreadOffsets(base);
    expect(instants(spread)).toEqual(instants(base));
    const offsets = new Set(spread.events.map((e) => /(Z|[+-]\d{2}:\d{2})$/.exec(e.eventTime!)?.[1]));
    expect(offsets.size).toBeGreaterThanOrEqual(8);
    for (const e of spread.events) {
      const written = /(Z|[+-]\d{2}:\d{2})$/.exec(e.eventTime!)?.[1];
      expect(e.eventTimeZoneOffset).toBe(written === "Z" ? "+00:00" : written);
    }
  });

  test("shareInstants makes instants shared without changing the order of any two events", () => {
    const shared = shareInstants(base);
    const before = instants(base);
    const after = instants(shared);
    const distinct = (xs: ReturnType<typeof instants>) =>
      new Set(xs.map((i) => `${i.epochSeconds}.${i.fraction}`)).size;
    expect(distinct(after)).toBeLessThan(distinct(before));
    for (let i = 0; i < before.length; i++) {
      for (let j = 0; j < before.length; j++) {
        // Never reversed: what came strictly earlier is still not later.
        if (compareInstants(before[i]!, before[j]!) < 0)
          expect(compareInstants(after[i]!, after[j]!)).toBeLessThanOrEqual(0);
      }
    }
  });

  test("every shape builds a non-empty dataset, each one different", () => {
    const built = DATASET_SHAPES.map((s) => s.build(5, QUICK_SCALE));
    for (const ds of built) expect(ds.events.length).toBeGreaterThan(0);
    const texts = new Set(built.map((ds) => JSON.stringify(ds.events)));
    expect(texts.size).toBe(DATASET_SHAPES.length);
    const byName = Object.fromEntries(DATASET_SHAPES.map((s, n) => [s.name, built[n]!]));
    expect(new Set(byName["object-events-only"]!.events.map((e) => e.type))).toEqual(
      new Set(["ObjectEvent"]),
    );
    expect(byName["small"]!.events.length).toBe(QUICK_SCALE.small);
    expect(byName["large"]!.events.length).toBe(QUICK_SCALE.large);
  });
});
