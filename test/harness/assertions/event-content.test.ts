import fc from "fast-check";
import { describe, expect, it, test } from "vitest";
import {
  jsonEqual,
  jsonIdentical,
  loadedContentProblem,
  loadedExtensionProblem,
  servedContentProblem,
} from "../../../src/harness/assertions/event-content.ts";
import { canonicalJson } from "../../../src/model/index.ts";
import type { EpcisEvent } from "../../../src/model/types.ts";

const loaded: EpcisEvent = {
  type: "ObjectEvent",
  eventID: "urn:uuid:5b1c5a8e-1c0e-4f5e-9b2e-4a7e0c1d2e3f",
  eventTime: "2024-03-01T12:00:00.500+02:00",
  eventTimeZoneOffset: "+02:00",
  action: "ADD",
  epcList: ["urn:epc:id:sgtin:0614141.107346.2017"],
  bizStep: "commissioning",
  disposition: "active",
  bizLocation: { id: "urn:epc:id:sgln:0614141.00888.0" },
  ilmd: { "cbvmda:lotNumber": "LOT-1" },
};

const served: EpcisEvent = { ...loaded, recordTime: "2024-03-01T10:00:01Z" };

describe("servedContentProblem", () => {
  it("accepts two identical copies, whatever the key order", () => {
    const reordered = Object.fromEntries(Object.entries(served).reverse()) as EpcisEvent;
    expect(servedContentProblem(served, reordered)).toBeUndefined();
  });

  it("names a dropped field", () => {
    const { ilmd: _ilmd, ...withoutIlmd } = served;
    const problem = servedContentProblem(served, withoutIlmd as EpcisEvent);
    expect(problem?.reason).toContain("ilmd missing");
    expect(problem?.evidence.message).toBe("fields that differ: ilmd missing");
  });

  it("counts recordTime and the written form of a value: a served copy must not change", () => {
    expect(servedContentProblem(served, { ...served, recordTime: "2024-03-01T10:00:02Z" })?.reason).toContain(
      "recordTime changed",
    );
    expect(
      servedContentProblem(served, { ...served, bizStep: "urn:epcglobal:cbv:bizstep:commissioning" })?.reason,
    ).toContain("bizStep changed");
  });

  it("names an added field", () => {
    expect(servedContentProblem(served, { ...served, extra: 1 })?.reason).toContain("extra added");
  });
});

describe("loadedContentProblem", () => {
  it("accepts what a server may rewrite: forms, the written eventTime and its own recordTime", () => {
    const rewritten: EpcisEvent = {
      ...served,
      eventTime: "2024-03-01T10:00:00.5Z",
      epcList: ["https://id.gs1.org/01/10614141073464/21/2017"],
      bizStep: "https://ref.gs1.org/cbv/BizStep-commissioning",
      disposition: "urn:epcglobal:cbv:disp:active",
      bizLocation: { id: "https://id.gs1.org/414/0614141008889" },
    };
    expect(loadedContentProblem(loaded, rewritten)).toBeUndefined();
  });

  it("refuses another value, another identifier and a dropped field", () => {
    expect(loadedContentProblem(loaded, { ...served, action: "OBSERVE" })?.reason).toContain(
      "action changed",
    );
    expect(
      loadedContentProblem(loaded, { ...served, epcList: ["urn:epc:id:sgtin:0614141.107346.2018"] })?.reason,
    ).toContain("epcList changed");
    const { ilmd: _ilmd, ...withoutIlmd } = served;
    expect(loadedContentProblem(loaded, withoutIlmd as EpcisEvent)?.reason).toContain("ilmd missing");
  });

  it("refuses another eventID", () => {
    expect(loadedContentProblem(loaded, { ...served, eventID: "urn:uuid:other" })?.reason).toContain(
      "eventID changed",
    );
  });
});

describe("loadedExtensionProblem", () => {
  it("sets extension members apart: written under other prefixes, they are no difference of the event", () => {
    const recompacted: EpcisEvent = {
      ...served,
      ilmd: { "urn:epcglobal:cbv:mda:lotNumber": "LOT-1" },
      "https://example.org/ext#vessel": "Nordkapp",
    };
    const withExtension: EpcisEvent = { ...loaded, "ext:vessel": "Nordkapp" };
    expect(loadedContentProblem(withExtension, recompacted)).toBeUndefined();
    const problem = loadedExtensionProblem(withExtension, recompacted);
    expect(problem?.evidence.message).toMatch(/ilmd changed/);
    expect(problem?.evidence.message).toMatch(/ext:vessel missing/);
    expect(loadedExtensionProblem(loaded, served)).toBeUndefined();
  });

  it("keeps ilmd dropped, and EPCIS members, differences of the event", () => {
    const { ilmd: _ilmd, ...withoutIlmd } = served;
    expect(loadedExtensionProblem(loaded, withoutIlmd as EpcisEvent)).toBeUndefined();
    expect(loadedContentProblem(loaded, { ...served, disposition: "in_transit" })?.reason).toContain(
      "disposition changed",
    );
  });
});

/** The same value with every object's members in reverse order. */
const reordered = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(reordered);
  if (typeof v !== "object" || v === null) return v;
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, reordered(x)]),
  );
};

describe("jsonEqual", () => {
  test("agrees with comparing canonical JSON, for any two parsed values and for one reordered", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const [x, y] = [JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b))];
        expect(jsonEqual(x, y)).toBe(canonicalJson(x) === canonicalJson(y));
        expect(jsonEqual(x, reordered(x))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test("tells apart a missing member, an extra one, an array from an object and null from an object", () => {
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(jsonEqual([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(jsonEqual({}, null)).toBe(false);
    expect(jsonEqual([[1], { a: [2] }], [[1], { a: [2] }])).toBe(true);
  });
});

describe("jsonIdentical", () => {
  test("agrees with comparing what JSON.stringify writes, for any two parsed values and for one reordered", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const [x, y] = [JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b))];
        expect(jsonIdentical(x, y)).toBe(JSON.stringify(x) === JSON.stringify(y));
        expect(jsonIdentical(x, JSON.parse(JSON.stringify(x)))).toBe(true);
        const r = reordered(x);
        expect(jsonIdentical(x, r)).toBe(JSON.stringify(x) === JSON.stringify(r));
      }),
      { numRuns: 500 },
    );
  });

  test("tells apart members in another order, a missing or extra member, an array from an object", () => {
    expect(jsonIdentical({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(jsonIdentical({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(jsonIdentical({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonIdentical({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(jsonIdentical([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(jsonIdentical({ 0: 1 }, [1])).toBe(false);
    expect(jsonIdentical({}, null)).toBe(false);
    expect(jsonIdentical([[1], { a: [2], b: null }], [[1], { a: [2], b: null }])).toBe(true);
    expect(jsonIdentical({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false);
  });

  test("pairs members as JSON.parse orders them: index-like names first, and a member named __proto__", () => {
    // Both parse to the order 1, 2, b, which JSON.stringify writes alike.
    expect(jsonIdentical(JSON.parse('{"b":1,"2":0,"1":0}'), JSON.parse('{"1":0,"2":0,"b":1}'))).toBe(true);
    expect(jsonIdentical(JSON.parse('{"b":1,"a":0}'), JSON.parse('{"a":0,"b":1}'))).toBe(false);
    const proto = (value: number) => JSON.parse(`{"__proto__":{"a":${value}},"x":1}`);
    expect(jsonIdentical(proto(1), proto(1))).toBe(true);
    expect(jsonIdentical(proto(1), proto(2))).toBe(false);
    expect(jsonIdentical(proto(1), JSON.parse('{"x":1}'))).toBe(false);
  });
});
