import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, eventIdentity } from "../../src/model/identity.ts";
import type { EpcisEvent } from "../../src/model/types.ts";

const shuffleKeys = (v: unknown, flip: boolean): unknown => {
  if (Array.isArray(v)) return v.map((x) => shuffleKeys(x, flip));
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v).map(([k, x]) => [k, shuffleKeys(x, !flip)] as const);
    return Object.fromEntries(flip ? entries.reverse() : entries);
  }
  return v;
};

describe("canonicalJson", () => {
  it("sorts keys recursively and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: [{ d: null, c: "x" }, 2], e: undefined })).toBe(
      '{"a":[{"c":"x","d":null},2],"b":1}',
    );
  });

  it("writes what JSON has no text for as null and refuses a bigint with a hint", () => {
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson([undefined, () => 0, Symbol("s")])).toBe("[null,null,null]");
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow("convert it to a string first");
  });

  it("is valid JSON equal to the input, whatever the key order", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, flip) => {
        const text = canonicalJson(value);
        expect(canonicalJson(shuffleKeys(value, flip))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe("eventIdentity", () => {
  const base: EpcisEvent = {
    type: "ObjectEvent",
    action: "OBSERVE",
    eventTime: "2005-04-03T20:33:31.116000-06:00",
    eventTimeZoneOffset: "-06:00",
    bizStep: "shipping",
    epcList: ["urn:epc:id:sgtin:0614141.812345.6789"],
    bizLocation: { id: "urn:epc:id:sgln:0614141.12345.0" },
  };

  it("is the eventID when there is one", () => {
    expect(eventIdentity({ ...base, eventID: "urn:uuid:1" })).toBe("urn:uuid:1");
    expect(eventIdentity({ ...base, eventID: "" })).toMatch(/^hash:[0-9a-f]{64}$/);
  });

  it("is a SHA-256 of the canonical JSON otherwise, ignoring recordTime", () => {
    const id = eventIdentity(base);
    expect(id).toMatch(/^hash:[0-9a-f]{64}$/);
    expect(eventIdentity({ ...base, recordTime: "2024-01-01T00:00:00Z" })).toBe(id);
    expect(eventIdentity(shuffleKeys(base, true) as EpcisEvent)).toBe(id);
    expect(eventIdentity({ ...base, action: "ADD" })).not.toBe(id);
    expect(eventIdentity({ ...base, epcList: ["urn:epc:id:sgtin:0614141.812345.6790"] })).not.toBe(id);
    const plain = { type: "ObjectEvent", action: "ADD" };
    expect(eventIdentity(plain)).toBe(
      "hash:" + createHash("sha256").update('{"action":"ADD","type":"ObjectEvent"}').digest("hex"),
    );
  });

  it("does not change when a server rewrites identifiers, bizStep, disposition or eventTime in an equal form", () => {
    const rewritten: EpcisEvent = {
      ...base,
      eventTime: "2005-04-04T02:33:31.116Z",
      bizStep: "https://ref.gs1.org/cbv/BizStep-shipping",
      epcList: ["https://id.gs1.org/01/80614141123458/21/6789"],
      bizLocation: { id: "https://id.gs1.org/414/0614141123452" },
    };
    expect(eventIdentity(rewritten)).toBe(eventIdentity(base));
    const disposition = (d: string) => eventIdentity({ ...base, disposition: d });
    expect(disposition("urn:epcglobal:cbv:disp:in_transit")).toBe(disposition("in_transit"));
    expect(disposition("https://ref.gs1.org/cbv/Disp-in_transit")).toBe(disposition("in_transit"));
    expect(disposition("https://ref.gs1.org/cbv/Disp-in_transit")).not.toBe(disposition("in_progress"));
    expect(eventIdentity({ ...base, eventTime: "2005-04-04T02:33:31.117Z" })).not.toBe(eventIdentity(base));
  });

  it.each([
    ["bizTransactionList", "bizTransaction", "btt", "BTT", "po", "inv"],
    ["sourceList", "source", "sdt", "SDT", "owning_party", "possessing_party"],
    ["destinationList", "destination", "sdt", "SDT", "location", "owning_party"],
  ])(
    "does not change when a server writes the %s types in another CBV form",
    (field, member, urn, web, word, other) => {
      const value = "urn:epc:id:pgln:0614141.00001";
      const typed = (type: string, more: Record<string, unknown> = {}) =>
        eventIdentity({ ...base, [field]: [{ type, [member]: value, ...more }] });
      const id = typed(`urn:epcglobal:cbv:${urn}:${word}`);
      expect(typed(word)).toBe(id);
      expect(typed(`https://ref.gs1.org/cbv/${web}-${word}`)).toBe(id);
      // Another term, another value, a type only nearly in a CBV form, or one of another vocabulary is other content.
      expect(typed(`urn:epcglobal:cbv:${urn}:${other}`)).not.toBe(id);
      expect(typed(word, { [member]: "urn:epc:id:pgln:0614141.00002" })).not.toBe(id);
      expect(typed(`urn:epcglobal:cbv:${urn}:${word} `)).not.toBe(id);
      expect(typed(`urn:epcglobal:cbv:disp:${word}`)).not.toBe(id);
      expect(id).not.toBe(eventIdentity(base));
    },
  );
});

describe("eventIdentity across written forms of every identifier field", () => {
  const sgtin = "urn:epc:id:sgtin:0614141.812345.6789";
  const sgtinDl = "https://id.gs1.org/01/80614141123458/21/6789";
  const lgtin = "urn:epc:class:lgtin:4012345.012345.998877";
  const lgtinDl = "https://id.gs1.org/01/04012345123456/10/998877";
  const sgln = "urn:epc:id:sgln:0614141.12345.0";
  const sglnDl = "https://id.gs1.org/414/0614141123452";
  const plain: EpcisEvent = { type: "AggregationEvent", action: "ADD" };

  it.each(["epcList", "childEPCs", "inputEPCList", "outputEPCList"])("%s", (field) => {
    const urn = eventIdentity({ ...plain, [field]: [sgtin] });
    expect(eventIdentity({ ...plain, [field]: [sgtinDl] })).toBe(urn);
    expect(eventIdentity({ ...plain, [field]: ["urn:epc:id:sgtin:0614141.812345.6790"] })).not.toBe(urn);
    expect(urn).not.toBe(eventIdentity(plain));
  });

  it.each(["quantityList", "childQuantityList", "inputQuantityList", "outputQuantityList"])("%s", (field) => {
    const urn = eventIdentity({ ...plain, [field]: [{ epcClass: lgtin, quantity: 2 }] });
    expect(eventIdentity({ ...plain, [field]: [{ quantity: 2, epcClass: lgtinDl }] })).toBe(urn);
    expect(eventIdentity({ ...plain, [field]: [{ epcClass: lgtin, quantity: 3 }] })).not.toBe(urn);
    expect(urn).not.toBe(eventIdentity(plain));
  });

  it("parentID", () => {
    const id = eventIdentity({ ...plain, parentID: "urn:epc:id:sscc:0614141.1234567890" });
    expect(eventIdentity({ ...plain, parentID: "https://id.gs1.org/00/106141412345678908" })).toBe(id);
    expect(id).not.toBe(eventIdentity(plain));
  });

  it.each(["bizLocation", "readPoint"])("%s, keeping its other members", (field) => {
    const id = eventIdentity({ ...plain, [field]: { id: sgln, note: "dock 4" } });
    expect(eventIdentity({ ...plain, [field]: { note: "dock 4", id: sglnDl } })).toBe(id);
    expect(eventIdentity({ ...plain, [field]: { id: sgln, note: "dock 5" } })).not.toBe(id);
    expect(eventIdentity({ ...plain, [field]: { id: "urn:epc:id:sgln:0614141.12345.1" } })).not.toBe(
      eventIdentity({ ...plain, [field]: { id: sgln } }),
    );
  });
});

describe("eventIdentity on malformed members", () => {
  const plain: EpcisEvent = { type: "ObjectEvent", action: "OBSERVE" };
  const identities = (values: unknown[], field: string) =>
    values.map((value) => eventIdentity({ ...plain, [field]: value }));
  const distinct = (ids: string[]) => new Set(ids).size === ids.length;

  it("hashes them as they stand, without throwing, and tells them apart", () => {
    expect(
      distinct(identities([null, undefined, "loc", { id: 42 }, { id: 43 }, { name: "x" }], "bizLocation")),
    ).toBe(true);
    expect(distinct(identities([null, "x", [null], ["x"], [{ epcClass: 7 }]], "quantityList"))).toBe(true);
    expect(() =>
      eventIdentity({ ...plain, quantityList: [undefined] } as unknown as EpcisEvent),
    ).not.toThrow();
    expect(distinct(identities([[42], [43], "x"], "epcList"))).toBe(true);
    expect(distinct(identities([42, 43], "parentID"))).toBe(true);
  });

  it("keeps an eventTime or disposition that is not a string apart from its text", () => {
    expect(distinct(identities(["2024-01-01T00:00:00Z", ["2024-01-01T00:00:00Z"]], "eventTime"))).toBe(true);
    const d = "urn:epcglobal:cbv:disp:in_transit";
    expect(distinct(identities([d, [d]], "disposition"))).toBe(true);
  });

  it("keeps a disposition that is only nearly in a CBV form as written", () => {
    const disposition = (d: string) => eventIdentity({ ...plain, disposition: d });
    for (const form of ["urn:epcglobal:cbv:disp:", "https://ref.gs1.org/cbv/Disp-"]) {
      expect(disposition(`x${form}in_transit`)).not.toBe(disposition("in_transit"));
      expect(disposition(`${form}in transit`)).not.toBe(disposition("in"));
      expect(disposition(`${form}in transit`)).not.toBe(disposition(`${form}in transit `));
    }
  });

  it("keeps typed list elements that are not objects, and types that are not strings, as they stand", () => {
    expect(
      distinct(identities([null, "po", ["po"], [{ type: 7 }], [{ type: "7" }]], "bizTransactionList")),
    ).toBe(true);
    expect(() =>
      eventIdentity({ ...plain, sourceList: [null, 3, "x"] } as unknown as EpcisEvent),
    ).not.toThrow();
  });

  it("keeps an eventTime that is not an instant as written", () => {
    expect(eventIdentity({ ...plain, eventTime: "yesterday" })).not.toBe(
      eventIdentity({ ...plain, eventTime: "today" }),
    );
  });
});
