import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchesQuery, runOracle } from "../../src/model/oracle.ts";
import { type EpcisEvent, type EventQuery, LIST_PARAMETERS } from "../../src/model/types.ts";
import { eventsArb, idsOf, poolArb, queryArb, timeArb } from "./arbitraries.ts";

const DL = "https://id.gs1.org";

const shipping: EpcisEvent = {
  type: "ObjectEvent",
  eventID: "urn:uuid:ship",
  eventTime: "2024-05-01T10:00:00.500+02:00",
  recordTime: "2024-05-01T08:00:01Z",
  bizStep: "urn:epcglobal:cbv:bizstep:shipping",
  epcList: ["urn:epc:id:sgtin:0614141.812345.6789"],
  bizLocation: { id: "urn:epc:id:sgln:0614141.12345.0" },
};
const aggregation: EpcisEvent = {
  type: "AggregationEvent",
  eventID: "urn:uuid:agg",
  eventTime: "2024-05-01T08:00:00.5000001Z",
  bizStep: "packing",
  parentID: `${DL}/00/106141412345678908`,
  childQuantityList: [{ epcClass: "urn:epc:class:lgtin:4012345.012345.998877", quantity: 2 }],
};
const transformation: EpcisEvent = {
  type: "TransformationEvent",
  eventID: "urn:uuid:tr",
  transformationID: "urn:uuid:batch-7",
  inputEPCList: [`${DL}/01/80614141123458/21/6789`],
  outputQuantityList: [{ epcClass: `${DL}/01/04012345987652/10/L1` }],
};
const events = [shipping, aggregation, transformation];
const ids = (q: EventQuery) => idsOf(runOracle(events, q));

describe("runOracle on known events (spec 4.1)", () => {
  it("treats LT_ as strict and GE_ as inclusive on exact instants across offsets", () => {
    expect(ids({ GE_eventTime: "2024-05-01T08:00:00.5Z" })).toEqual(["urn:uuid:ship", "urn:uuid:agg"]);
    expect(ids({ LT_eventTime: "2024-05-01T08:00:00.5Z" })).toEqual([]);
    expect(ids({ LT_eventTime: "2024-05-01T10:00:00.5000001+02:00" })).toEqual(["urn:uuid:ship"]);
    expect(ids({ GE_eventTime: "2024-05-01T08:00:00.50000010Z" })).toEqual(["urn:uuid:agg"]);
    expect(ids({ GE_recordTime: "2000-01-01T00:00:00Z" })).toEqual(["urn:uuid:ship"]);
  });

  it("matches EPCs in any of the five fields and either form", () => {
    expect(ids({ MATCH_anyEPC: [`${DL}/01/80614141123458/21/6789`] })).toEqual([
      "urn:uuid:ship",
      "urn:uuid:tr",
    ]);
    expect(ids({ MATCH_anyEPC: ["urn:epc:id:sscc:0614141.1234567890"] })).toEqual(["urn:uuid:agg"]);
    expect(ids({ MATCH_anyEPC: ["urn:epc:id:sgtin:0614141.812345.6780"] })).toEqual([]);
  });

  it("matches classes, patterns included, in the four quantity lists", () => {
    expect(ids({ MATCH_anyEPCClass: [`${DL}/01/04012345123456/10/998877`] })).toEqual(["urn:uuid:agg"]);
    expect(ids({ MATCH_anyEPCClass: ["urn:epc:idpat:sgtin:4012345.*.*"] })).toEqual([
      "urn:uuid:agg",
      "urn:uuid:tr",
    ]);
    expect(ids({ MATCH_anyEPCClass: ["urn:epc:idpat:sgtin:4012345.098765.*"] })).toEqual(["urn:uuid:tr"]);
  });

  it("compares bizStep in three forms, transformationID exactly and bizLocation canonically", () => {
    expect(ids({ EQ_bizStep: ["shipping", "https://ref.gs1.org/cbv/BizStep-packing"] })).toEqual([
      "urn:uuid:ship",
      "urn:uuid:agg",
    ]);
    expect(ids({ EQ_transformationID: ["urn:uuid:batch-7"] })).toEqual(["urn:uuid:tr"]);
    expect(ids({ EQ_transformationID: ["URN:UUID:batch-7"] })).toEqual([]);
    expect(ids({ EQ_bizLocation: [`${DL}/414/0614141123452`] })).toEqual(["urn:uuid:ship"]);
    expect(ids({ EQ_bizLocation: [`${DL}/414/0614141123452/254/1`] })).toEqual([]);
  });

  it("ANDs parameters, selects nothing for an empty list and everything for an empty query", () => {
    expect(ids({ EQ_bizStep: ["shipping"], MATCH_anyEPC: ["urn:epc:id:sscc:0614141.1234567890"] })).toEqual(
      [],
    );
    expect(ids({ EQ_bizLocation: [] })).toEqual([]);
    expect(ids({})).toEqual(["urn:uuid:ship", "urn:uuid:agg", "urn:uuid:tr"]);
  });

  it("refuses a time bound that is not an instant, even when no event has the field", () => {
    expect(() => runOracle(events, { LT_eventTime: "2024-05-01" })).toThrow(RangeError);
    for (const bound of ["LT_recordTime", "GE_recordTime", "LT_eventTime", "GE_eventTime"]) {
      expect(() => runOracle([], { [bound]: "2024-05-01" })).toThrow(RangeError);
      expect(() => runOracle([{ type: "ObjectEvent" }], { [bound]: "2024-05-01" })).toThrow(RangeError);
    }
  });

  it("lets an event with an unreadable time meet no bound", () => {
    const odd: EpcisEvent = { type: "ObjectEvent", eventID: "urn:uuid:odd", eventTime: "yesterday" };
    expect(idsOf(runOracle([odd], { GE_eventTime: "2000-01-01T00:00:00Z" }))).toEqual([]);
    expect(idsOf(runOracle([odd], { LT_eventTime: "2100-01-01T00:00:00Z" }))).toEqual([]);
    expect(idsOf(runOracle([odd], {}))).toEqual(["urn:uuid:odd"]);
  });

  it("selects an event when any one of its EPCs or classes matches", () => {
    const many: EpcisEvent = {
      type: "ObjectEvent",
      eventID: "urn:uuid:many",
      epcList: [`${DL}/01/80614141123458/21/1`, `${DL}/01/80614141123458/21/2`],
      quantityList: [
        { epcClass: `${DL}/01/04012345123456/10/A` },
        { epcClass: `${DL}/01/04012345123456/10/B` },
      ],
    };
    expect(idsOf(runOracle([many], { MATCH_anyEPC: [`${DL}/01/80614141123458/21/2`] }))).toEqual([
      "urn:uuid:many",
    ]);
    expect(idsOf(runOracle([many], { MATCH_anyEPCClass: [`${DL}/01/04012345123456/10/A`] }))).toEqual([
      "urn:uuid:many",
    ]);
  });

  it("skips a quantity element that has no class", () => {
    const partial = {
      type: "ObjectEvent",
      eventID: "urn:uuid:partial",
      quantityList: [{ quantity: 1 }, { epcClass: `${DL}/01/04012345123456/10/A` }],
    } as EpcisEvent;
    expect(idsOf(runOracle([partial], { MATCH_anyEPCClass: [`${DL}/01/04012345123456`] }))).toEqual([
      "urn:uuid:partial",
    ]);
    expect(idsOf(runOracle([partial], { MATCH_anyEPCClass: ["urn:epc:idpat:sgtin:0614141.*.*"] }))).toEqual(
      [],
    );
  });
});

const caseArb = poolArb.chain((pool) =>
  fc.record({ pool: fc.constant(pool), events: eventsArb(pool), query: queryArb(pool), t: timeArb(pool) }),
);

describe("oracle relations", () => {
  it("GE t and LT t partition the events that have the field", () => {
    fc.assert(
      fc.property(caseArb, ({ events, t }) => {
        for (const [ge, lt, field] of [
          ["GE_eventTime", "LT_eventTime", "eventTime"],
          ["GE_recordTime", "LT_recordTime", "recordTime"],
        ] as const) {
          const above = idsOf(runOracle(events, { [ge]: t }));
          const below = idsOf(runOracle(events, { [lt]: t }));
          expect(above.filter((id) => below.includes(id))).toEqual([]);
          expect([...above, ...below].sort()).toEqual(
            idsOf(events.filter((e) => e[field] !== undefined)).sort(),
          );
        }
      }),
    );
  });

  it("A|B selects the union of A and B", () => {
    fc.assert(
      fc.property(
        caseArb.chain((c) => fc.tuple(fc.constant(c), queryArb(c.pool))),
        ([{ events, query }, other]) => {
          for (const key of LIST_PARAMETERS) {
            const a = query[key] ?? [];
            const b = other[key] ?? [];
            const union = new Set(idsOf(runOracle(events, { [key]: [...a, ...b] })));
            const separate = new Set([
              ...idsOf(runOracle(events, { [key]: a })),
              ...idsOf(runOracle(events, { [key]: b })),
            ]);
            expect(union).toEqual(separate);
          }
        },
      ),
    );
  });

  it("adding a parameter never adds events", () => {
    fc.assert(
      fc.property(caseArb, fc.nat(), ({ events, query }, pick) => {
        const keys = Object.keys(query) as (keyof EventQuery)[];
        if (keys.length === 0) return;
        const dropped = keys[pick % keys.length] as keyof EventQuery;
        const { [dropped]: _removed, ...fewer } = query;
        const narrow = idsOf(runOracle(events, query));
        const wide = idsOf(runOracle(events, fewer));
        expect(narrow.every((id) => wide.includes(id))).toBe(true);
      }),
    );
  });

  it("the empty query selects every event, in order, and matchesQuery agrees with runOracle", () => {
    fc.assert(
      fc.property(caseArb, ({ events, query }) => {
        expect(runOracle(events, {})).toEqual(events);
        expect(runOracle(events, query)).toEqual(events.filter((e) => matchesQuery(e, query)));
      }),
    );
  });
});
