import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indexedOracle, matchesQuery, runOracle } from "../../src/model/oracle.ts";
import { PerArray } from "../../src/model/oracle-index.ts";
import {
  type EpcisEvent,
  type EventQuery,
  LIST_PARAMETERS,
  QUERY_PARAMETERS,
} from "../../src/model/types.ts";
import {
  bizStepArb,
  classArb,
  epcArb,
  eventArb,
  eventsArb,
  idsOf,
  locationArb,
  type Pool,
  parameterArbs,
  poolArb,
  queryArb,
  timeArb,
} from "./arbitraries.ts";

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
/** The ids the definition selects, which runOracle must answer too (from its index after the first query). */
const ids = (q: EventQuery) => {
  const selected = idsOf(events.filter((e) => matchesQuery(e, q)));
  expect(idsOf(runOracle(events, q))).toEqual(selected);
  return selected;
};

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

  it("matchesQuery, asked alone, refuses an unreadable bound as parseInstant does, for an event with the field", () => {
    for (const bound of ["LT_eventTime", "GE_eventTime"]) {
      expect(() => matchesQuery(shipping, { [bound]: "2024-05-01" })).toThrow(RangeError);
      // A readable bound read once is read the same the next time.
      expect(matchesQuery(shipping, { [bound]: "2024-05-01T08:00:00.5Z" })).toBe(bound === "GE_eventTime");
      expect(matchesQuery(shipping, { [bound]: "2024-05-01T08:00:00.5Z" })).toBe(bound === "GE_eventTime");
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

// Values beyond those of arbitraries.ts, where the oracle's index could part from its definition: company
// patterns (one with a prefix too short to be one), classes without a GTIN, an SSCC or a serialised EPC written
// as a class, bizSteps outside the three forms, unreadable times, a location with an extension.
const oddClassArb = (p: Pool): fc.Arbitrary<string> =>
  fc.oneof(
    classArb(p),
    fc.constantFrom(...p.gtins).map((g) => `urn:epc:idpat:sgtin:${g.slice(1, 1 + p.cpLength)}.*.*`),
    fc.constantFrom(...p.gtins).map((g) => `urn:epc:idpat:sgtin:${g.slice(1, 6)}.*.*`),
    fc.constantFrom(...p.ssccs).map((s) => `${DL}/00/${s}`),
    epcArb(p),
    fc.constantFrom("urn:example:class:A", " urn:example:class:A", "urn:epc:idpat:sgtin:0614141.*.*"),
  );
const oddBizStepArb = fc.oneof(
  bizStepArb,
  fc.constantFrom("urn:epcglobal:cbv:bizstep:Ship-1", "https://ref.gs1.org/cbv/BizStep-a b", "urn:x:step"),
);
const oddTimeArb = (p: Pool) => fc.oneof(timeArb(p), fc.constantFrom("yesterday", "2024-05-01T10:00:00"));
const oddLocationArb = (p: Pool) =>
  fc.oneof(
    locationArb(p),
    fc.constantFrom(...p.glns).map((g) => `${DL}/414/${g}/254/1`),
    fc.constant("urn:x:place"),
  );
const quantitiesArb = (p: Pool) =>
  fc.array(
    oddClassArb(p).map((epcClass) => ({ epcClass })),
    { maxLength: 3 },
  );

const oddEventArb = (p: Pool): fc.Arbitrary<EpcisEvent> =>
  fc.record(
    {
      type: fc.constant("AggregationEvent"),
      eventTime: oddTimeArb(p),
      recordTime: oddTimeArb(p),
      bizStep: oddBizStepArb,
      parentID: epcArb(p),
      childEPCs: fc.array(epcArb(p), { maxLength: 2 }),
      inputEPCList: fc.array(epcArb(p), { maxLength: 2 }),
      childQuantityList: quantitiesArb(p),
      outputQuantityList: quantitiesArb(p),
      transformationID: fc.constantFrom("urn:uuid:t-1", "T-1"),
      bizLocation: oddLocationArb(p).map((id) => ({ id })),
    },
    { requiredKeys: ["type"] },
  );

const mixedEventsArb = (p: Pool) =>
  fc
    .array(fc.oneof(eventArb(p), oddEventArb(p)), { minLength: 3, maxLength: 14 })
    .map((events) => events.map((e, k) => ({ ...e, eventID: `urn:uuid:event-${k}` })));

const values = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { minLength: 1, maxLength: 3 });
// One to three parameters, so that most queries select some events but not all.
const oddQueryArb = (p: Pool): fc.Arbitrary<EventQuery> => {
  const parameters = parameterArbs(timeArb(p), values, {
    epc: epcArb(p),
    epcClass: oddClassArb(p),
    bizStep: oddBizStepArb,
    location: oddLocationArb(p),
  });
  return fc
    .shuffledSubarray([...QUERY_PARAMETERS], { minLength: 1, maxLength: 3 })
    .chain((chosen) => fc.record(Object.fromEntries(chosen.map((k) => [k, parameters[k]]))))
    .map((q) => q as EventQuery);
};

const indexCaseArb = poolArb.chain((pool) =>
  fc.record({
    events: mixedEventsArb(pool),
    queries: fc.array(
      fc.oneof({ weight: 4, arbitrary: oddQueryArb(pool) }, { weight: 1, arbitrary: queryArb(pool) }),
      { minLength: 1, maxLength: 4 },
    ),
  }),
);

/** The same event objects, in the same order. */
function expectSameEvents(actual: readonly EpcisEvent[] | undefined, expected: readonly EpcisEvent[]): void {
  expect(actual).toBeDefined();
  expect(idsOf(actual ?? [])).toEqual(idsOf(expected));
  expect(actual?.every((e, k) => e === expected[k])).toBe(true);
}

describe("the oracle's index answers as its definition does", () => {
  it("for every query, and for several queries over one array", () => {
    fc.assert(
      fc.property(indexCaseArb, ({ events, queries }) => {
        for (const q of queries) {
          expectSameEvents(
            indexedOracle(events, q),
            events.filter((e) => matchesQuery(e, q)),
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it("through runOracle: the first query of an array is filtered, the later ones answered from the index", () => {
    fc.assert(
      fc.property(indexCaseArb, ({ events, queries }) => {
        for (const q of [...queries, ...queries]) {
          expectSameEvents(
            runOracle(events, q),
            events.filter((e) => matchesQuery(e, q)),
          );
        }
      }),
    );
  });

  it("builds an array's index on its second query, once while its elements stay the same", () => {
    const built: unknown[][] = [];
    const perArray = new PerArray((items) => {
      built.push([...items]);
      return items.length;
    });
    const items = [1, 2, 3];
    expect(perArray.get(items)).toBeUndefined();
    expect(built).toEqual([]);
    expect(perArray.get(items)).toBe(3);
    expect(perArray.get(items)).toBe(3);
    expect(perArray.now(items)).toBe(3);
    expect(built).toEqual([[1, 2, 3]]);
    items[0] = 9;
    expect(perArray.get(items)).toBe(3);
    items.push(4);
    expect(perArray.get(items)).toBe(4);
    items.pop();
    expect(perArray.get(items)).toBe(3);
    expect(built).toEqual([
      [1, 2, 3],
      [9, 2, 3],
      [9, 2, 3, 4],
      [9, 2, 3],
    ]);
    expect(perArray.now([5])).toBe(1);
    expect(perArray.get([])).toBeUndefined();
  });

  it("follows an array whose elements change between queries", () => {
    const changing = [shipping, aggregation];
    const q: EventQuery = { GE_eventTime: "2000-01-01T00:00:00Z" };
    expectSameEvents(indexedOracle(changing, q), [shipping, aggregation]);
    changing.push(transformation, { ...shipping, eventID: "urn:uuid:later" });
    expect(idsOf(indexedOracle(changing, q) ?? [])).toEqual([
      "urn:uuid:ship",
      "urn:uuid:agg",
      "urn:uuid:later",
    ]);
    changing[1] = { ...aggregation, eventID: "urn:uuid:other" };
    expect(idsOf(indexedOracle(changing, q) ?? [])).toEqual([
      "urn:uuid:ship",
      "urn:uuid:other",
      "urn:uuid:later",
    ]);
    changing.pop();
    expect(idsOf(indexedOracle(changing, q) ?? [])).toEqual(["urn:uuid:ship", "urn:uuid:other"]);
  });

  it("selects within time bounds to the exact digit, across offsets", () => {
    const at = (eventID: string, eventTime: string): EpcisEvent => ({
      type: "ObjectEvent",
      eventID,
      eventTime,
    });
    const timed = [
      at("a", "2024-05-01T10:00:00.0000005+02:00"),
      at("b", "2024-05-01T08:00:00.000000499Z"),
      at("c", "2024-05-01T08:00:00Z"),
      at("d", "2024-05-01T08:00:00.0000005000Z"),
    ];
    const ids = (q: EventQuery) => idsOf(indexedOracle(timed, q) ?? []);
    expect(ids({ GE_eventTime: "2024-05-01T08:00:00.0000005Z" })).toEqual(["a", "d"]);
    expect(ids({ LT_eventTime: "2024-05-01T08:00:00.0000005Z" })).toEqual(["b", "c"]);
    expect(
      ids({
        GE_eventTime: "2024-05-01T08:00:00.0000004989Z",
        LT_eventTime: "2024-05-01T10:00:00.0000005+02:00",
      }),
    ).toEqual(["b"]);
    expect(ids({ GE_eventTime: "2024-05-01T08:00:01Z", LT_eventTime: "2024-05-01T08:00:00Z" })).toEqual([]);
  });

  it("selects by company pattern, GTIN and class exactly", () => {
    const q = (value: string) => idsOf(indexedOracle(events, { MATCH_anyEPCClass: [value] }) ?? []);
    expect(q("urn:epc:idpat:sgtin:4012345.*.*")).toEqual(["urn:uuid:agg", "urn:uuid:tr"]);
    expect(q("urn:epc:idpat:sgtin:40123.*.*")).toEqual([]);
    expect(q(`${DL}/01/04012345123456`)).toEqual(["urn:uuid:agg"]);
    expect(q("urn:epc:class:lgtin:4012345.098765.L1")).toEqual(["urn:uuid:tr"]);
    expect(q(`${DL}/01/04012345987652/10/L2`)).toEqual([]);
  });

  it("leaves to the definition what it cannot answer, which then throws or not as the definition does", () => {
    const broken = { type: "ObjectEvent", eventID: "urn:uuid:broken", epcList: 5 } as unknown as EpcisEvent;
    const mixed = [shipping, broken];
    const epc: EventQuery = { MATCH_anyEPC: ["urn:epc:id:sgtin:0614141.812345.6789"] };
    const timedEpc: EventQuery = { ...epc, GE_eventTime: "2000-01-01T00:00:00Z" };
    expect(indexedOracle(mixed, epc)).toBeUndefined();
    for (let k = 0; k < 2; k++) {
      expect(() => runOracle(mixed, epc)).toThrow(TypeError);
      expect(idsOf(runOracle(mixed, timedEpc))).toEqual(["urn:uuid:ship"]);
    }

    const numbered = {
      type: "ObjectEvent",
      eventID: "urn:uuid:n",
      transformationID: 5,
    } as unknown as EpcisEvent;
    const byNumber = { EQ_transformationID: ["urn:uuid:t-1", 5] } as unknown as EventQuery;
    expect(indexedOracle([numbered], byNumber)).toBeUndefined();
    expect(
      indexedOracle([numbered], { EQ_transformationID: "urn:uuid:n" } as unknown as EventQuery),
    ).toBeUndefined();
    for (let k = 0; k < 2; k++) expect(idsOf(runOracle([numbered], byNumber))).toEqual(["urn:uuid:n"]);

    for (const missing of [null, undefined]) {
      const holes = [shipping, missing] as unknown as EpcisEvent[];
      expect(indexedOracle(holes, {})).toBeUndefined();
      for (let k = 0; k < 2; k++) expect(() => runOracle(holes, {})).toThrow(TypeError);
    }
  });
});
