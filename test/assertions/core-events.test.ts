import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type CoreRow,
  classifyEvent,
  coreColumnsProblem,
  coreRowsOf,
  coreSignatureProblem,
  coreSignatureShown,
  coreTypeProblem,
  moduleProblem,
  takenFor,
} from "../../src/assertions/core-events.ts";
import {
  CORE_EVENTS,
  type CoreEventSignature,
  createValidators,
  loadDefinition,
  type Validators,
} from "../../src/definition/index.ts";
import { datasetArbitrary } from "../../src/generate/arbitraries.ts";
import { generateDataset } from "../../src/generate/index.ts";
import { bizStepForms, type EpcisEvent } from "../../src/model/index.ts";

let signatures: readonly CoreEventSignature[];
let rows: readonly CoreRow[];
let validators: Validators;

beforeAll(async () => {
  const definition = await loadDefinition();
  signatures = definition.coreEvents;
  rows = coreRowsOf(signatures);
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
function rowEvent(row: CoreRow): EpcisEvent {
  const e = event({ type: row.eventType, bizStep: row.bizStep });
  if (row.action !== null) e.action = row.action;
  if (row.disposition !== null) e.disposition = row.disposition;
  return e;
}

describe("coreRowsOf", () => {
  it("reads the seven rows from the definition as spec 6 lists them", () => {
    expect(rows.map((r) => r.name)).toEqual(CORE_EVENTS.map((r) => r.name));
  });

  it("takes the event type and action from spec 6 and the further columns from the definition", () => {
    const theirs = signatures.map((s) =>
      s.name === "Shipping"
        ? { ...s, eventType: "TransactionEvent", action: "ADD", bizStep: "departing" }
        : s,
    );
    expect(coreRowsOf(theirs).find((r) => r.name === "Shipping")).toEqual({
      name: "Shipping",
      eventType: "ObjectEvent",
      action: "OBSERVE",
      bizStep: "departing",
      disposition: "in_transit",
    });
    expect(coreRowsOf([{ ...signatures[0]!, name: "Harvest" }])).toEqual([]);
  });
});

describe("classifyEvent", () => {
  it("takes an event carrying each row's columns for that core event", () => {
    for (const row of rows) {
      expect(classifyEvent(rowEvent(row), rows)).toEqual({ kind: "core", row });
    }
  });

  it("takes an event for a core event by its event type at the row's bizStep, and by nothing less", () => {
    const named = (e: EpcisEvent) => takenFor(e, rows).map((r) => r.name);
    expect(named(event({ type: "ObjectEvent", action: "ADD", bizStep: "shipping" }))).toEqual(["Shipping"]);
    expect(named(event({ type: "AggregationEvent", action: "DELETE", bizStep: "packing" }))).toEqual([
      "Aggregation",
    ]);
    // The same steps with other event types, and the same types at other steps, are other EPCIS events.
    expect(named(event({ type: "TransactionEvent", action: "ADD", bizStep: "shipping" }))).toEqual([]);
    expect(named(event({ type: "AggregationEvent", action: "OBSERVE", bizStep: "receiving" }))).toEqual([]);
    expect(named(event({ type: "TransformationEvent", bizStep: "urn:gdst:bizStep:farmHarvest" }))).toEqual(
      [],
    );
    expect(named(event({ type: "ObjectEvent", action: "ADD" }))).toEqual([]);
  });

  it("tells Commission and Transformation apart although both are at bizStep commissioning", () => {
    const commission = event({ type: "ObjectEvent", action: "ADD", bizStep: "commissioning" });
    const transformation = event({ type: "TransformationEvent", bizStep: "commissioning" });
    expect(classifyEvent(commission, rows)).toMatchObject({ kind: "core", row: { name: "Commission" } });
    expect(classifyEvent(transformation, rows)).toMatchObject({
      kind: "core",
      row: { name: "Transformation" },
    });
  });

  it("reads the rows it is given, so that a vendor's definition says which events are core events", () => {
    const departing = event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "departing" });
    const theirs = coreRowsOf(
      signatures.map((s) => (s.name === "Shipping" ? { ...s, bizStep: "departing" } : s)),
    );
    expect(classifyEvent(departing, rows)).toEqual({ kind: "none" });
    expect(classifyEvent(departing, theirs)).toMatchObject({ kind: "core", row: { name: "Shipping" } });
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
        expect(coreSignatureProblem(e, rows)).toBeUndefined();
        expect(coreColumnsProblem(e, rows)).toBeUndefined();
        expect(coreTypeProblem(e, rows)).toBeUndefined();
      }
    }
  });
});

describe("coreSignatureProblem (CORE-SIGNATURE)", () => {
  it("finds an ObjectEvent OBSERVE at commissioning a Commission with the wrong action", () => {
    const e = event({
      type: "ObjectEvent",
      action: "OBSERVE",
      bizStep: "commissioning",
      disposition: "active",
    });
    const problem = coreSignatureProblem(e, rows);
    expect(problem?.message).toContain("is a Commission (ObjectEvent at bizStep commissioning)");
    expect(problem?.message).toContain("with action OBSERVE where spec 6 fixes ADD");
    expect(problem?.expected).toEqual(["Commission: ObjectEvent ADD at commissioning"]);
    expect(problem?.actual).toMatchObject({ event: e.eventID, action: "OBSERVE" });
    expect(coreTypeProblem(e, rows)).toBeUndefined();
    expect(coreColumnsProblem(e, rows)).toBeUndefined();
  });

  it("finds an ObjectEvent ADD at receiving, as a GS1 example writes it, a Receiving with the wrong action", () => {
    const e = event({ type: "ObjectEvent", action: "ADD", bizStep: "urn:epcglobal:cbv:bizstep:receiving" });
    expect(coreSignatureProblem(e, rows)?.message).toContain("is a Receiving");
    expect(coreSignatureProblem(e, rows)?.message).toContain("with action ADD where spec 6 fixes OBSERVE");
  });

  it("finds an AggregationEvent OBSERVE at packing an Aggregation with the wrong action", () => {
    const e = event({ type: "AggregationEvent", action: "OBSERVE", bizStep: "packing" });
    expect(coreSignatureProblem(e, rows)?.message).toContain(
      "is an Aggregation (AggregationEvent at bizStep packing) with action OBSERVE where spec 6 fixes ADD",
    );
  });

  it("finds a TransformationEvent at commissioning that carries an action, since the row has none", () => {
    const e = event({ type: "TransformationEvent", action: "ADD", bizStep: "commissioning" });
    expect(coreSignatureProblem(e, rows)?.message).toContain("with action ADD where spec 6 fixes no action");
  });

  it("finds nothing in events that match no signature: they are other EPCIS events, left to CORE-TYPE", () => {
    const others = [
      event({ type: "AggregationEvent", action: "OBSERVE", bizStep: "receiving" }),
      event({ type: "TransactionEvent", action: "ADD", bizStep: "shipping" }),
      event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "urn:gdst:bizStep:fishingEvent" }),
      event({ type: "AssociationEvent", action: "ADD", bizStep: "assembling" }),
    ];
    for (const e of others) {
      expect(coreSignatureProblem(e, rows)).toBeUndefined();
      expect(coreTypeProblem(e, rows)).toBeDefined();
    }
  });

  it("does not look at the disposition", () => {
    const e = event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "shipping", disposition: "active" });
    expect(coreSignatureProblem(e, rows)).toBeUndefined();
  });

  it("shows a core event it judged for a pass, and nothing for an event that is none", () => {
    const e = event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "shipping" });
    expect(coreSignatureShown(e, rows)).toContain(
      "is a Shipping (ObjectEvent at bizStep shipping) with action OBSERVE",
    );
    expect(
      coreSignatureShown(event({ type: "TransactionEvent", action: "ADD", bizStep: "shipping" }), rows),
    ).toBe(undefined);
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

  it("reads the rows it is given, so a vendor's definition decides, and judges only events with the right action", () => {
    const shipping = event({
      type: "ObjectEvent",
      action: "OBSERVE",
      bizStep: "shipping",
      disposition: "active",
    });
    const theirs = coreRowsOf(
      signatures.map((r) => (r.name === "Shipping" ? { ...r, disposition: "active" } : r)),
    );
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
  it("reports an event that no row takes for a core event by its type and bizStep", () => {
    const others = [
      event({ type: "AssociationEvent", action: "ADD", bizStep: "assembling" }),
      event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "urn:gdst:bizStep:fishingEvent" }),
      event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "inspecting" }),
      event({ type: "TransactionEvent", action: "ADD", bizStep: "shipping" }),
      event({ type: "ObjectEvent", action: "ADD" }),
    ];
    for (const e of others) {
      const problem = coreTypeProblem(e, rows);
      expect(problem?.message).toContain("matches none of the core event signatures");
      expect(problem?.message).toContain(`no row of x-std-core-events has event type ${e.type}`);
      expect(problem?.actual).toMatchObject({ type: e.type });
      expect(problem?.expected).toHaveLength(7);
      expect(coreSignatureProblem(e, rows)).toBeUndefined();
    }
  });

  it("does not report a core event with the wrong action: CORE-SIGNATURE does", () => {
    const e = event({ type: "ObjectEvent", action: "DELETE", bizStep: "shipping" });
    expect(coreTypeProblem(e, rows)).toBeUndefined();
    expect(coreSignatureProblem(e, rows)).toBeDefined();
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
          expect(coreSignatureProblem(e, rows)).toBeUndefined();
          expect(coreColumnsProblem(e, rows)).toBeUndefined();
          expect(coreTypeProblem(e, rows)).toBeUndefined();
        }
      }),
      { numRuns: 20 },
    );
  });
});
