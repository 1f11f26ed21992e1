import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  CORE_EVENTS,
  type CoreEventSignature,
  createValidators,
  loadDefinition,
  type Validators,
} from "../../../src/definition/index.ts";
import { datasetArbitrary } from "../../../src/generate/arbitraries.ts";
import { generateDataset } from "../../../src/generate/index.ts";
import {
  classifyEvent,
  coreColumnsProblem,
  coreSignatureProblem,
  coreTypeProblem,
  moduleProblem,
  takenFor,
} from "../../../src/harness/assertions/core-events.ts";
import { bizStepForms, type EpcisEvent } from "../../../src/model/index.ts";

let rows: readonly CoreEventSignature[];
let validators: Validators;

beforeAll(async () => {
  const definition = await loadDefinition();
  rows = definition.coreEvents;
  validators = await createValidators({ definition, network: false });
});

function event(fields: Partial<EpcisEvent> & { type: string }): EpcisEvent {
  return {
    eventID: `urn:uuid:test-${fields.type}-${String(fields.bizStep)}`,
    eventTime: "2025-01-01T00:00:00Z",
    ...fields,
  };
}

/** An event that is exactly the row, with its disposition when the row fixes one. */
function rowEvent(row: CoreEventSignature): EpcisEvent {
  const e = event({ type: row.eventType, bizStep: row.bizStep });
  if (row.action !== null) e.action = row.action;
  if (row.disposition !== null) e.disposition = row.disposition;
  return e;
}

describe("classifyEvent", () => {
  it("reads the seven rows from the definition as spec 6 lists them", () => {
    expect(rows.map((r) => r.name)).toEqual(CORE_EVENTS.map((r) => r.name));
  });

  it("takes an event carrying each row's columns for that core event", () => {
    for (const row of rows) {
      expect(classifyEvent(rowEvent(row))).toEqual({ kind: "core", name: row.name });
    }
  });

  it("takes an event for a core event by the step that names it or by its type, never by other columns", () => {
    const named = (e: EpcisEvent) => takenFor(e).map((r) => r.name);
    expect(named(event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "shipping" }))).toEqual([
      "Shipping",
    ]);
    expect(named(event({ type: "AggregationEvent", action: "ADD", bizStep: "receiving" }))).toEqual([
      "Aggregation",
      "Disaggregation",
      "Receiving",
    ]);
    expect(named(event({ type: "TransformationEvent", bizStep: "urn:gdst:bizStep:farmHarvest" }))).toEqual([
      "Transformation",
    ]);
    // packing and unpacking name no core event in spec 6: only the bundled definition pairs them with one.
    expect(named(event({ type: "ObjectEvent", action: "ADD", bizStep: "packing" }))).toEqual([]);
  });

  it("tells Commission and Transformation apart although both can be at bizStep commissioning", () => {
    const commission = event({ type: "ObjectEvent", action: "ADD", bizStep: "commissioning" });
    const transformation = event({ type: "TransformationEvent", bizStep: "commissioning" });
    expect(classifyEvent(commission)).toEqual({ kind: "core", name: "Commission" });
    expect(classifyEvent(transformation)).toEqual({ kind: "core", name: "Transformation" });
  });

  it("accepts the bizStep and disposition in each of their three forms", () => {
    const forms = bizStepForms("shipping");
    for (const bizStep of [forms.short, forms.urn, forms.webUri]) {
      for (const disposition of [
        "in_transit",
        "urn:epcglobal:cbv:disp:in_transit",
        "https://ref.gs1.org/cbv/Disp-in_transit",
      ]) {
        const e = event({ type: "ObjectEvent", action: "OBSERVE", bizStep, disposition });
        expect(coreSignatureProblem(e)).toBeUndefined();
        expect(coreColumnsProblem(e, rows)).toBeUndefined();
        expect(coreTypeProblem(e)).toBeUndefined();
      }
    }
  });
});

describe("coreSignatureProblem (CORE-SIGNATURE, the spec 6 table)", () => {
  it("fails an ObjectEvent OBSERVE at commissioning as a Commission with the wrong action", () => {
    const e = event({
      type: "ObjectEvent",
      action: "OBSERVE",
      bizStep: "commissioning",
      disposition: "active",
    });
    const problem = coreSignatureProblem(e);
    expect(problem?.message).toContain("is a Commission (ObjectEvent, by its bizStep commissioning)");
    expect(problem?.message).toContain("with action OBSERVE where spec 6 fixes ADD");
    expect(problem?.expected).toEqual(["Commission: ObjectEvent ADD"]);
    expect(problem?.actual).toMatchObject({ event: e.eventID, action: "OBSERVE" });
    expect(coreTypeProblem(e)).toBeUndefined();
  });

  it("fails an ObjectEvent ADD at receiving, as the GS1 example does, since spec 6 fixes OBSERVE", () => {
    const e = event({ type: "ObjectEvent", action: "ADD", bizStep: "urn:epcglobal:cbv:bizstep:receiving" });
    expect(coreSignatureProblem(e)?.message).toContain("is a Receiving");
    expect(coreSignatureProblem(e)?.message).toContain("with action ADD where spec 6 fixes OBSERVE");
  });

  it("fails a step-named event of another type, naming the type spec 6 fixes", () => {
    const e = event({ type: "TransactionEvent", action: "ADD", bizStep: "shipping" });
    const problem = coreSignatureProblem(e);
    expect(problem?.message).toContain("is a Shipping (by its bizStep shipping) of type TransactionEvent");
    expect(problem?.message).toContain("where spec 6 fixes ObjectEvent");
    expect(coreTypeProblem(e)).toBeUndefined();
  });

  it("fails an AggregationEvent that is neither an Aggregation nor a Disaggregation", () => {
    const e = event({ type: "AggregationEvent", action: "OBSERVE", bizStep: "receiving" });
    const problem = coreSignatureProblem(e);
    expect(problem?.message).toContain("is an Aggregation or Disaggregation (AggregationEvent");
    expect(problem?.message).toContain("with action OBSERVE where spec 6 fixes ADD or DELETE");
  });

  it("fails a TransformationEvent that carries an action, since the row has none", () => {
    const e = event({ type: "TransformationEvent", action: "ADD", bizStep: "commissioning" });
    expect(coreSignatureProblem(e)?.message).toContain("with action ADD where spec 6 fixes no action");
  });

  it("passes an event whose two namings disagree when it has the signature of one of them", () => {
    const packedAtShipping = event({ type: "AggregationEvent", action: "ADD", bizStep: "shipping" });
    expect(coreSignatureProblem(packedAtShipping)).toBeUndefined();
    expect(classifyEvent(packedAtShipping)).toEqual({ kind: "core", name: "Aggregation" });
  });

  it("does not look at the disposition or at the bundled definition's steps", () => {
    const e = event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "shipping", disposition: "active" });
    expect(coreSignatureProblem(e)).toBeUndefined();
    const unpacked = event({ type: "AggregationEvent", action: "DELETE", bizStep: "receiving" });
    expect(coreSignatureProblem(unpacked)).toBeUndefined();
  });

  it("leaves events outside the seven to CORE-TYPE", () => {
    const custom = event({
      type: "ObjectEvent",
      action: "OBSERVE",
      bizStep: "urn:gdst:bizStep:fishingEvent",
    });
    expect(coreSignatureProblem(custom)).toBeUndefined();
    expect(coreTypeProblem(custom)).toBeDefined();
  });
});

describe("coreColumnsProblem (CORE-COLUMNS, the definition's further columns)", () => {
  it("fails a Shipping whose disposition is active, naming the column and both values", () => {
    const e = event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "shipping", disposition: "active" });
    const problem = coreColumnsProblem(e, rows);
    expect(problem?.message).toContain("is a Shipping (ObjectEvent)");
    expect(problem?.message).toContain("disposition active where x-std-core-events fixes in_transit");
    expect(problem?.expected).toEqual({ coreEvent: "Shipping", disposition: "in_transit" });
    expect(problem?.actual).toMatchObject({ event: e.eventID, disposition: "active" });
  });

  it("fails a Commission with a disposition other than active, and one with none", () => {
    const inactive = event({
      type: "ObjectEvent",
      action: "ADD",
      bizStep: "commissioning",
      disposition: "inactive",
    });
    const none = event({ type: "ObjectEvent", action: "ADD", bizStep: "commissioning" });
    expect(coreColumnsProblem(inactive, rows)?.message).toContain("fixes active");
    expect(coreColumnsProblem(none, rows)?.message).toContain(
      "disposition no disposition where x-std-core-events fixes active",
    );
  });

  it("fails an Aggregation at a bizStep other than the row's", () => {
    const e = event({ type: "AggregationEvent", action: "ADD", bizStep: "shipping", disposition: "active" });
    expect(coreColumnsProblem(e, rows)?.message).toContain(
      "bizStep shipping where x-std-core-events fixes packing",
    );
  });

  it("does not check a column the definition leaves not fixed (Receiving, Decommission)", () => {
    for (const disposition of [undefined, "in_progress", "sellable_not_accessible", "custom:disp"]) {
      const receiving = event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "receiving" });
      const decommission = event({ type: "ObjectEvent", action: "DELETE", bizStep: "decommissioning" });
      if (disposition !== undefined) {
        receiving.disposition = disposition;
        decommission.disposition = disposition;
      }
      expect(coreColumnsProblem(receiving, rows)).toBeUndefined();
      expect(coreColumnsProblem(decommission, rows)).toBeUndefined();
    }
  });

  it("reads the rows it is given, so a vendor's definition decides, and judges only events with the right signature", () => {
    const shipping = event({
      type: "ObjectEvent",
      action: "OBSERVE",
      bizStep: "shipping",
      disposition: "active",
    });
    const theirs = rows.map((r) => (r.name === "Shipping" ? { ...r, disposition: "active" } : r));
    expect(coreColumnsProblem(shipping, theirs)).toBeUndefined();
    expect(
      coreColumnsProblem(
        shipping,
        rows.filter((r) => r.name !== "Shipping"),
      ),
    ).toBeUndefined();
    const wrongAction = event({
      type: "ObjectEvent",
      action: "ADD",
      bizStep: "shipping",
      disposition: "active",
    });
    expect(coreColumnsProblem(wrongAction, rows)).toBeUndefined();
  });
});

describe("coreTypeProblem (CORE-TYPE)", () => {
  it("reports an event that neither its step nor its type names", () => {
    const others = [
      event({ type: "AssociationEvent", action: "ADD", bizStep: "assembling" }),
      event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "urn:gdst:bizStep:fishingEvent" }),
      event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "inspecting" }),
      event({ type: "ObjectEvent", action: "ADD" }),
    ];
    for (const e of others) {
      const problem = coreTypeProblem(e);
      expect(problem?.message).toContain("matches none of the core event signatures");
      expect(problem?.actual).toMatchObject({ type: e.type });
      expect(coreSignatureProblem(e)).toBeUndefined();
    }
  });
});

describe("moduleProblem (CORE-MODULE-*)", () => {
  const dataset = generateDataset({ seed: 7, events: 120 });

  it("passes every event of a generated dataset under each module", () => {
    for (const module of ["core", "seafood", "wildcatch", "aquaculture"]) {
      for (const e of dataset.events) {
        expect(moduleProblem(module, e, validators.validateModule(module, e))).toBeUndefined();
      }
    }
  });

  it("fails an event with an empty product owner under the core module, with the schema error", () => {
    const e = structuredClone(dataset.events[0]!);
    e["gdst:productOwner"] = "";
    const problem = moduleProblem("core", e, validators.validateModule("core", e));
    expect(problem?.message).toContain("core module schema");
    expect(JSON.stringify(problem?.actual)).toContain("gdst:productOwner");
  });

  it("passes an event without a product owner under core, but fails it under seafood", () => {
    const e = structuredClone(dataset.events[0]!);
    delete e["gdst:productOwner"];
    expect(moduleProblem("core", e, validators.validateModule("core", e))).toBeUndefined();
    const problem = moduleProblem("seafood", e, validators.validateModule("seafood", e));
    expect(problem?.message).toContain("seafood module schema");
    expect(JSON.stringify(problem?.actual)).toContain("gdst:productOwner");
  });

  it("fails a wild-caught lot whose vessel flag is not an upper-case country code", () => {
    const caught = dataset.events.find(
      (e) =>
        (e.ilmd as Record<string, unknown> | undefined)?.["cbvmda:vesselCatchInformationList"] !== undefined,
    );
    expect(caught).toBeDefined();
    const e = structuredClone(caught!);
    const list = (e.ilmd as Record<string, { "cbvmda:vesselCatchInformation": Record<string, string>[] }>)[
      "cbvmda:vesselCatchInformationList"
    ]!;
    list["cbvmda:vesselCatchInformation"][0]!["cbvmda:vesselFlagState"] = "ph";
    expect(moduleProblem("wildcatch", e, validators.validateModule("wildcatch", e))?.message).toContain(
      "wildcatch module schema",
    );
  });
});

describe("generated datasets", () => {
  it("hold only core events that carry their rows' columns", () => {
    fc.assert(
      fc.property(datasetArbitrary({ maxChains: 3 }), (ds) => {
        for (const e of ds.events) {
          expect(coreSignatureProblem(e)).toBeUndefined();
          expect(coreColumnsProblem(e, rows)).toBeUndefined();
          expect(coreTypeProblem(e)).toBeUndefined();
        }
      }),
      { numRuns: 20 },
    );
  });
});
