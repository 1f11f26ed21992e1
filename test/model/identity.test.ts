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
    expect(eventIdentity({ ...base, disposition: "in_transit" })).toBe(
      eventIdentity({ ...base, disposition: "urn:epcglobal:cbv:disp:in_transit" }),
    );
    expect(eventIdentity({ ...base, eventTime: "2005-04-04T02:33:31.117Z" })).not.toBe(eventIdentity(base));
  });
});
