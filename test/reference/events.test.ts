// GET /events of the reference sender against spec 4.1: every parameter, the pipe and repeat rules, the refusals
// (400 and 413 as RFC 7807 problems), paging, and the EPCISQueryDocument shape.
import type { ValidateFunction } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import type { EpcisEvent, EventQuery } from "../../src/model/index.ts";
import { encodeQuery, runOracle } from "../../src/model/index.ts";
import { referenceForTests, withReference } from "../support/reference.ts";
import { allPages, epcisValidator, eventsOf, getEvents, getUrl, idsOf, nextLink } from "./events-answers.ts";
import { DL, fixtureDataset, IDS, LOAD_START } from "./events-fixture.ts";

const ref = referenceForTests({ dataset: fixtureDataset(), store: { loadStart: LOAD_START } });
let stored: EpcisEvent[];
let validate: ValidateFunction;

beforeAll(async () => {
  stored = [...ref().store.events];
  validate = await epcisValidator();
});

const enc = encodeURIComponent;

/** The ids the sender answers for a raw query string, after checking the answer is a 200 query document. */
async function served(query: string): Promise<string[]> {
  const a = await getEvents(ref().eventsBase, query);
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  return idsOf(eventsOf(a.body));
}

function expected(q: EventQuery): string[] {
  return idsOf(runOracle(stored, q));
}

describe("recordTime on load", () => {
  it("is assigned to every event, in batches that share one instant", () => {
    const times = stored.map((e) => e.recordTime);
    expect(times.every((t) => typeof t === "string")).toBe(true);
    expect(times[0]).toBe(times[2]);
    expect(times[2]).not.toBe(times[3]);
  });
});

describe("time bounds (spec 4.1: LT_ strict, GE_ inclusive, exact instants)", () => {
  // Events 2 and 3 happened at 10:00:00Z, written at +05:30 and -03:00; event 1 half a millisecond later.
  const cases: [string, string][] = [
    ["LT_eventTime", "2024-03-01T10:00:00Z"],
    ["GE_eventTime", "2024-03-01T10:00:00Z"],
    ["LT_eventTime", "2024-03-01T12:00:00.0005+02:00"],
    ["GE_eventTime", "2024-03-01T10:00:00.000500000Z"],
    ["GE_eventTime", "2024-03-01T10:00:00.0004999Z"],
    ["LT_eventTime", "2024-03-04T00:00:00.5Z"],
    ["GE_eventTime", "2024-03-03T12:00:00.123456789Z"],
    ["LT_eventTime", "2024-03-03T12:00:00.12345679Z"],
  ];
  for (const [p, t] of cases) {
    it(`${p}=${t} selects what the oracle selects`, async () => {
      expect(await served(`${p}=${enc(t)}`)).toEqual(expected({ [p]: t }));
    });
  }

  it("LT_eventTime excludes and GE_eventTime includes events exactly at the bound, across offsets", async () => {
    const lt = await served(`LT_eventTime=${enc("2024-03-01T10:00:00Z")}`);
    const ge = await served(`GE_eventTime=${enc("2024-03-01T07:00:00-03:00")}`);
    expect(lt).not.toContain(stored[1]?.eventID);
    expect(ge).toEqual(expect.arrayContaining([stored[1]?.eventID, stored[2]?.eventID]));
    expect([...lt, ...ge].sort()).toEqual(idsOf(stored).sort());
  });

  it("recordTime bounds split ties exactly at a batch's shared instant", async () => {
    const bound = stored[3]?.recordTime as string;
    const lt = await served(`LT_recordTime=${enc(bound)}`);
    const ge = await served(`GE_recordTime=${enc(bound)}`);
    expect(lt).toEqual(idsOf(stored.slice(0, 3)));
    expect(ge).toEqual(idsOf(stored.slice(3)));
    expect(
      await served(`GE_recordTime=${enc(bound)}&LT_recordTime=${enc(stored[6]?.recordTime as string)}`),
    ).toEqual(idsOf(stored.slice(3, 6)));
  });
});

describe("MATCH_anyEPC (spec 4.1) in every field and both forms", () => {
  const values = [
    IDS.itemA1,
    DL.itemA1,
    IDS.itemA2,
    DL.pallet,
    IDS.pallet,
    IDS.itemB1,
    DL.itemB1,
    IDS.opaqueEpc,
    "urn:epc:id:sgtin:0614141.812345.NONE",
  ];
  for (const v of values) {
    it(`MATCH_anyEPC=${v}`, async () => {
      const got = await served(`MATCH_anyEPC=${enc(v)}`);
      expect(got).toEqual(expected({ MATCH_anyEPC: [v] }));
    });
  }

  it("finds an EPC in epcList, childEPCs, parentID, inputEPCList and outputEPCList", async () => {
    expect(await served(`MATCH_anyEPC=${enc(IDS.itemA2)}`)).toEqual([
      stored[0]?.eventID,
      stored[3]?.eventID,
      stored[5]?.eventID,
    ]);
    expect(await served(`MATCH_anyEPC=${enc(IDS.pallet)}`)).toEqual([stored[3]?.eventID, stored[5]?.eventID]);
    expect(await served(`MATCH_anyEPC=${enc(IDS.itemA1)}`)).toEqual([
      stored[0]?.eventID,
      stored[1]?.eventID,
      stored[4]?.eventID,
    ]);
    expect(await served(`MATCH_anyEPC=${enc(IDS.itemB1)}`)).toEqual([stored[4]?.eventID, stored[7]?.eventID]);
  });
});

describe("MATCH_anyEPCClass (spec 4.1) in every quantity list, with patterns", () => {
  const values = [IDS.lot1, DL.lot1, IDS.lot2, IDS.lot3, IDS.gtinPattern, IDS.companyPattern, IDS.opaqueEpc];
  for (const v of values) {
    it(`MATCH_anyEPCClass=${v}`, async () => {
      expect(await served(`MATCH_anyEPCClass=${enc(v)}`)).toEqual(expected({ MATCH_anyEPCClass: [v] }));
    });
  }

  it("a GTIN pattern selects every lot of that GTIN, a company pattern every class under the prefix", async () => {
    expect(await served(`MATCH_anyEPCClass=${enc(IDS.gtinPattern)}`)).toEqual(idsOf(stored.slice(2, 5)));
    expect(await served(`MATCH_anyEPCClass=${enc(IDS.companyPattern)}`)).toEqual(
      idsOf([stored[2], stored[3], stored[4], stored[6]] as EpcisEvent[]),
    );
  });
});

describe("EQ_bizStep, EQ_transformationID, EQ_bizLocation (spec 2.1, 4.1)", () => {
  it("the three forms of a bizStep select the same events, whichever form is stored", async () => {
    const forms = [
      "commissioning",
      "urn:epcglobal:cbv:bizstep:commissioning",
      "https://ref.gs1.org/cbv/BizStep-commissioning",
    ];
    const answers = await Promise.all(forms.map((f) => served(`EQ_bizStep=${enc(f)}`)));
    expect(answers[0]).toEqual(idsOf([stored[0], stored[4], stored[6]] as EpcisEvent[]));
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it("mixed forms in one pipe-joined value are alternatives", async () => {
    const got = await served(`EQ_bizStep=${enc("https://ref.gs1.org/cbv/BizStep-shipping")}%7Creceiving`);
    expect(got).toEqual(idsOf(stored.slice(1, 3)));
  });

  it("EQ_transformationID compares the id as a string, including one that needs percent-encoding", async () => {
    expect(await served(`EQ_transformationID=${enc(IDS.transformation)}`)).toEqual([stored[4]?.eventID]);
    expect(await served(`EQ_transformationID=${enc(IDS.oddTransformation)}`)).toEqual([stored[6]?.eventID]);
  });

  it("EQ_bizLocation matches in URN and Digital Link form", async () => {
    const urn = await served(`EQ_bizLocation=${enc(IDS.vessel)}`);
    expect(urn).toEqual(idsOf(stored.slice(0, 2)));
    expect(await served(`EQ_bizLocation=${enc(DL.vessel)}`)).toEqual(urn);
    expect(await served(`EQ_bizLocation=${enc(DL.plant)}`)).toEqual(expected({ EQ_bizLocation: [DL.plant] }));
  });
});

describe("lists and combination (spec 4.1 rules 1-2)", () => {
  it("values joined by %7C and by a raw pipe are alternatives (OR)", async () => {
    const want = expected({ MATCH_anyEPC: [IDS.pallet, IDS.itemB1] });
    expect(await served(`MATCH_anyEPC=${enc(IDS.pallet)}%7C${enc(IDS.itemB1)}`)).toEqual(want);
    expect(await served(`MATCH_anyEPC=${enc(IDS.pallet)}|${enc(IDS.itemB1)}`)).toEqual(want);
    expect(want.length).toBe(4);
  });

  it("different parameters combine as AND", async () => {
    const q: EventQuery = { EQ_bizStep: ["commissioning"], EQ_bizLocation: [IDS.plant] };
    const got = await served(encodeQuery(q));
    expect(got).toEqual(expected(q));
    expect(got).toEqual([stored[4]?.eventID]);
  });

  it("no parameter answers every event", async () => {
    expect(await served("")).toEqual(idsOf(stored));
  });
});

describe("refusals are RFC 7807 problems", () => {
  async function refused(query: string, status: number) {
    const a = await getEvents(ref().eventsBase, query);
    expect(a.status).toBe(status);
    expect(a.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const body = a.body as { type: string; title: string; status: number; detail: string };
    expect(body.status).toBe(status);
    expect(typeof body.title).toBe("string");
    expect(typeof body.detail).toBe("string");
    return body;
  }

  it("a repeated key is refused with 400 QueryParameterException", async () => {
    const body = await refused(`EQ_bizStep=shipping&EQ_bizStep=receiving`, 400);
    expect(body.type).toBe("epcisException:QueryParameterException");
    expect(body.detail).toContain("EQ_bizStep");
  });

  it("an unknown parameter is refused with 400 naming it", async () => {
    const body = await refused(`EQ_eventType=ObjectEvent`, 400);
    expect(body.type).toBe("epcisException:QueryParameterException");
    expect(body.detail).toContain("EQ_eventType");
  });

  for (const bad of ["2024-03-01T10:00:00", "yesterday", "2024-02-30T00:00:00Z"]) {
    it(`a malformed time (${bad}) is refused with 400`, async () => {
      const body = await refused(`GE_eventTime=${enc(bad)}`, 400);
      expect(body.type).toBe("epcisException:QueryParameterException");
      expect(body.detail).toContain("GE_eventTime");
    });
  }

  it("an empty value, an empty pipe alternative, a stray '%' and a bad perPage are refused with 400", async () => {
    for (const q of [
      "EQ_bizStep=",
      "EQ_bizStep=shipping%7C",
      "EQ_transformationID=a%zz",
      "perPage=0",
      "perPage=x",
    ]) {
      const body = await refused(q, 400);
      expect(body.type).toBe("epcisException:QueryParameterException");
    }
  });

  it("an offset whose '+' was sent unencoded is refused with a hint to encode it", async () => {
    const body = await refused("GE_eventTime=2024-03-01T15:30:00+05:30", 400);
    expect(body.detail).toContain("%2B");
    expect(await served(`GE_eventTime=${enc("2024-03-01T15:30:00+05:30")}`)).toEqual(
      expected({ GE_eventTime: "2024-03-01T15:30:00+05:30" }),
    );
  });

  it("a nextPageToken not issued for the query is refused with 400", async () => {
    await refused("nextPageToken=bm9wZQ", 400);
  });
});

describe("413 Query Too Complex (spec 7) under a configured limit", () => {
  const limited = referenceForTests({ dataset: fixtureDataset(), config: { broadLimit: 3 } });

  it("refuses a query without a selective parameter that matches more events than the limit", async () => {
    for (const q of ["", "EQ_bizStep=commissioning%7Cshipping"]) {
      const a = await getEvents(limited().eventsBase, q);
      expect(a.status).toBe(413);
      expect(a.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect((a.body as { type: string }).type).toBe("epcisException:QueryTooComplexException");
    }
  });

  it("answers a broad query under the limit and any selective query", async () => {
    expect((await getEvents(limited().eventsBase, "EQ_bizStep=packing")).status).toBe(200);
    expect((await getEvents(limited().eventsBase, `EQ_bizLocation=${enc(IDS.plant)}`)).status).toBe(200);
    expect(
      (await getEvents(limited().eventsBase, `MATCH_anyEPCClass=${enc(IDS.companyPattern)}`)).status,
    ).toBe(200);
  });
});

describe("paging (EPCIS 2.0 REST style)", () => {
  const paged = referenceForTests({ dataset: fixtureDataset(), config: { pageSize: 3 } });

  it("follows Link rel=next to the end; the pages together equal the unpaged answer", async () => {
    const { pages, events } = await allPages(paged().eventsBase, "");
    expect(pages.map((p) => eventsOf(p.body).length)).toEqual([3, 3, 2]);
    expect(nextLink(pages[2] as (typeof pages)[number])).toBeUndefined();
    expect(idsOf(events)).toEqual(idsOf(paged().store.events));
  });

  it("keeps the filter in the next link and honours the client's perPage", async () => {
    const query = `EQ_bizLocation=${enc(IDS.plant)}&perPage=2`;
    const first = await getEvents(paged().eventsBase, query);
    const link = nextLink(first);
    expect(link).toMatch(
      new RegExp(`^${paged().eventsBase}/events\\?EQ_bizLocation=.*&perPage=2&nextPageToken=`),
    );
    const { events } = await allPages(paged().eventsBase, query);
    expect(idsOf(events)).toEqual(idsOf(runOracle(paged().store.events, { EQ_bizLocation: [IDS.plant] })));
    expect(eventsOf(first.body)).toHaveLength(2);
  });

  it("a token replayed with another filter is refused", async () => {
    const link = nextLink(await getEvents(paged().eventsBase, "")) as string;
    const token = new URL(link).searchParams.get("nextPageToken");
    const a = await getEvents(paged().eventsBase, `EQ_bizStep=packing&nextPageToken=${token}`);
    expect(a.status).toBe(400);
  });

  it("an answer within one page carries no Link", async () => {
    const a = await getUrl(`${paged().eventsBase}/events?EQ_bizStep=packing`);
    expect(a.headers.link).toBeUndefined();
  });
});

describe("the answer document", () => {
  it("is application/ld+json and validates against the published EPCIS 2.0 schema", async () => {
    for (const q of ["", "EQ_bizStep=commissioning", `MATCH_anyEPC=${enc(IDS.opaqueEpc)}`]) {
      const a = await getEvents(ref().eventsBase, q);
      expect(a.headers["content-type"]).toMatch(/^application\/ld\+json/);
      expect(validate(a.body), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it("validates for a generated dataset too, answered as loaded and in Digital Link form", async () => {
    for (const answerInDigitalLink of [false, true]) {
      const dataset = generateDataset({ seed: 5, events: 300 });
      await withReference({ dataset, config: { answerInDigitalLink } }, async (generated) => {
        const a = await getEvents(generated.eventsBase, "");
        expect(eventsOf(a.body)).toHaveLength(300);
        expect(validate(a.body), JSON.stringify(validate.errors)).toBe(true);
      });
    }
  });

  it("declares the EPCIS context and the extension prefixes its events use", async () => {
    const a = await getEvents(ref().eventsBase, "");
    const body = a.body as Record<string, unknown>;
    expect(body.type).toBe("EPCISQueryDocument");
    expect(body.schemaVersion).toBe("2.0");
    const context = body["@context"] as unknown[];
    expect(context[0]).toBe("https://ref.gs1.org/standards/epcis/epcis-context.jsonld");
    expect(context[1]).toMatchObject({ gdst: expect.any(String), cbvmda: "urn:epcglobal:cbv:mda:" });
    expect((body.epcisBody as { queryResults: { queryName: string } }).queryResults.queryName).toBe(
      "SimpleEventQuery",
    );
  });

  it("serves events as loaded, plus their recordTime, whichever query returns them", async () => {
    const all = eventsOf((await getEvents(ref().eventsBase, "")).body);
    const loaded = fixtureDataset().events;
    expect(all.map(({ recordTime: _, ...rest }) => rest)).toEqual(loaded);
    const one = eventsOf((await getEvents(ref().eventsBase, `MATCH_anyEPC=${enc(IDS.opaqueEpc)}`)).body);
    expect(one).toEqual([all[7]]);
  });
});

describe("answerInDigitalLink", () => {
  const dlRef = referenceForTests({ dataset: fixtureDataset(), config: { answerInDigitalLink: true } });

  it("rewrites EPCs, classes and locations to Digital Link form and leaves other identifiers alone", async () => {
    const events = eventsOf((await getEvents(dlRef().eventsBase, "")).body);
    expect(events[0]?.epcList).toEqual([DL.itemA1, DL.itemA2]);
    expect(events[0]?.bizLocation?.id).toBe(DL.vessel);
    expect(events[2]?.quantityList?.[0]?.epcClass).toBe(DL.lot1);
    expect(events[3]?.parentID).toBe(DL.pallet);
    expect(events[7]?.epcList).toEqual([DL.itemB1, IDS.opaqueEpc]);
    expect(dlRef().store.events[0]?.epcList).toEqual([IDS.itemA1, IDS.itemA2]);
  });
});
