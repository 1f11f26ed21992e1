// The shape options do what they say, generation is deterministic per seed, and sizes are exact.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { datasetArbitrary } from "../../src/generate/arbitraries.ts";
import { generateDataset } from "../../src/generate/index.ts";
import type { Dataset, EpcisEvent } from "../../src/model/index.ts";
import { CLASS_LISTS, canonicalBizStep, EPC_LIST_FIELDS, isDigitalLink } from "../../src/model/index.ts";

/** Every GS1 identifier an event writes: EPCs, classes, locations and parties. */
function identifiers(e: EpcisEvent): string[] {
  return [
    ...EPC_LIST_FIELDS.flatMap((f) => e[f] ?? []),
    ...(e.parentID === undefined ? [] : [e.parentID]),
    ...CLASS_LISTS.flatMap((f) => (e[f] ?? []).map((q) => q.epcClass)),
    ...(e.readPoint === undefined ? [] : [e.readPoint.id]),
    ...(e.bizLocation === undefined ? [] : [e.bizLocation.id]),
    e["gdst:productOwner"] as string,
    e["cbvmda:informationProvider"] as string,
  ];
}

function productionMethods(ds: Dataset): Set<unknown> {
  return new Set(
    ds.events.flatMap((e) => {
      const ilmd = e["ilmd"] as Record<string, unknown> | undefined;
      return ilmd === undefined ? [] : [ilmd["cbvmda:productionMethodForFishAndSeafoodCode"]];
    }),
  );
}

describe("shape options", () => {
  it('epcForm "dl" writes every identifier as a Digital Link URI', () => {
    const ds = generateDataset({ seed: 11, events: 150, epcForm: "dl" });
    const ids = ds.events.flatMap(identifiers);
    expect(ids.length).toBeGreaterThan(300);
    expect(ids.filter((v) => !isDigitalLink(v) || !v.startsWith("https://id.gs1.org/"))).toEqual([]);
  });

  it('epcForm "urn" writes every identifier as an EPC URN', () => {
    const ds = generateDataset({ seed: 12, events: 150, epcForm: "urn" });
    expect(ds.events.flatMap(identifiers).filter((v) => !/^urn:epc:(id|class):/.test(v))).toEqual([]);
  });

  it('epcForm "mixed" (the default) writes both', () => {
    const ids = generateDataset({ seed: 13, events: 60 }).events.flatMap(identifiers);
    expect(ids.some(isDigitalLink)).toBe(true);
    expect(ids.some((v) => v.startsWith("urn:epc:"))).toBe(true);
  });

  for (const [form, test] of [
    ["short", (s: string) => /^[a-z_]+$/.test(s)],
    ["urn", (s: string) => s.startsWith("urn:epcglobal:cbv:bizstep:")],
    ["web", (s: string) => s.startsWith("https://ref.gs1.org/cbv/BizStep-")],
  ] as const) {
    it(`bizStepForm "${form}" writes every bizStep in that form`, () => {
      const ds = generateDataset({ seed: 14, events: 100, bizStepForm: form });
      expect(ds.events.map((e) => e.bizStep ?? "").filter((s) => !test(s))).toEqual([]);
    });
  }

  it("the bizStep forms change spelling only: the same seed gives the same canonical steps", () => {
    const short = generateDataset({ seed: 15, events: 80, bizStepForm: "short" });
    const web = generateDataset({ seed: 15, events: 80, bizStepForm: "web" });
    expect(web.events.map((e) => canonicalBizStep(e.bizStep ?? ""))).toEqual(
      short.events.map((e) => e.bizStep),
    );
  });

  for (const type of ["ObjectEvent", "AggregationEvent", "TransformationEvent"]) {
    it(`eventTypes ["${type}"] gives only ${type}s, still the number asked for`, () => {
      const ds = generateDataset({ seed: 16, events: 90, eventTypes: [type] });
      expect(ds.events).toHaveLength(90);
      expect(new Set(ds.events.map((e) => e.type))).toEqual(new Set([type]));
    });
  }

  it('modules ["aquaculture"] and ["wildcatch"] select the kind of chain', () => {
    expect(productionMethods(generateDataset({ seed: 17, events: 200, modules: ["aquaculture"] }))).toEqual(
      new Set(["AQUACULTURE"]),
    );
    expect(productionMethods(generateDataset({ seed: 17, events: 200, modules: ["wildcatch"] }))).toEqual(
      new Set(["MARINE_FISHERY", "INLAND_FISHERY"]),
    );
  });

  it("the arbitrary honours the shape options and the chain counts", () => {
    fc.assert(
      fc.property(
        datasetArbitrary({ minChains: 2, maxChains: 3, epcForm: "dl", eventTypes: ["AggregationEvent"] }),
        (ds) => {
          // Each chain packs once and unpacks once.
          expect(ds.events.length).toBeGreaterThanOrEqual(4);
          expect(ds.events.length).toBeLessThanOrEqual(6);
          expect(ds.events.every((e) => e.type === "AggregationEvent")).toBe(true);
          expect(ds.events.flatMap(identifiers).every(isDigitalLink)).toBe(true);
        },
      ),
      { numRuns: 20, seed: 3 },
    );
  });

  it("refuses unknown options with a sentence saying what is allowed", () => {
    expect(() => generateDataset({ seed: 1, events: 5, eventTypes: ["AssociationEvent"] })).toThrow(
      /eventTypes/,
    );
    expect(() => generateDataset({ seed: 1, events: 5, eventTypes: [] })).toThrow(/eventTypes/);
    expect(() => generateDataset({ seed: 1, events: 5, modules: [] })).toThrow(/modules/);
    expect(() => generateDataset({ seed: 1, events: 5, epcForm: "x" as "dl" })).toThrow(/epcForm/);
    expect(() => generateDataset({ seed: 1, events: 5, bizStepForm: "x" as "web" })).toThrow(/bizStepForm/);
    expect(() => generateDataset({ seed: 1, events: -1 })).toThrow(/events/);
    expect(() => generateDataset({ seed: 1.5, events: 1 })).toThrow(/seed/);
    expect(() => datasetArbitrary({ minChains: 3, maxChains: 2 })).toThrow(/maxChains/);
  });
});

describe("determinism and size", () => {
  it("the same seed and options give the same dataset; another seed gives another", () => {
    const a = generateDataset({ seed: 21, events: 250 });
    const b = generateDataset({ seed: 21, events: 250 });
    const c = generateDataset({ seed: 22, events: 250 });
    expect(b).toEqual(a);
    expect(JSON.stringify(c)).not.toBe(JSON.stringify(a));
  });

  it("a dataset of n events holds exactly n events", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), fc.nat(), (events, seed) => {
        expect(generateDataset({ seed, events }).events).toHaveLength(events);
      }),
      { numRuns: 30, seed: 4 },
    );
  });

  it("a smaller dataset of one seed is the beginning of a larger one", () => {
    const small = generateDataset({ seed: 23, events: 40 });
    const large = generateDataset({ seed: 23, events: 400 });
    expect(large.events.slice(0, 40)).toEqual(small.events);
  });

  it("the arbitrary is deterministic for a fast-check seed", () => {
    const first = fc.sample(datasetArbitrary(), { seed: 99, numRuns: 3 });
    const second = fc.sample(datasetArbitrary(), { seed: 99, numRuns: 3 });
    expect(second).toEqual(first);
  });

  it("100,000 events generate, each with its own eventID", () => {
    const ds = generateDataset({ seed: 31, events: 100_000 });
    expect(ds.events).toHaveLength(100_000);
    expect(new Set(ds.events.map((e) => e.eventID)).size).toBe(100_000);
  });
});
