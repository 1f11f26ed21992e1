import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createValidators, REPO_ROOT, type Validators } from "../../src/definition/index.ts";

const NEGATIVE = path.resolve(REPO_ROOT, "../shared/gdst/opentraceability/events/negative");
type Obj = Record<string, unknown>;

let v: Validators;

beforeAll(async () => {
  v = await createValidators({ network: false });
});

const parties = {
  "gdst:productOwner": "urn:epc:id:pgln:0614141.00001",
  "cbvmda:informationProvider": "urn:epc:id:pgln:0614141.00002",
};

function event(extra: Obj = {}): Obj {
  return {
    type: "ObjectEvent",
    eventTime: "2024-03-01T10:00:00.000Z",
    eventTimeZoneOffset: "+00:00",
    action: "ADD",
    bizStep: "commissioning",
    quantityList: [{ epcClass: "urn:epc:class:lgtin:0614141.107346.LOT1", quantity: 10, uom: "KGM" }],
    ...parties,
    ...extra,
  };
}

const vessel = (extra: Obj = {}): Obj => ({
  "cbvmda:vesselName": "Northern Star",
  "cbvmda:vesselFlagState": "NO",
  "cbvmda:catchArea": "urn:gdst:fao:27.2",
  "cbvmda:fishingGearTypeCode": "urn:gdst:gear:03.1",
  ...extra,
});

const wildIlmd = (extra: Obj = {}): Obj => ({
  "cbvmda:lotNumber": "LOT1",
  "cbvmda:productionMethodForFishAndSeafoodCode": "MARINE_FISHERY",
  "cbvmda:vesselCatchInformationList": { "cbvmda:vesselCatchInformation": [vessel()] },
  ...extra,
});

const farmIlmd = (extra: Obj = {}): Obj => ({
  "cbvmda:lotNumber": "FARM-7",
  "cbvmda:productionMethodForFishAndSeafoodCode": "AQUACULTURE",
  "gdst:aquacultureMethod": "net pens",
  "gdst:broodstockSource": "Domestic",
  ...extra,
});

function without(obj: Obj, key: string): Obj {
  const { [key]: _dropped, ...rest } = obj;
  return rest;
}

/** `module` refuses an event whose farmed product's ilmd lacks `key`, and one where `key` is empty. */
function expectFarmIlmdRefusedWithout(module: string, key: string): void {
  expect(v.validateModule(module, event({ ilmd: without(farmIlmd(), key) })).valid).toBe(false);
  expect(v.validateModule(module, event({ ilmd: farmIlmd({ [key]: "" }) })).valid).toBe(false);
}

const negative = (name: string): Obj =>
  JSON.parse(readFileSync(path.join(NEGATIVE, name), "utf8")).epcisBody.eventList[0];

describe("module core: the party members, where an event carries them, are party URIs", () => {
  it("accepts an event with both, and the event is sound EPCIS too", () => {
    expect(v.validateModule("core", event()).errors).toEqual([]);
    expect(v.validateEvent(event()).errors).toEqual([]);
  });

  it.each(["gdst:productOwner", "cbvmda:informationProvider"])(
    "accepts an event without %s (the spec requires neither of every event) and refuses it empty or not a string",
    (key) => {
      expect(v.validateModule("core", without(event(), key)).valid).toBe(true);
      expect(v.validateModule("core", event({ [key]: "" })).valid).toBe(false);
      expect(v.validateModule("core", event({ [key]: 7 })).valid).toBe(false);
    },
  );

  it.each(["gdst_event_missing_product_owner.jsonld", "gdst_event_missing_information_provider.jsonld"])(
    "passes the GDST negative example %s, which only the seafood module refuses",
    (file) => {
      expect(v.validateModule("core", negative(file)).valid).toBe(true);
      expect(v.validateModule("seafood", negative(file)).valid).toBe(false);
    },
  );
});

describe("module seafood: every event names its parties, an event with ilmd the lot and the production method", () => {
  it("passes an event without ilmd", () => {
    expect(v.validateModule("seafood", event()).valid).toBe(true);
  });

  it.each(["gdst:productOwner", "cbvmda:informationProvider"])(
    "refuses an event without %s, or with it empty",
    (key) => {
      expect(v.validateModule("seafood", without(event(), key)).valid).toBe(false);
      expect(v.validateModule("seafood", event({ [key]: "" })).valid).toBe(false);
    },
  );

  it("accepts a value outside the known production methods, the list being open", () => {
    const ilmd = { "cbvmda:lotNumber": "L1", "cbvmda:productionMethodForFishAndSeafoodCode": "RANCHING" };
    expect(v.validateModule("seafood", event({ ilmd })).valid).toBe(true);
  });

  it.each(["cbvmda:lotNumber", "cbvmda:productionMethodForFishAndSeafoodCode"])(
    "refuses ilmd without %s",
    (key) => expectFarmIlmdRefusedWithout("seafood", key),
  );

  it("refuses the GDST negative example without a lot number", () => {
    const e = negative("gdst_processing_missing_lot_number.jsonld");
    expect(v.validateModule("core", e).valid).toBe(true);
    expect(v.validateModule("seafood", e).valid).toBe(false);
  });
});

describe("module wildcatch: a fishery product carries each vessel's catch information", () => {
  it("accepts marine and inland fishery products with vessel catch information", () => {
    expect(v.validateModule("wildcatch", event({ ilmd: wildIlmd() })).errors).toEqual([]);
    const inland = wildIlmd({ "cbvmda:productionMethodForFishAndSeafoodCode": "INLAND_FISHERY" });
    expect(v.validateModule("wildcatch", event({ ilmd: inland })).valid).toBe(true);
  });

  it("passes farmed products and events without ilmd", () => {
    expect(v.validateModule("wildcatch", event({ ilmd: farmIlmd() })).valid).toBe(true);
    expect(v.validateModule("wildcatch", event()).valid).toBe(true);
  });

  it("refuses a fishery product without catch information, or with an empty list", () => {
    const bare = without(wildIlmd(), "cbvmda:vesselCatchInformationList");
    expect(v.validateModule("wildcatch", event({ ilmd: bare })).valid).toBe(false);
    const empty = wildIlmd({ "cbvmda:vesselCatchInformationList": { "cbvmda:vesselCatchInformation": [] } });
    expect(v.validateModule("wildcatch", event({ ilmd: empty })).valid).toBe(false);
  });

  it.each(["cbvmda:vesselName", "cbvmda:vesselFlagState", "cbvmda:catchArea", "cbvmda:fishingGearTypeCode"])(
    "refuses a vessel entry without %s",
    (key) => {
      const ilmd = wildIlmd({
        "cbvmda:vesselCatchInformationList": {
          "cbvmda:vesselCatchInformation": [vessel(), without(vessel(), key)],
        },
      });
      expect(v.validateModule("wildcatch", event({ ilmd })).valid).toBe(false);
    },
  );

  it.each(["no", "NOR", "N0", ""])("refuses the flag state %j, which is not ISO 3166-1 alpha-2", (flag) => {
    const ilmd = wildIlmd({
      "cbvmda:vesselCatchInformationList": {
        "cbvmda:vesselCatchInformation": [vessel({ "cbvmda:vesselFlagState": flag })],
      },
    });
    expect(v.validateModule("wildcatch", event({ ilmd })).valid).toBe(false);
  });

  it("refuses the GDST negative example with a three-letter flag, and only for that", () => {
    const e = negative("gdst_vessel_invalid_country_code.jsonld");
    expect(v.validateModule("wildcatch", e).errors.join(" ")).toContain("cbvmda:vesselFlagState");
    for (const other of ["core", "seafood", "aquaculture"])
      expect(v.validateModule(other, e).valid).toBe(true);
  });
});

describe("module aquaculture: a farmed product names its method and broodstock source", () => {
  it("accepts a farmed product with both", () => {
    expect(v.validateModule("aquaculture", event({ ilmd: farmIlmd() })).errors).toEqual([]);
  });

  it("passes fishery products and events without ilmd", () => {
    expect(v.validateModule("aquaculture", event({ ilmd: wildIlmd() })).valid).toBe(true);
    expect(v.validateModule("aquaculture", event()).valid).toBe(true);
  });

  it.each(["gdst:aquacultureMethod", "gdst:broodstockSource"])(
    "refuses a farmed product without %s, or with it empty",
    (key) => expectFarmIlmdRefusedWithout("aquaculture", key),
  );

  it("refuses the GDST negative example without an aquaculture method, and only for that", () => {
    const e = negative("gdst_farm_harvest_missing_aquaculture_method.jsonld");
    expect(v.validateModule("aquaculture", e).errors.join(" ")).toContain("gdst:aquacultureMethod");
    for (const other of ["core", "seafood", "wildcatch"]) expect(v.validateModule(other, e).valid).toBe(true);
  });
});

describe("validateModule", () => {
  it("lists the definition's modules and refuses an unknown name with the known ones", () => {
    expect(v.modules).toEqual(["core", "seafood", "wildcatch", "aquaculture"]);
    expect(() => v.validateModule("beef", event())).toThrow(/core, seafood, wildcatch, aquaculture/);
  });

  it("keeps the known production methods as x-std-values, not as an enum", () => {
    const schema = JSON.parse(
      readFileSync(path.join(REPO_ROOT, "schemas/modules/seafood.schema.json"), "utf8"),
    );
    const method = schema.then.properties.ilmd.properties["cbvmda:productionMethodForFishAndSeafoodCode"];
    expect(method["x-std-values"]).toEqual(["AQUACULTURE", "INLAND_FISHERY", "MARINE_FISHERY"]);
    expect(method.enum).toBeUndefined();
  });
});
