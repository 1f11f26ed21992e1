import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  CORE_EVENTS,
  type CoreEventSignature,
  createValidators,
  loadDefinition,
  type Validators,
} from "../../../src/definition/index.ts";
import { datasetArbitrary, generateDataset } from "../../../src/generate/index.ts";
import {
  classifyEvent,
  coreSignatureProblem,
  coreTypeProblem,
  moduleProblem,
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

  it("classifies an event carrying each row's columns as that core event, with nothing broken", () => {
    for (const row of rows) {
      const c = classifyEvent(rowEvent(row), rows);
      expect(c).toEqual({ kind: "core", signature: row, mismatches: [] });
    }
  });

  it("tells Commission and Transformation apart although both use bizStep commissioning", () => {
    const commission = classifyEvent(
      event({ type: "ObjectEvent", action: "ADD", bizStep: "commissioning" }),
      rows,
    );
    const transformation = classifyEvent(
      event({ type: "TransformationEvent", bizStep: "commissioning" }),
      rows,
    );
    expect(commission.kind === "core" && commission.signature.name).toBe("Commission");
    expect(transformation.kind === "core" && transformation.signature.name).toBe("Transformation");
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
        expect(coreTypeProblem(e, rows)).toBeUndefined();
      }
    }
  });
});

describe("coreSignatureProblem (CORE-SIGNATURE)", () => {
  it("fails a Shipping whose disposition is active, naming the column and both values", () => {
    const e = event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "shipping", disposition: "active" });
    const problem = coreSignatureProblem(e, rows);
    expect(problem?.message).toContain("Shipping");
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
    expect(coreSignatureProblem(inactive, rows)?.message).toContain("fixes active");
    expect(coreSignatureProblem(none, rows)?.message).toContain(
      "no disposition where x-std-core-events fixes active",
    );
  });

  it("fails an ObjectEvent OBSERVE with bizStep commissioning as a Commission with the wrong action", () => {
    const e = event({
      type: "ObjectEvent",
      action: "OBSERVE",
      bizStep: "commissioning",
      disposition: "active",
    });
    const problem = coreSignatureProblem(e, rows);
    expect(problem?.message).toContain("is a Commission");
    expect(problem?.message).toContain("action OBSERVE where x-std-core-events fixes ADD");
    expect(coreTypeProblem(e, rows)).toBeUndefined();
  });

  it("fails a TransformationEvent that carries an action, since the row has none", () => {
    const e = event({
      type: "TransformationEvent",
      action: "ADD",
      bizStep: "commissioning",
      disposition: "active",
    });
    expect(coreSignatureProblem(e, rows)?.message).toContain(
      "action ADD where x-std-core-events fixes no action",
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
      expect(coreSignatureProblem(receiving, rows)).toBeUndefined();
      expect(coreSignatureProblem(decommission, rows)).toBeUndefined();
    }
  });

  it("leaves events outside the seven to CORE-TYPE", () => {
    const custom = event({
      type: "ObjectEvent",
      action: "OBSERVE",
      bizStep: "urn:gdst:bizStep:fishingEvent",
    });
    expect(coreSignatureProblem(custom, rows)).toBeUndefined();
  });
});

describe("coreTypeProblem (CORE-TYPE)", () => {
  it("reports an event of another type, a custom bizStep and a missing bizStep", () => {
    const others = [
      event({ type: "TransactionEvent", action: "ADD", bizStep: "shipping" }),
      event({ type: "ObjectEvent", action: "OBSERVE", bizStep: "urn:gdst:bizStep:fishingEvent" }),
      event({ type: "ObjectEvent", action: "ADD" }),
      event({ type: "AggregationEvent", action: "ADD", bizStep: "shipping" }),
    ];
    for (const e of others) {
      const problem = coreTypeProblem(e, rows);
      expect(problem?.message).toContain("matches none of the core event signatures");
      expect(problem?.actual).toMatchObject({ type: e.type });
    }
  });

  it("reads the rows it is given, so a vendor's definition decides", () => {
    const onlyShipping = rows.filter((r) => r.name === "Shipping");
    const commission = rowEvent(rows.find((r) => r.name === "Commission")!);
    expect(coreTypeProblem(commission, onlyShipping)).toBeDefined();
    expect(coreTypeProblem(commission, rows)).toBeUndefined();
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
          expect(coreTypeProblem(e, rows)).toBeUndefined();
        }
      }),
      { numRuns: 20 },
    );
  });
});
