// Generated events are valid EPCIS 2.0 (inside an EPCISDocument), satisfy every module schema, and each is one
// of the seven core events of the definition's x-std-core-events table (spec 6).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { datasetArbitrary } from "../../src/generate/arbitraries.ts";
import { datasetToDocument, generateDataset } from "../../src/generate/index.ts";
import type { Dataset, EpcisEvent } from "../../src/model/index.ts";
import { canonicalBizStep } from "../../src/model/index.ts";
import { epcisDocumentValidator, MODULE_NAMES, moduleValidators, readDefinition } from "./support.ts";

interface CoreEvent {
  name: string;
  eventType: string;
  action: string | null;
  bizStep: string;
  disposition: string | null;
}

const validateDocument = epcisDocumentValidator();
const modules = moduleValidators();
const coreEvents = readDefinition()["x-std-core-events"] as CoreEvent[];

function moduleProblems(ds: Dataset): string[] {
  return ds.events.flatMap((e, i) =>
    MODULE_NAMES.flatMap((name) => modules[name](e).map((p) => `event ${i}, module ${name}: ${p}`)),
  );
}

// The core event an event is, by type, action and bizStep (compared in canonical form, spec 2.1).
function coreEventOf(e: EpcisEvent): CoreEvent | undefined {
  return coreEvents.find(
    (c) =>
      c.eventType === e.type &&
      (c.action ?? undefined) === e.action &&
      typeof e.bizStep === "string" &&
      canonicalBizStep(e.bizStep) === c.bizStep,
  );
}

function signatureProblems(ds: Dataset): string[] {
  return ds.events.flatMap((e, i) => {
    const core = coreEventOf(e);
    if (core === undefined) return [`event ${i} (${e.type} ${e.action} ${e.bizStep}) is no core event`];
    if (core.disposition !== null && e.disposition !== core.disposition) {
      return [`event ${i} is a ${core.name} with disposition ${e.disposition}, not ${core.disposition}`];
    }
    return [];
  });
}

describe("generated datasets", () => {
  it("the definition's core-event table has the seven events to check against", () => {
    expect(coreEvents.map((c) => c.name).sort()).toEqual(
      [
        "Aggregation",
        "Commission",
        "Decommission",
        "Disaggregation",
        "Receiving",
        "Shipping",
        "Transformation",
      ].sort(),
    );
  });

  for (const seed of [1, 2, 3, 2024]) {
    const ds = generateDataset({ seed, events: 400 });

    it(`seed ${seed}: the EPCISDocument validates against the published EPCIS 2.0 schema`, () => {
      expect(validateDocument(datasetToDocument(ds))).toEqual([]);
    });

    it(`seed ${seed}: every event satisfies the core, seafood, wildcatch and aquaculture module schemas`, () => {
      expect(moduleProblems(ds)).toEqual([]);
    });

    it(`seed ${seed}: every event has the signature of one of the seven core events`, () => {
      expect(signatureProblems(ds)).toEqual([]);
      const names = new Set(ds.events.map((e) => coreEventOf(e)?.name));
      expect(names.size).toBe(7);
    });
  }

  it("every dataset of the arbitrary is schema-valid, module-valid and made of core events", () => {
    fc.assert(
      fc.property(datasetArbitrary({ maxChains: 3 }), (ds) => {
        expect(validateDocument(datasetToDocument(ds))).toEqual([]);
        expect(moduleProblems(ds)).toEqual([]);
        expect(signatureProblems(ds)).toEqual([]);
      }),
      { numRuns: 25, seed: 7 },
    );
  });

  it("datasets in one spelling only are schema-valid too (Digital Link, URN, Web URI bizSteps)", () => {
    for (const shape of [
      { epcForm: "dl", bizStepForm: "web" },
      { epcForm: "urn", bizStepForm: "short" },
    ] as const) {
      const ds = generateDataset({ seed: 5, events: 120, ...shape });
      expect(validateDocument(datasetToDocument(ds))).toEqual([]);
    }
  });

  it("the URN bizStep form is refused by the published schema, which is why 'mixed' does not write it", () => {
    const ds = generateDataset({ seed: 5, events: 12, bizStepForm: "urn" });
    expect(validateDocument(datasetToDocument(ds)).some((p) => p.includes("bizStep"))).toBe(true);
  });

  it("the schema check is not vacuous: a broken event is refused", () => {
    const ds = generateDataset({ seed: 9, events: 5 });
    const broken = { ...ds, events: [{ ...ds.events[0], eventTimeZoneOffset: "Z" } as EpcisEvent] };
    expect(validateDocument(datasetToDocument(broken))).not.toEqual([]);
  });
});
