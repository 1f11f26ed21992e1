import fc from "fast-check";
import { describe, expect, it, test } from "vitest";
import {
  loadedContentProblem,
  loadedDifferences,
  loadedExtensionProblem,
  ServedEvents,
  servedContentProblem,
  servedDifferences,
  storedForms,
  timeAgreement,
} from "../../src/assertions/event-content.ts";
import { canonicalJson, eventIdentity } from "../../src/model/index.ts";
import { jsonEqual, jsonIdentical } from "../../src/model/json-equal.ts";
import type { EpcisEvent } from "../../src/model/types.ts";

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

  it("counts recordTime and the written form of a value but a time's: a served copy must not change", () => {
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

  it("accepts business transaction, source and destination types in another CBV form", () => {
    const typed = (btt: string, sdt: string): EpcisEvent => ({
      ...loaded,
      bizTransactionList: [{ type: btt, bizTransaction: "urn:epcglobal:cbv:bt:0614141000005:PO-1" }],
      sourceList: [{ type: sdt, source: "urn:epc:id:pgln:0614141.00001" }],
      destinationList: [{ type: sdt, destination: "urn:epc:id:pgln:0614141.00002" }],
    });
    const asLoaded = typed("urn:epcglobal:cbv:btt:po", "urn:epcglobal:cbv:sdt:owning_party");
    const bare = { ...typed("po", "owning_party"), recordTime: served.recordTime };
    const web = {
      ...typed("https://ref.gs1.org/cbv/BTT-po", "https://ref.gs1.org/cbv/SDT-owning_party"),
      recordTime: served.recordTime,
    };
    expect(loadedContentProblem(asLoaded, bare)).toBeUndefined();
    expect(loadedContentProblem(asLoaded, web)).toBeUndefined();
    expect(loadedContentProblem(asLoaded, typed("inv", "owning_party"))?.reason).toContain(
      "bizTransactionList changed",
    );
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

  it("takes an eventID the sender gave an event loaded without one for no other content, but not a dropped one", () => {
    const { eventID, ...anonymous } = loaded;
    expect(loadedContentProblem(anonymous as EpcisEvent, served)).toBeUndefined();
    const { eventID: _, ...servedAnonymous } = served;
    expect(loadedContentProblem(loaded, servedAnonymous as EpcisEvent)?.reason).toContain("eventID missing");
    expect(eventID).toBe(served.eventID);
  });
});

describe("ServedEvents", () => {
  const { eventID: _, ...anonymous } = loaded;
  const loadedWithoutId = anonymous as EpcisEvent;
  const other: EpcisEvent = { ...served, eventID: "urn:uuid:other", action: "OBSERVE" };

  it("finds a loaded event by its eventID, and one without by its hash", () => {
    expect(new ServedEvents([other, served]).copyOf(loaded)).toBe(served);
    const servedWithoutId = { ...loadedWithoutId, recordTime: served.recordTime };
    expect(new ServedEvents([other, servedWithoutId]).copyOf(loadedWithoutId)).toBe(servedWithoutId);
    expect(new ServedEvents([other]).copyOf(loaded)).toBeUndefined();
  });

  it("finds an event loaded without eventID served with one of the sender's own, and only that event", () => {
    const own: EpcisEvent = { ...served, eventID: "urn:uuid:given-by-the-sender" };
    expect(new ServedEvents([other, own]).copyOf(loadedWithoutId)).toBe(own);
    // Written another legitimate way besides: the identifier in its Digital Link form.
    const dl: EpcisEvent = { ...own, epcList: ["https://id.gs1.org/01/10614141073464/21/2017"] };
    expect(new ServedEvents([dl]).copyOf(loadedWithoutId)).toBe(dl);
    // Another event with an eventID of its own is not it; nor is an event loaded with another eventID.
    expect(new ServedEvents([other]).copyOf(loadedWithoutId)).toBeUndefined();
    expect(new ServedEvents([own]).copyOf(loaded)).toBeUndefined();
  });

  it("finds an event loaded without eventID served cut to the millisecond with an eventID of the sender's own", () => {
    const fine = { ...loadedWithoutId, eventTime: "2024-03-01T12:00:00.123456789+02:00" };
    const own: EpcisEvent = { ...served, eventID: "urn:uuid:own", eventTime: "2024-03-01T10:00:00.123Z" };
    expect(new ServedEvents([own]).copyOf(fine)).toBe(own);
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

// The spec states no precision for times: a store that keeps milliseconds serves a nanosecond time cut to the
// millisecond, which warns (EVT-SHAPE-PRECISION); times a millisecond or more apart are other content.
describe("times compared at the millisecond", () => {
  const fine = "2024-03-01T12:00:00.123456789+02:00";

  it("tells one instant, two less than a millisecond apart, and two further apart", () => {
    expect(timeAgreement(fine, "2024-03-01T10:00:00.123456789Z")).toBe("same");
    expect(timeAgreement("2024-03-01T10:00:00Z", "2024-03-01T10:00:00.000+00:00")).toBe("same");
    expect(timeAgreement(fine, "2024-03-01T12:00:00.123+02:00")).toBe("finer");
    // Rounded rather than cut: still less than a millisecond apart.
    expect(timeAgreement(fine, "2024-03-01T10:00:00.124Z")).toBe("finer");
    expect(timeAgreement("2024-03-01T10:00:00.1239Z", "2024-03-01T10:00:00.1231Z")).toBe("finer");
    expect(timeAgreement("2024-03-01T10:00:00.1245Z", "2024-03-01T10:00:00.1235Z")).toBe("other");
    expect(timeAgreement(fine, "2024-03-01T12:00:00.122+02:00")).toBe("other");
    expect(timeAgreement(fine, "2024-03-01T12:00:00.123456789")).toBe("other");
  });

  it("sets a served time cut below the millisecond apart from the content, and fails one a millisecond off", () => {
    const earlier: EpcisEvent = { ...served, eventTime: fine, recordTime: "2024-03-01T10:00:01.000250Z" };
    const cut: EpcisEvent = {
      ...earlier,
      eventTime: "2024-03-01T12:00:00.123+02:00",
      recordTime: "2024-03-01T10:00:01Z",
    };
    const found = servedDifferences(earlier, cut);
    expect(found?.content).toBeUndefined();
    expect(found?.precision?.evidence.message).toBe(
      "fields that differ: eventTime differs below the millisecond, recordTime differs below the millisecond",
    );
    expect(servedContentProblem(earlier, cut)).toBeUndefined();
    const off = servedDifferences(earlier, { ...cut, eventTime: "2024-03-01T12:00:00.122+02:00" });
    expect(off?.content?.reason).toContain("eventTime changed");
    // One defect, one report: the copy's other content differs, so its cut recordTime is not a second finding.
    expect(off?.precision).toBeUndefined();
  });

  it("takes one instant written at another offset for the same time in two answers", () => {
    const utc: EpcisEvent = { ...served, eventTime: "2024-03-01T10:00:00.5Z" };
    expect(servedDifferences(served, utc)).toBeUndefined();
  });

  it("sets a loaded time served cut to the millisecond apart from the content, and fails one a millisecond off", () => {
    const finer: EpcisEvent = { ...loaded, eventTime: fine };
    const found = loadedDifferences(finer, { ...served, eventTime: "2024-03-01T10:00:00.123Z" });
    expect(found?.content).toBeUndefined();
    expect(found?.extensions).toBeUndefined();
    expect(found?.precision?.reason).toContain("eventTime differs below the millisecond");
    expect(loadedContentProblem(finer, { ...served, eventTime: "2024-03-01T10:00:00.123Z" })).toBeUndefined();
    const off = loadedDifferences(finer, { ...served, eventTime: "2024-03-01T10:00:00.125Z" });
    expect(off?.content?.reason).toContain("eventTime changed");
    expect(off?.precision).toBeUndefined();
  });

  it("writes an event as a millisecond store holds it, which is how an event without eventID is found", () => {
    const { eventID: _, ...anonymous } = { ...loaded, eventTime: fine };
    const forms = storedForms(anonymous as EpcisEvent);
    expect(forms[0]).toBe(anonymous);
    expect(forms.map((f) => f.eventTime)).toContain("2024-03-01T12:00:00.123+02:00");
    const stored = {
      ...anonymous,
      eventTime: "2024-03-01T10:00:00.123Z",
      recordTime: "2024-03-01T10:00:01Z",
    };
    expect(eventIdentity(stored as EpcisEvent)).not.toBe(eventIdentity(anonymous as EpcisEvent));
    expect(forms.map(eventIdentity)).toContain(eventIdentity(stored as EpcisEvent));
    // An event with an eventID is known by it; one without finer digits has no other form.
    expect(storedForms(loaded)).toEqual([loaded]);
    const { eventID: __, ...plain } = loaded;
    expect(storedForms(plain as EpcisEvent)).toEqual([plain]);
  });

  it("writes it as a store keeping 3 to 8 digits holds it, cut or rounded, and never a millisecond off", () => {
    const { eventID: _, ...anonymous } = { ...loaded, eventTime: "2024-03-01T23:59:59.999999999+02:00" };
    const times = storedForms(anonymous as EpcisEvent).map((f) => f.eventTime);
    for (const digits of [3, 4, 5, 6, 7, 8]) {
      expect(times, `cut to ${digits}`).toContain(`2024-03-01T23:59:59.${"9".repeat(digits)}+02:00`);
    }
    // Rounded, the time carries into the next second (and day).
    expect(times).toContain("2024-03-02T00:00:00+02:00");
    const { eventID: __, ...nano } = { ...loaded, eventTime: "2024-03-01T10:00:00.123456789Z" };
    const rounded = storedForms(nano as EpcisEvent).map((f) => f.eventTime);
    // PostgreSQL's microseconds and .NET's ticks, rounded; and cut.
    expect(rounded).toEqual(
      expect.arrayContaining([
        "2024-03-01T10:00:00.123457Z",
        "2024-03-01T10:00:00.1234568Z",
        "2024-03-01T10:00:00.123456Z",
        "2024-03-01T10:00:00.1234567Z",
      ]),
    );
    expect(rounded).not.toContain("2024-03-01T10:00:00.124Z");
    for (const f of storedForms(nano as EpcisEvent).slice(1)) {
      expect(timeAgreement(nano.eventTime, f.eventTime), f.eventTime).toBe("finer");
    }
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
