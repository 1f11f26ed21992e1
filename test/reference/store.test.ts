// The indexed store: recordTime on load, the index path held equal to the model's oracle (a separate code path),
// and selective queries that look at few events.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { datasetArbitrary } from "../../src/generate/arbitraries.ts";
import type { EpcisEvent, EventQuery } from "../../src/model/index.ts";
import {
  addUnits,
  bizStepForms,
  compareTimes,
  formatInstant,
  fractionDigitsOf,
  parseInstant,
  runOracle,
} from "../../src/model/index.ts";
import { EVENTS_FAULTS, matchRulesFor } from "../../src/reference/events/index.ts";
import {
  bizStepKey,
  CLASS_LISTS,
  EPC_FIELDS,
  EventStore,
  idKey,
  type MatchRules,
  SPEC_RULES,
} from "../../src/reference/store/index.ts";
import { classesOf, compileQuery, epcsOf } from "../../src/reference/store/matcher.ts";
import { instantOrUndefined } from "../../src/reference/store/time-keys.ts";
import { DL, fixtureEvents, IDS, LOAD_START } from "./events-fixture.ts";

const storeArbitrary = fc
  .record({
    dataset: datasetArbitrary({ maxChains: 3 }),
    batchSize: fc.integer({ min: 1, max: 5 }),
    stepMicros: fc.integer({ min: 1, max: 2000 }),
  })
  .map(
    ({ dataset, batchSize, stepMicros }) =>
      new EventStore(dataset.events, { loadStart: LOAD_START, batchSize, stepMicros }),
  );

const LGTIN = /^urn:epc:class:lgtin:(\d+)\.(\d+)\./;
const NO_MATCH = [
  "urn:epc:id:sgtin:0000000.000000.NONE",
  "https://id.gs1.org/414/0000000000000",
  "urn:x:none",
];

/** Time values around an instant: itself in another offset, and one unit of its own precision either side. */
function around(written: string): string[] {
  const i = parseInstant(written);
  const digits = Math.max(fractionDigitsOf(written), 1);
  return [
    written,
    formatInstant(i, { offset: "-03:00", fractionDigits: digits }),
    formatInstant(addUnits(i, 1n, digits)),
    formatInstant(addUnits(i, -1n, digits), { offset: "+05:30" }),
  ];
}

/** Queries built from the values the events hold, in every spelling that names the same thing. */
function queriesFrom(events: readonly EpcisEvent[]): fc.Arbitrary<EventQuery> {
  const pools = {
    epc: new Set<string>(),
    cls: new Set<string>(),
    step: new Set<string>(),
    tid: new Set<string>(),
  };
  const loc = new Set<string>();
  const times = new Set<string>(["2000-01-01T00:00:00Z", "2099-01-01T00:00:00Z"]);
  for (const e of events) {
    for (const epc of epcsOf(e, EPC_FIELDS)) pools.epc.add(epc).add(idKey(epc));
    for (const c of classesOf(e, CLASS_LISTS)) {
      pools.cls.add(c).add(idKey(c));
      const m = LGTIN.exec(c);
      if (m) pools.cls.add(`urn:epc:idpat:sgtin:${m[1]}.${m[2]}.*`).add(`urn:epc:idpat:sgtin:${m[1]}.*.*`);
    }
    if (typeof e.bizStep === "string") {
      const bare = bizStepKey(e.bizStep);
      pools.step.add(e.bizStep);
      if (/^[a-z_]+$/.test(bare)) for (const form of Object.values(bizStepForms(bare))) pools.step.add(form);
    }
    if (typeof e.transformationID === "string") pools.tid.add(e.transformationID);
    if (typeof e.bizLocation?.id === "string") loc.add(e.bizLocation.id).add(idKey(e.bizLocation.id));
    for (const t of [e.eventTime, e.recordTime])
      if (typeof t === "string") for (const v of around(t)) times.add(v);
  }
  const list = (pool: Set<string>) =>
    fc.uniqueArray(fc.constantFrom(...pool, ...NO_MATCH), { minLength: 1, maxLength: 3 });
  const time = fc.constantFrom(...times);
  const parameters = {
    LT_recordTime: time,
    GE_recordTime: time,
    LT_eventTime: time,
    GE_eventTime: time,
    MATCH_anyEPC: list(pools.epc),
    MATCH_anyEPCClass: list(pools.cls),
    EQ_bizStep: list(pools.step),
    EQ_transformationID: list(pools.tid),
    EQ_bizLocation: list(loc),
  };
  const names = Object.keys(parameters) as (keyof typeof parameters)[];
  return fc
    .shuffledSubarray(names, { minLength: 0, maxLength: 3 })
    .chain((chosen) =>
      fc.record(
        Object.fromEntries(chosen.map((n) => [n, parameters[n]])) as Record<string, fc.Arbitrary<unknown>>,
      ),
    ) as fc.Arbitrary<EventQuery>;
}

/** The same rules applied by looking at every event, with no index. */
function scan(store: EventStore, q: EventQuery, rules: MatchRules): EpcisEvent[] {
  const compiled = compileQuery(q, rules);
  return store.events.filter((event) =>
    compiled.matches({
      event,
      recordTime: parseInstant(event.recordTime as string),
      eventTime: instantOrUndefined(event.eventTime),
    }),
  );
}

describe("recordTime on load", () => {
  it("gives batches one shared recordTime, later batches later ones, sub-millisecond digits included", () => {
    const store = new EventStore(fixtureEvents(), { loadStart: LOAD_START, batchSize: 3, stepMicros: 250 });
    const times = store.events.map((e) => e.recordTime as string);
    expect(times.slice(0, 4)).toEqual([
      "2024-06-01T00:00:00.000000Z",
      "2024-06-01T00:00:00.000000Z",
      "2024-06-01T00:00:00.000000Z",
      "2024-06-01T00:00:00.000250Z",
    ]);
    for (let i = 1; i < times.length; i++) {
      expect(compareTimes(times[i - 1] as string, times[i] as string)).toBe(i % 3 === 0 ? -1 : 0);
    }
    expect(times.every((t) => fractionDigitsOf(t) === 6)).toBe(true);
  });

  it("keeps events as loaded and never changes the caller's objects", () => {
    const input = fixtureEvents();
    const before = structuredClone(input);
    const store = new EventStore(input);
    expect(input).toEqual(before);
    expect(store.events.map(({ recordTime: _, ...rest }) => rest)).toEqual(before);
    expect(store.size).toBe(input.length);
  });

  it("loads in slices exactly as in one go", async () => {
    const whole = new EventStore(fixtureEvents(), { loadStart: LOAD_START, batchSize: 2 });
    const sliced = await EventStore.load(fixtureEvents(), { loadStart: LOAD_START, batchSize: 2 }, 3);
    expect(sliced.events).toEqual(whole.events);
    const q: EventQuery = { GE_eventTime: "2024-03-01T10:00:00Z", MATCH_anyEPC: [IDS.itemA1, IDS.pallet] };
    expect(sliced.query(q)).toEqual(whole.query(q));
  });

  it("refuses a batch size or step that is not a positive whole number", () => {
    expect(() => new EventStore([], { batchSize: 0 })).toThrow(/batchSize/);
    expect(() => new EventStore([], { stepMicros: 1.5 })).toThrow(/stepMicros/);
  });
});

describe("a store that keeps milliseconds", () => {
  const store = new EventStore(fixtureEvents(), { loadStart: LOAD_START, milliseconds: true });
  const byId = (n: number) => store.events.find((e) => e.eventID?.endsWith(`-00000000000${n}`));

  it("cuts the finer digits of an eventTime at its own offset, and leaves one without them as loaded", () => {
    expect(byId(1)?.eventTime).toBe("2024-03-01T10:00:00.000Z");
    expect(byId(5)?.eventTime).toBe("2024-03-03T12:00:00.123Z");
    expect(byId(2)?.eventTime).toBe("2024-03-01T15:30:00+05:30");
    expect(fixtureEvents()[4]?.eventTime).toBe("2024-03-03T12:00:00.123456789Z");
  });

  it("writes recordTimes with three digits, never decreasing", () => {
    const times = store.events.map((e) => e.recordTime as string);
    expect(times.every((t) => fractionDigitsOf(t) === 3)).toBe(true);
    for (let i = 1; i < times.length; i++)
      expect(compareTimes(times[i - 1] as string, times[i] as string)).toBeLessThan(1);
  });

  it("selects by the times it holds", () => {
    const ids = (q: EventQuery) => store.query(q).events.map((e) => e.eventID);
    expect(ids({ GE_eventTime: "2024-03-03T12:00:00.1231Z" })).not.toContain(byId(5)?.eventID);
    expect(ids({ GE_eventTime: "2024-03-03T12:00:00.123Z" })).toContain(byId(5)?.eventID);
  });
});

describe("events captured after the load", () => {
  it("take the instant they are captured at, never one before the last recordTime held", () => {
    const store = new EventStore(fixtureEvents().slice(0, 3), { loadStart: LOAD_START });
    const [late] = fixtureEvents().slice(3, 4);
    const at = parseInstant("2024-06-02T00:00:00.5Z");
    const [captured] = store.insert([late as EpcisEvent], at);
    expect(captured?.recordTime).toBe("2024-06-02T00:00:00.500000Z");
    const [earlier] = store.insert([fixtureEvents()[4] as EpcisEvent], parseInstant("2024-06-01T00:00:00Z"));
    expect(earlier?.recordTime).toBe("2024-06-02T00:00:00.500000Z");
    expect(store.query({ GE_recordTime: "2024-06-02T00:00:00.5Z" }).events).toHaveLength(2);
  });
});

describe("the index path equals the oracle", () => {
  it("on generated datasets and queries drawn from them", () => {
    fc.assert(
      fc.property(
        storeArbitrary.chain((store) => fc.tuple(fc.constant(store), queriesFrom(store.events))),
        ([store, q]) => {
          expect(store.query(q).events).toEqual(runOracle(store.events, q));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("on the hand-built dataset, with patterns, opaque identifiers and every parameter combined", () => {
    const store = new EventStore(fixtureEvents(), { loadStart: LOAD_START });
    fc.assert(
      fc.property(queriesFrom(store.events), (q) => {
        expect(store.query(q).events).toEqual(runOracle(store.events, q));
      }),
      { numRuns: 400 },
    );
  });

  it("keeps serving events without an eventTime, which only eventTime bounds leave out", () => {
    const events = fixtureEvents();
    const { eventTime: _, ...timeless } = events[7] as EpcisEvent;
    const store = new EventStore([...events.slice(0, 7), timeless], { loadStart: LOAD_START });
    for (const q of [
      {},
      { LT_recordTime: "2099-01-01T00:00:00Z" },
      { MATCH_anyEPC: [IDS.opaqueEpc] },
      { GE_eventTime: "2000-01-01T00:00:00Z" },
      { GE_eventTime: "2000-01-01T00:00:00Z", LT_recordTime: "2099-01-01T00:00:00Z" },
    ] as EventQuery[]) {
      expect(store.query(q).events).toEqual(runOracle(store.events, q));
    }
    expect(store.query({ LT_recordTime: "2099-01-01T00:00:00Z" }).events).toHaveLength(8);
    expect(store.query({ GE_eventTime: "2000-01-01T00:00:00Z" }).events).toHaveLength(7);
  });

  it("a list parameter with no values selects nothing and looks at nothing", () => {
    const store = new EventStore(fixtureEvents());
    expect(store.query({ EQ_bizStep: [] })).toEqual({ events: [], examined: 0 });
  });

  it("a malformed time bound throws RangeError", () => {
    const store = new EventStore(fixtureEvents());
    expect(() => store.query({ LT_eventTime: "2024-03-01T10:00:00" })).toThrow(RangeError);
  });
});

describe("the indexes under every fault's rules", () => {
  // A fault changes what matches, never which events the index offers: the index answer equals a full scan.
  const variants: [string, MatchRules][] = [
    ["spec", SPEC_RULES],
    ...EVENTS_FAULTS.map((f): [string, MatchRules] => [f.id, matchRulesFor(new Set([f.id]))]),
  ];
  for (const [name, rules] of variants) {
    it(`${name}: index answer equals a full scan`, () => {
      const store = new EventStore(fixtureEvents(), { loadStart: LOAD_START });
      fc.assert(
        fc.property(queriesFrom(store.events), (q) => {
          expect(store.query(q, rules).events).toEqual(scan(store, q, rules));
        }),
        { numRuns: 60 },
      );
    });
  }
});

describe("selective queries look at few events", () => {
  const store = new EventStore(fixtureEvents(), { loadStart: LOAD_START });

  it("MATCH_anyEPC looks only at the events holding that EPC", () => {
    const a = store.query({ MATCH_anyEPC: [DL.pallet] });
    expect(a.events).toHaveLength(2);
    expect(a.examined).toBe(2);
  });

  it("the most selective parameter is the starting point", () => {
    const a = store.query({ EQ_bizLocation: [IDS.plant], EQ_transformationID: [IDS.transformation] });
    expect(a.events.map((e) => e.eventID)).toEqual([store.events[4]?.eventID]);
    expect(a.examined).toBe(1);
  });

  it("a time window looks only at the events inside it", () => {
    const a = store.query({ GE_eventTime: "2024-03-02T00:00:00Z", LT_eventTime: "2024-03-04T00:00:00Z" });
    expect(a.events).toHaveLength(2);
    expect(a.examined).toBe(2);
    const r = store.query({ GE_recordTime: store.events[3]?.recordTime as string });
    expect(r.examined).toBe(5);
  });

  it("a class pattern starts from the classes of its GTIN", () => {
    const a = store.query({ MATCH_anyEPCClass: [IDS.gtinPattern] });
    expect(a.events).toHaveLength(3);
    expect(a.examined).toBe(3);
  });

  it("the unfiltered query looks at everything once", () => {
    expect(store.query({}).examined).toBe(store.size);
  });
});
