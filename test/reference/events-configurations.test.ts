// The reference sender's GET /events in the named configurations that use a freedom of the spec: UTC-only time
// bounds, CBV-only bare bizStep words, 413 for any large answer but a narrow one, relative next links, a path
// prefix, and an order, an extension field and a media type of its own. Each is a correct sender, so besides the
// freedom itself its answers must still be right.
import type { ValidateFunction } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { compareTimes, type EpcisEvent } from "../../src/model/index.ts";
import { REFERENCE_CONFIGURATIONS } from "../../src/reference/configurations.ts";
import { type RunningReference, startReference } from "../../src/reference/index.ts";
import type { ReferenceConfig } from "../../src/reference/types.ts";
import { withReference } from "../support/reference.ts";
import { allPages, epcisValidator, eventsOf, getEvents, getUrl, idsOf, nextLink } from "./events-answers.ts";
import { DL, fixtureDataset, IDS, LOAD_START } from "./events-fixture.ts";

const enc = encodeURIComponent;
let validate: ValidateFunction;

beforeAll(async () => {
  validate = await epcisValidator();
});

/** Starts the reference over the fixture in a configuration, runs `body`, and closes it whatever happens. */
function using(
  config: Partial<ReferenceConfig>,
  body: (ref: RunningReference) => Promise<void>,
): Promise<void> {
  return withReference({ dataset: fixtureDataset(), store: { loadStart: LOAD_START }, config }, body);
}

function problemType(body: unknown): unknown {
  return (body as { type?: unknown } | undefined)?.type;
}

describe("the named configurations", () => {
  it("list each freedom's requirement as the one warning it earns", () => {
    const warnings = Object.fromEntries(REFERENCE_CONFIGURATIONS.map((c) => [c.name, c.expectedWarnings]));
    expect(warnings["utc-only"]).toEqual(["EVT-TIME-PROBES"]);
    expect(warnings["strict-bizstep"]).toEqual(["EVT-BIZSTEP-UNKNOWN"]);
    expect(warnings["gtin-patterns"]).toEqual(["EVT-CLASS-PATTERN-PREFIX"]);
    expect(warnings["as-written"]).toEqual(["EVT-EPC-FORMS"]);
    expect(warnings["unfiltered-400"]).toEqual(["EVT-UNFILTERED"]);
    expect(warnings["millisecond-store"]).toEqual(["EVT-SHAPE-PRECISION"]);
    for (const name of ["refuse-large", "relative-paging", "path-prefix", "shuffled", "capturing"]) {
      expect(warnings[name], name).toEqual([]);
    }
  });

  it("give the dataset to the proving run of a freedom that shows only against what was loaded", () => {
    const given = REFERENCE_CONFIGURATIONS.filter((c) => c.withDataset === true).map((c) => c.name);
    expect(given).toEqual(["millisecond-store"]);
  });
});

describe("utc-only", () => {
  it("answers bounds in Z, +00:00 and -00:00 alike and refuses other offsets with 400", async () => {
    await using({ utcOnly: true }, async (ref) => {
      const answers = await Promise.all(
        ["2024-03-01T10:00:00Z", "2024-03-01T10:00:00+00:00", "2024-03-01T10:00:00-00:00"].map((t) =>
          getEvents(ref.eventsBase, `GE_eventTime=${enc(t)}`),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      const [z, plus, minus] = answers.map((a) => idsOf(eventsOf(a.body)));
      expect(z?.length).toBeGreaterThan(0);
      expect(plus).toEqual(z);
      expect(minus).toEqual(z);
      const other = await getEvents(ref.eventsBase, `GE_eventTime=${enc("2024-03-01T15:30:00+05:30")}`);
      expect(other.status).toBe(400);
      expect(problemType(other.body)).toBe("epcisException:QueryParameterException");
    });
  });

  it("still answers a bound in UTC that the default sender answers", async () => {
    const query = `LT_eventTime=${enc("2024-03-02T00:00:00Z")}`;
    let plain: string[] = [];
    await using({}, async (ref) => {
      plain = idsOf(eventsOf((await getEvents(ref.eventsBase, query)).body));
    });
    await using({ utcOnly: true }, async (ref) => {
      expect(idsOf(eventsOf((await getEvents(ref.eventsBase, query)).body))).toEqual(plain);
    });
  });
});

describe("strict-bizstep", () => {
  it("refuses a bare word that is no CBV step with 400 and answers CBV steps in every form", async () => {
    await using({ strictBizSteps: true }, async (ref) => {
      const unknown = await getEvents(ref.eventsBase, "EQ_bizStep=fishing_trip");
      expect(unknown.status).toBe(400);
      expect(problemType(unknown.body)).toBe("epcisException:QueryParameterException");
      const forms = await Promise.all(
        ["shipping", "urn:epcglobal:cbv:bizstep:shipping", "https://ref.gs1.org/cbv/BizStep-shipping"].map(
          (v) => getEvents(ref.eventsBase, `EQ_bizStep=${enc(v)}`),
        ),
      );
      expect(forms.map((a) => a.status)).toEqual([200, 200, 200]);
      const ids = forms.map((a) => idsOf(eventsOf(a.body)));
      expect(ids[0]?.length).toBeGreaterThan(0);
      expect(ids[1]).toEqual(ids[0]);
      expect(ids[2]).toEqual(ids[0]);
    });
  });

  it("answers the URN form of a word outside the CBV, since only bare words are refused", async () => {
    await using({ strictBizSteps: true }, async (ref) => {
      const urn = await getEvents(
        ref.eventsBase,
        `EQ_bizStep=${enc("urn:epcglobal:cbv:bizstep:fishing_trip")}`,
      );
      expect(urn.status).toBe(200);
      expect(eventsOf(urn.body)).toEqual([]);
    });
  });
});

describe("refuse-large", () => {
  it("refuses with 413 a query answering more than the limit, whatever its parameters", async () => {
    await using({ largeLimit: 1 }, async (ref) => {
      for (const query of [
        "",
        "EQ_bizStep=shipping%7Creceiving%7Ccommissioning",
        `MATCH_anyEPC=${enc(IDS.itemA1)}%7C${enc(IDS.itemA2)}`,
        `MATCH_anyEPCClass=${enc(IDS.companyPattern)}`,
      ]) {
        const a = await getEvents(ref.eventsBase, query);
        expect(a.status, query).toBe(413);
        expect(problemType(a.body)).toBe("epcisException:QueryTooComplexException");
      }
    });
  });

  it("answers one EPC, one lot class or one transformation however many events they select", async () => {
    await using({ largeLimit: 1 }, async (ref) => {
      for (const query of [
        `MATCH_anyEPC=${enc(IDS.itemA1)}`,
        `MATCH_anyEPCClass=${enc(IDS.lot1)}`,
        `EQ_transformationID=${enc(IDS.transformation)}`,
      ]) {
        const a = await getEvents(ref.eventsBase, query);
        expect(a.status, query).toBe(200);
        expect(eventsOf(a.body).length, query).toBeGreaterThan(0);
      }
      // The lot class and the EPC selected more events than the limit: the exemption is what let them through.
      for (const query of [`MATCH_anyEPC=${enc(IDS.itemA1)}`, `MATCH_anyEPCClass=${enc(IDS.lot1)}`]) {
        expect(eventsOf((await getEvents(ref.eventsBase, query)).body).length, query).toBeGreaterThan(1);
      }
    });
  });

  it("answers a query whose answer stays within the limit", async () => {
    await using({ largeLimit: 1 }, async (ref) => {
      const a = await getEvents(ref.eventsBase, "EQ_bizStep=packing");
      expect(a.status).toBe(200);
      expect(eventsOf(a.body)).toHaveLength(1);
    });
  });
});

describe("relative-paging", () => {
  it("links each next page relative to the page, and the pages together hold every event once", async () => {
    await using({ pageSize: 3, relativeLinks: true }, async (ref) => {
      const first = await getEvents(ref.eventsBase, "");
      const link = nextLink(first);
      expect(link).toBeDefined();
      expect(link).not.toMatch(/^[a-z]+:/);
      const pages = [first];
      let url = new URL(link!, `${ref.eventsBase}/events`).href;
      for (let n = 0; n < 10; n++) {
        const page = await getUrl(url);
        expect(page.status).toBe(200);
        pages.push(page);
        const next = nextLink(page);
        if (next === undefined) break;
        url = new URL(next, url).href;
      }
      const ids = pages.flatMap((p) => idsOf(eventsOf(p.body)));
      expect(ids).toHaveLength(fixtureDataset().events.length);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });
});

describe("path-prefix", () => {
  it("serves GET /events under the prefix and nothing at the bare path", async () => {
    await using({ pathPrefix: "/epcis", pageSize: 3 }, async (ref) => {
      expect(new URL(ref.eventsBase).pathname).toBe("/epcis");
      expect(ref.resolverBase).toBe(new URL(ref.eventsBase).origin);
      const { pages, events } = await allPages(ref.eventsBase, "");
      expect(pages.every((p) => p.status === 200)).toBe(true);
      expect(events).toHaveLength(fixtureDataset().events.length);
      expect(nextLink(pages[0]!)).toMatch(/\/epcis\/events\?/);
      const bare = await getUrl(`${new URL(ref.eventsBase).origin}/events`);
      expect(bare.status).toBe(404);
    });
  });

  it("refuses a prefix that is not a path", async () => {
    await expect(
      startReference({ dataset: fixtureDataset(), config: { pathPrefix: "epcis/" } }),
    ).rejects.toThrow(/path prefix/);
  });
});

describe("shuffled", () => {
  it("answers every event once, in an order of its own, with an extension field, as application/json", async () => {
    await using({ shuffled: true, pageSize: 3 }, async (ref) => {
      const loaded = idsOf(ref.store.events);
      const { pages, events } = await allPages(ref.eventsBase, "");
      const ids = idsOf(events);
      expect([...ids].sort()).toEqual([...loaded].sort());
      expect(ids).not.toEqual(loaded);
      for (const page of pages) {
        expect(String(page.headers["content-type"])).toMatch(/^application\/json/);
        expect(validate(page.body), JSON.stringify(validate.errors)).toBe(true);
        const context = (page.body as { "@context": unknown[] })["@context"];
        expect(context).toContainEqual(expect.objectContaining({ example: expect.any(String) }));
      }
      expect(events.every((e: EpcisEvent) => typeof e["example:note"] === "string")).toBe(true);
    });
  });

  it("answers a filtered query with the events the default sender answers", async () => {
    const query = `MATCH_anyEPC=${enc(IDS.itemA1)}`;
    let plain: string[] = [];
    await using({}, async (ref) => {
      plain = idsOf(eventsOf((await getEvents(ref.eventsBase, query)).body));
    });
    await using({ shuffled: true }, async (ref) => {
      const ids = idsOf(eventsOf((await getEvents(ref.eventsBase, query)).body));
      expect([...ids].sort()).toEqual([...plain].sort());
    });
  });
});

describe("unfiltered-400", () => {
  it("refuses GET /events without any parameter with 400, and answers a query with one", async () => {
    await using({ refuseUnfiltered: 400 }, async (ref) => {
      const bare = await getEvents(ref.eventsBase, "");
      expect(bare.status).toBe(400);
      expect(problemType(bare.body)).toBe("epcisException:QueryParameterException");
      const spanning = await getEvents(ref.eventsBase, `GE_eventTime=${enc("2000-01-01T00:00:00Z")}`);
      expect(spanning.status).toBe(200);
      expect(idsOf(eventsOf(spanning.body)).sort()).toEqual(idsOf(ref.store.events).sort());
    });
  });

  it("still answers the pages after the first of a query with a parameter", async () => {
    await using({ refuseUnfiltered: 400, pageSize: 2 }, async (ref) => {
      const { pages, events } = await allPages(ref.eventsBase, `GE_eventTime=${enc("2000-01-01T00:00:00Z")}`);
      expect(pages.length).toBeGreaterThan(1);
      expect(pages.every((p) => p.status === 200)).toBe(true);
      expect(events).toHaveLength(ref.store.size);
    });
  });
});

describe("capturing", () => {
  it("captures three events after every n-th GET /events, new to the requests after it and recorded then", async () => {
    await using({ captureEvery: 2 }, async (ref) => {
      const loaded = ref.store.size;
      const first = eventsOf((await getEvents(ref.eventsBase, "")).body);
      const second = eventsOf((await getEvents(ref.eventsBase, "")).body);
      expect(first).toHaveLength(loaded);
      // Captured after the second answer was made: not in it.
      expect(second).toHaveLength(loaded);
      const answer = await getEvents(ref.eventsBase, "");
      expect(validate(answer.body), JSON.stringify(validate.errors)).toBe(true);
      const third = eventsOf(answer.body);
      expect(third).toHaveLength(loaded + 3);
      const captured = third.slice(loaded);
      const lastLoaded = ref.store.events[loaded - 1]?.recordTime as string;
      for (const e of captured) {
        expect(idsOf(first)).not.toContain(e.eventID);
        expect(e.eventID).toMatch(/^urn:uuid:/);
        expect(compareTimes(e.recordTime as string, lastLoaded)).toBeGreaterThanOrEqual(0);
      }
      expect(new Set(idsOf(captured)).size).toBe(3);
    });
  });

  it("counts the requests to both homes of the query interface together in receiver mode", async () => {
    await withReference(
      {
        dataset: fixtureDataset(),
        store: { loadStart: LOAD_START },
        config: { captureEvery: 2 },
        opaqueHrefs: true,
      },
      async (ref) => {
        // The second home is under the session's segment, which the epcis link of a link set names.
        const path = new URL(DL.pallet).pathname;
        const linkset = await getUrl(`${ref.resolverBase}${path}?linkType=linkset`);
        const epcis = JSON.stringify(linkset.body).match(/"href":"([^"]*\/events[^"]*)"/)?.[1];
        expect(epcis).toBeDefined();
        const secondBase =
          new URL(epcis as string).origin + new URL(epcis as string).pathname.replace(/\/events$/, "");
        expect(secondBase).not.toBe(ref.eventsBase);
        const loaded = ref.store.size;
        await getEvents(ref.eventsBase, "");
        await getEvents(secondBase, "");
        // One capture after the second request, which went to the other home: three events, not none and not six.
        expect(eventsOf((await getEvents(ref.eventsBase, "")).body)).toHaveLength(loaded + 3);
      },
    );
  });
});
