// Each GET /events fault of the reference sender changes the behaviour it names: the same request to a sender with
// the fault and to one without gives the stated difference.
import type { ValidateFunction } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import type { Dataset, EpcisEvent } from "../../src/model/index.ts";
import { EVENTS_FAULTS, type EventsFaultId } from "../../src/reference/events/index.ts";
import { startReference } from "../../src/reference/index.ts";
import type { ReferenceConfig } from "../../src/reference/types.ts";
import {
  type Answer,
  allPages,
  epcisValidator,
  eventsOf,
  getEvents,
  getUrl,
  idsOf,
  nextLink,
} from "./events-answers.ts";
import { DL, fixtureDataset, fixtureEvents, IDS, LOAD_START } from "./events-fixture.ts";

const enc = encodeURIComponent;
const loaded = fixtureEvents();
/** The eventIDs of fixture events by position (0-based). */
const E = (...at: number[]): string[] => at.map((i) => loaded[i]?.eventID as string);
const ALL = E(0, 1, 2, 3, 4, 5, 6, 7);

// Batches of three share a recordTime: events 3, 4 and 5 were recorded at this instant.
const SECOND_BATCH = "2024-06-01T00:00:00.000250Z";

interface Sender {
  base: string;
}

interface Case {
  fault: EventsFaultId;
  query: string;
  config?: Partial<ReferenceConfig>;
  dataset?: () => Dataset;
  /** Asserts the fault-free answer and the faulty one differ as the fault says. */
  check(faulty: Answer, clean: Answer, senders: { faulty: Sender; clean: Sender }): void | Promise<void>;
}

function ids(a: Answer): string[] {
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  return idsOf(eventsOf(a.body));
}

/** A case whose only effect is on which events are selected. */
function selects(fault: EventsFaultId, query: string, clean: string[], faulty: string[]): Case {
  return {
    fault,
    query,
    check: (f, c) => {
      expect(ids(c)).toEqual(clean);
      expect(ids(f)).toEqual(faulty);
    },
  };
}

/**
 * A case whose effect is on the product owner of every event: `faultyOwner` holds of each event the faulty sender
 * serves, the clean sender serves the owner as loaded, and both leave the information provider as loaded.
 */
function changesOwner(fault: EventsFaultId, faultyOwner: (e: EpcisEvent) => boolean): Case {
  return {
    fault,
    query: "",
    check: (f, c) => {
      // Every event is served, so that the checks below are about all of them and not about an empty list.
      expect(eventsOf(c.body).length).toBeGreaterThan(0);
      expect(eventsOf(f.body)).toHaveLength(eventsOf(c.body).length);
      expect(eventsOf(c.body).every((e) => e["gdst:productOwner"] === IDS.owner)).toBe(true);
      expect(eventsOf(f.body).every(faultyOwner)).toBe(true);
      expect(eventsOf(f.body).every((e) => e["cbvmda:informationProvider"] === IDS.owner)).toBe(true);
    },
  };
}

function served(a: Answer, at: number): EpcisEvent {
  const e = eventsOf(a.body).find((x) => x.eventID === loaded[at]?.eventID);
  if (e === undefined) throw new Error(`event ${at} not in the answer`);
  return e;
}

function ilmd(e: EpcisEvent): Record<string, unknown> {
  return e.ilmd as Record<string, unknown>;
}

function vesselFlag(e: EpcisEvent): unknown {
  const list = ilmd(e)["cbvmda:vesselCatchInformationList"] as Record<
    string,
    { "cbvmda:vesselFlagState": string }[]
  >;
  return list["cbvmda:vesselCatchInformation"]?.[0]?.["cbvmda:vesselFlagState"];
}

function tripled(): Dataset {
  const events = [0, 1, 2].flatMap((copy) =>
    fixtureEvents().map((e) => ({ ...e, eventID: `${e.eventID}-${copy}` })),
  );
  return { events, masterData: [] };
}

let validate: ValidateFunction;
beforeAll(async () => {
  validate = await epcisValidator();
});

const CASES: Case[] = [
  selects("lt-record-inclusive", `LT_recordTime=${enc(SECOND_BATCH)}`, E(0, 1, 2), E(0, 1, 2, 3, 4, 5)),
  selects("ge-record-exclusive", `GE_recordTime=${enc(SECOND_BATCH)}`, E(3, 4, 5, 6, 7), E(6, 7)),
  selects("lt-event-inclusive", `LT_eventTime=${enc("2024-03-01T10:00:00Z")}`, [], E(1, 2)),
  selects("ge-event-exclusive", `GE_eventTime=${enc("2024-03-01T10:00:00Z")}`, ALL, E(0, 3, 4, 5, 6, 7)),
  selects(
    "time-millisecond-truncation",
    `GE_eventTime=${enc("2024-03-01T10:00:00.0001Z")}`,
    E(0, 3, 4, 5, 6, 7),
    ALL,
  ),
  selects(
    "time-ignores-offset",
    `GE_eventTime=${enc("2024-03-01T12:00:00Z")}`,
    E(3, 4, 5, 6, 7),
    E(1, 3, 4, 5, 6, 7),
  ),
  selects("epc-ignores-epclist", `MATCH_anyEPC=${enc(IDS.itemA1)}`, E(0, 1, 4), E(4)),
  selects("epc-ignores-childepcs", `MATCH_anyEPC=${enc(IDS.itemA2)}`, E(0, 3, 5), E(0)),
  selects("epc-ignores-parentid", `MATCH_anyEPC=${enc(IDS.pallet)}`, E(3, 5), []),
  selects("epc-ignores-input", `MATCH_anyEPC=${enc(IDS.itemA1)}`, E(0, 1, 4), E(0, 1)),
  selects("epc-ignores-output", `MATCH_anyEPC=${enc(IDS.itemB1)}`, E(4, 7), E(7)),
  selects("epc-urn-only", `MATCH_anyEPC=${enc(DL.itemA1)}`, E(0, 1, 4), E(1)),
  selects("class-ignores-quantitylist", `MATCH_anyEPCClass=${enc(IDS.lot1)}`, E(2, 3), E(3)),
  selects("class-ignores-child", `MATCH_anyEPCClass=${enc(IDS.lot1)}`, E(2, 3), E(2)),
  selects("class-ignores-input", `MATCH_anyEPCClass=${enc(IDS.lot3)}`, E(4, 6), E(4)),
  selects("class-ignores-output", `MATCH_anyEPCClass=${enc(IDS.lot3)}`, E(4, 6), E(6)),
  selects("class-no-patterns", `MATCH_anyEPCClass=${enc(IDS.gtinPattern)}`, E(2, 3, 4), []),
  selects(
    "bizstep-exact-string",
    `EQ_bizStep=${enc("urn:epcglobal:cbv:bizstep:commissioning")}`,
    E(0, 4, 6),
    [],
  ),
  selects("bizstep-ignored", "EQ_bizStep=packing", E(3), ALL),
  selects("transformation-id-ignored", `EQ_transformationID=${enc(IDS.transformation)}`, E(4), ALL),
  selects("bizlocation-ignored", `EQ_bizLocation=${enc(IDS.vessel)}`, E(0, 1), ALL),
  selects("pipe-not-split", `MATCH_anyEPC=${enc(IDS.pallet)}%7C${enc(IDS.itemB1)}`, E(3, 4, 5, 7), []),
  selects("pipe-as-and", "EQ_bizStep=shipping%7Creceiving", E(1, 2), []),
  selects("and-as-or", `EQ_bizStep=packing&EQ_bizLocation=${enc(IDS.vessel)}`, [], E(0, 1, 3)),
  selects("encoding-double-decode", `EQ_transformationID=${enc(IDS.oddTransformation)}`, E(6), []),
  {
    fault: "repeat-last-wins",
    query: "EQ_bizStep=shipping&EQ_bizStep=receiving",
    check: (f, c) => {
      expect(c.status).toBe(400);
      expect(ids(f)).toEqual(E(2));
    },
  },
  {
    fault: "repeat-as-or",
    query: "EQ_bizStep=shipping&EQ_bizStep=receiving",
    check: (f, c) => {
      expect(c.status).toBe(400);
      expect(ids(f)).toEqual(E(1, 2));
    },
  },
  {
    fault: "repeat-as-own-pipe",
    query: "EQ_bizStep=shipping&EQ_bizStep=receiving",
    check: async (f, c, s) => {
      expect(c.status).toBe(400);
      // Answered as its own pipe-joined query, whose values must all match: no event has both steps.
      expect(ids(f)).toEqual([]);
      expect(ids(await getEvents(s.faulty.base, "EQ_bizStep=shipping%7Creceiving"))).toEqual([]);
      expect(ids(await getEvents(s.faulty.base, "EQ_bizStep=receiving"))).toEqual(E(2));
    },
  },
  {
    fault: "narrow-413",
    query: `MATCH_anyEPC=${enc(IDS.itemA1)}`,
    check: (f, c) => {
      expect(ids(c)).toEqual(E(0, 1, 4));
      expect(f.status).toBe(413);
      expect((f.body as { type: string }).type).toBe("epcisException:QueryTooComplexException");
    },
  },
  {
    fault: "paging-drops-last-page",
    query: "",
    config: { pageSize: 3 },
    check: async (_f, _c, s) => {
      expect(idsOf((await allPages(s.clean.base, "")).events)).toEqual(ALL);
      const faulty = await allPages(s.faulty.base, "");
      expect(faulty.pages).toHaveLength(2);
      expect(idsOf(faulty.events)).toEqual(E(0, 1, 2, 3, 4, 5));
    },
  },
  {
    fault: "paging-loop",
    query: "",
    config: { pageSize: 3 },
    check: async (f, _c, s) => {
      expect(nextLink((await allPages(s.clean.base, "")).pages[2] as Answer)).toBeUndefined();
      const faulty = await allPages(s.faulty.base, "", 4);
      const last = faulty.pages[2] as Answer;
      const back = await getUrl(nextLink(last) as string);
      expect(ids(back)).toEqual(ids(f));
      expect(faulty.pages).toHaveLength(4);
    },
  },
  {
    fault: "unfiltered-truncated",
    query: "",
    dataset: tripled,
    check: async (f, c, s) => {
      expect(ids(c)).toHaveLength(24);
      expect(ids(f)).toEqual(ids(c).slice(0, 10));
      expect(nextLink(f)).toBeUndefined();
      expect(ids(await getEvents(s.faulty.base, "EQ_bizStep=packing"))).toHaveLength(3);
    },
  },
  {
    fault: "shape-no-context",
    query: "",
    check: (f, c) => {
      expect(validate(c.body)).toBe(true);
      expect(f.body).not.toHaveProperty("@context");
      expect(validate(f.body)).toBe(false);
    },
  },
  {
    fault: "shape-bad-eventtime",
    query: "",
    check: (f, c) => {
      expect(validate(c.body)).toBe(true);
      expect(served(f, 1).eventTime).toBe("2024-03-01T15:30:00");
      expect(validate(f.body)).toBe(false);
    },
  },
  {
    fault: "content-drops-field",
    query: `MATCH_anyEPC=${enc(IDS.itemA1)}`,
    check: async (f, c, s) => {
      expect(served(c, 0).ilmd).toEqual(loaded[0]?.ilmd);
      expect(served(f, 0)).not.toHaveProperty("ilmd");
      expect(served(await getEvents(s.faulty.base, ""), 0).ilmd).toEqual(loaded[0]?.ilmd);
    },
  },
  {
    fault: "core-shipping-disposition",
    query: "EQ_bizStep=shipping",
    check: (f, c) => {
      expect(served(c, 1).disposition).toBe("https://ref.gs1.org/cbv/Disp-in_transit");
      expect(served(f, 1).disposition).toBe("https://ref.gs1.org/cbv/Disp-active");
    },
  },
  {
    fault: "core-commission-action",
    query: "EQ_bizStep=commissioning",
    check: (f, c) => {
      expect(served(c, 0).action).toBe("ADD");
      expect(served(f, 0).action).toBe("OBSERVE");
      // One defect: the ilmd goes with ADD, since EPCIS allows it on no other ObjectEvent.
      expect(served(c, 0)).toHaveProperty("ilmd");
      expect(served(f, 0)).not.toHaveProperty("ilmd");
      expect(served(f, 4)).not.toHaveProperty("action");
    },
  },
  changesOwner("module-core-owner-empty", (e) => e["gdst:productOwner"] === ""),
  changesOwner("module-seafood-no-owner", (e) => !("gdst:productOwner" in e)),
  {
    fault: "module-seafood-no-lot",
    query: "",
    check: (f, c) => {
      expect(ilmd(served(c, 0))["cbvmda:lotNumber"]).toBe("LOT1");
      expect(ilmd(served(f, 0))).not.toHaveProperty("cbvmda:lotNumber");
      expect(ilmd(served(f, 4))).not.toHaveProperty("cbvmda:lotNumber");
    },
  },
  {
    fault: "module-wildcatch-flag",
    query: "",
    check: (f, c) => {
      expect(vesselFlag(served(c, 0))).toBe("US");
      expect(vesselFlag(served(f, 0))).toBe("us");
    },
  },
  {
    fault: "module-aquaculture-no-method",
    query: "",
    check: (f, c) => {
      expect(ilmd(served(c, 4))["gdst:aquacultureMethod"]).toBe("POND");
      expect(ilmd(served(f, 4))).not.toHaveProperty("gdst:aquacultureMethod");
      expect(ilmd(served(f, 4))["gdst:broodstockSource"]).toBe("DOMESTIC");
    },
  },
];

describe("GET /events faults", () => {
  it("every events fault has exactly one case here", () => {
    expect(CASES.map((c) => c.fault).sort()).toEqual(EVENTS_FAULTS.map((f) => f.id).sort());
  });

  for (const c of CASES) {
    it(`${c.fault}: ${EVENTS_FAULTS.find((f) => f.id === c.fault)?.description}`, async () => {
      const dataset = c.dataset?.() ?? fixtureDataset();
      const common = { dataset, store: { loadStart: LOAD_START }, ...(c.config ? { config: c.config } : {}) };
      const clean = await startReference(common);
      const faulty = await startReference({ ...common, faults: [c.fault] });
      try {
        const [f, cl] = [
          await getEvents(faulty.eventsBase, c.query),
          await getEvents(clean.eventsBase, c.query),
        ];
        await c.check(f, cl, { faulty: { base: faulty.eventsBase }, clean: { base: clean.eventsBase } });
      } finally {
        await Promise.all([clean.close(), faulty.close()]);
      }
    });
  }
});
