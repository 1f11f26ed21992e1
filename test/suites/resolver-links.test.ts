// What the resolver class judges link by link: the entry about the identifier a link set answers (or the failed
// requirement that leaves none), where an epcis link leads (spec 4.2: "for the requested identifier"; a /01 link
// is judged against the GTIN's events, the bare query interface is asked for the identifier), an alphabetic path's
// answer (spec 4.2: "The alphabetic form ... is not allowed"), and which products the checks cover.
import { describe, expect, it } from "vitest";
import { eventsAbout, productQuery, requiredEvents } from "../../src/assertions/concerns.ts";
import { judgeEpcisLink, planEpcisLink } from "../../src/assertions/epcis-link.ts";
import type { HttpResult } from "../../src/http/index.ts";
import type { ExchangeRecord } from "../../src/http/record.ts";
import {
  CANONICAL_DL_BASE,
  canonicalId,
  type EpcisEvent,
  encodeQuery,
  gs1CheckDigit,
} from "../../src/model/index.ts";
import type { LinkedEvents } from "../../src/target/follow.ts";
import { type IdentifiersByForm, noIdentifiers } from "../../src/target/identifiers.ts";
import { entryOf, type LinksetAnswer } from "../../src/target/linkset-answers.ts";
import {
  coverProducts,
  PRODUCTS_PER_RUN,
  QUALIFIED_PER_PRODUCT,
} from "../../src/target/sampled-identifiers.ts";
import { judgeAlphabetic } from "../../suites/resolver/support/alphabetic.ts";

const SERIAL_URN = "urn:epc:id:sgtin:5613104.004000.77";
const LOT_URN = "urn:epc:class:lgtin:5613104.004000.L9";
const OTHER_URN = "urn:epc:id:sgtin:5613104.005000.1";
const GTIN = canonicalId("urn:epc:idpat:sgtin:5613104.004000.*");
const SERIAL = canonicalId(SERIAL_URN);
const LOT = canonicalId(LOT_URN);
const SSCC = canonicalId("urn:epc:id:sscc:5613104.0000000042");
const PARTY = canonicalId("urn:epc:id:pgln:5613104.00000");
const QUERY_INTERFACE = "https://sender.example/epcis";

function event(n: number, fields: Partial<EpcisEvent>): EpcisEvent {
  return { type: "ObjectEvent", eventID: `urn:uuid:00000000-0000-4000-8000-00000000000${n}`, ...fields };
}

const SERIAL_EVENT = event(1, { action: "ADD", epcList: [SERIAL_URN] });
const LOT_EVENT = event(2, { action: "OBSERVE", quantityList: [{ epcClass: LOT_URN, quantity: 3 }] });
const OTHER_EVENT = event(3, { action: "ADD", epcList: [OTHER_URN] });
const EVENTS = [SERIAL_EVENT, LOT_EVENT, OTHER_EVENT];

const EXCHANGE = { request: { method: "GET", url: "x", headers: {} }, durationMs: 1, curl: "" };
const answered = (events: EpcisEvent[]): LinkedEvents => ({ kind: "events", events, exchange: EXCHANGE });
const refused: LinkedEvents = { kind: "refused", status: 413, exchange: EXCHANGE };
const linkTo = (query: Record<string, string[]>) => `${QUERY_INTERFACE}/events?${encodeQuery(query)}`;

describe("the identifiers of the target's events as the resolver class reads them", () => {
  it("are the GTIN's events for a product, the holders of an EPC, class or location otherwise", () => {
    expect(GTIN).toMatch(/^https:\/\/id\.gs1\.org\/01\/\d{14}$/);
    expect(eventsAbout("01", GTIN, EVENTS)).toEqual([SERIAL_EVENT, LOT_EVENT]);
    expect(eventsAbout("01/21", SERIAL, EVENTS)).toEqual([SERIAL_EVENT]);
    expect(eventsAbout("01/10", LOT, EVENTS)).toEqual([LOT_EVENT]);
    expect(eventsAbout("417", PARTY, EVENTS)).toEqual([]);
  });

  it("asks about a product with its class pattern, written with the prefix the events' lgtin URNs show", () => {
    const written = productQuery(GTIN, EVENTS);
    expect(written).toEqual({
      query: { MATCH_anyEPCClass: ["urn:epc:idpat:sgtin:5613104.004000.*"] },
      asWritten: true,
    });
    // A pattern selects the classes it covers written as URNs, the form a pattern has (EVT-CLASS-PATTERN).
    expect(requiredEvents(EVENTS, written.query)).toEqual([LOT_EVENT]);
    // Without a lot of the GTIN written as a URN, the harness has only its canonical form to ask with.
    expect(productQuery(GTIN, [SERIAL_EVENT])).toEqual({
      query: { MATCH_anyEPCClass: [GTIN] },
      asWritten: false,
    });
  });
});

describe("RES-EPCIS-LINK: an epcis link judged against the identifier's events", () => {
  const judge = (
    form: Parameters<typeof planEpcisLink>[0],
    uri: string,
    href: string,
    linked: LinkedEvents,
  ) => judgeEpcisLink(planEpcisLink(form, uri, href, EVENTS), linked, EVENTS);

  it("fails a /01 link of the sender's own that answers none of the GTIN's class-held events", () => {
    const href = linkTo({ MATCH_anyEPC: [GTIN] });
    const outcome = judge("01", GTIN, href, answered([]));
    expect(outcome.kind).toBe("fail");
    // The serialised item is not owed: no query selects it by the GTIN (spec 4.1, MATCH_anyEPC takes URIs).
    expect(outcome).toMatchObject({
      reason: expect.stringMatching(/answered no event, but the target holds 1 about the identifier/),
      evidence: { missing: [LOT_EVENT.eventID] },
    });
  });

  it("is inconclusive for a /01 link of the sender's own where the GTIN's events are all serialised items", () => {
    const events = [SERIAL_EVENT, OTHER_EVENT];
    const pattern = linkTo({ MATCH_anyEPCClass: ["urn:epc:idpat:sgtin:5613104.004000.*"] });
    const outcome = judgeEpcisLink(planEpcisLink("01", GTIN, pattern, events), answered([]), events);
    expect(outcome).toMatchObject({
      kind: "inconclusive",
      note: expect.stringMatching(/hold only its serialised items, which no query for the GTIN selects/),
    });
    // As the same answer to the harness's own query is.
    const own = planEpcisLink("01", GTIN, QUERY_INTERFACE, events);
    expect(judgeEpcisLink(own, answered([]), events).kind).toBe("inconclusive");
  });

  it("fails a /01 link of the sender's own whose query names a serial it then leaves out", () => {
    const events = [SERIAL_EVENT, OTHER_EVENT];
    const href = linkTo({ MATCH_anyEPC: [SERIAL_URN] });
    const outcome = judgeEpcisLink(planEpcisLink("01", GTIN, href, events), answered([]), events);
    expect(outcome).toMatchObject({ kind: "fail", evidence: { missing: [SERIAL_EVENT.eventID] } });
  });

  it("passes a /01 link that answers part of the GTIN's events, and fails one answering another product's", () => {
    const href = linkTo({ MATCH_anyEPC: [SERIAL] });
    expect(judge("01", GTIN, href, answered([SERIAL_EVENT])).kind).toBe("pass");
    const other = judge("01", GTIN, href, answered([SERIAL_EVENT, OTHER_EVENT]));
    expect(other).toMatchObject({ kind: "fail", evidence: { extra: [OTHER_EVENT.eventID] } });
  });

  it("asks a bare query interface in a /01 link set for the GTIN's class pattern, and needs what it selects", () => {
    const plan = planEpcisLink("01", GTIN, QUERY_INTERFACE, EVENTS);
    expect(plan.request).toEqual({
      url: `${QUERY_INTERFACE}/events?MATCH_anyEPCClass=${encodeURIComponent("urn:epc:idpat:sgtin:5613104.004000.*")}`,
      queried: true,
      repository: false,
    });
    expect(judgeEpcisLink(plan, answered([LOT_EVENT]), EVENTS).kind).toBe("pass");
    expect(judgeEpcisLink(plan, answered([]), EVENTS)).toMatchObject({
      kind: "fail",
      evidence: { missing: [LOT_EVENT.eventID] },
    });
  });

  it("is inconclusive where the harness's own query could select none of the events it knows", () => {
    // Only a serialised item: no query for the GTIN selects it, and the canonical form is the harness's own.
    const events = [SERIAL_EVENT];
    const plan = planEpcisLink("01", GTIN, QUERY_INTERFACE, events);
    expect(plan.probe).toBe(true);
    expect(judgeEpcisLink(plan, answered([]), events).kind).toBe("inconclusive");
  });

  it("is inconclusive, never a pass, where the harness knows no event of the identifier", () => {
    const href = linkTo({ MATCH_anyEPC: [SSCC] });
    const outcome = judge("00", SSCC, href, answered([]));
    expect(outcome).toMatchObject({ kind: "inconclusive" });
    expect((outcome as { note: string }).note).toMatch(/knows no event about the identifier/);
  });

  it("fails a lot's link that leaves out the lot's events, and passes one that answers them", () => {
    const href = linkTo({ MATCH_anyEPCClass: [LOT] });
    expect(judge("01/10", LOT, href, answered([])).kind).toBe("fail");
    expect(judge("01/10", LOT, href, answered([LOT_EVENT])).kind).toBe("pass");
  });

  it("takes 413 as inconclusive, for a query that is not narrow and for one lot, which EVT-413-NARROW judges", () => {
    expect(judge("01", GTIN, linkTo({ MATCH_anyEPCClass: [GTIN] }), refused).kind).toBe("inconclusive");
    expect(judge("01/10", LOT, linkTo({ MATCH_anyEPCClass: [LOT] }), refused)).toMatchObject({
      kind: "inconclusive",
      note: expect.stringMatching(/narrow query, which EVT-413-NARROW judges/),
    });
  });

  it("leaves to EVT-UNFILTERED a party's link to the repository refused with a 4xx other than 413", () => {
    const plan = planEpcisLink("417", PARTY, QUERY_INTERFACE, EVENTS);
    const rejected: LinkedEvents = { kind: "rejected", status: 400, exchange: EXCHANGE };
    expect(judgeEpcisLink(plan, rejected, EVENTS)).toMatchObject({
      kind: "inconclusive",
      note: expect.stringMatching(/refused the unfiltered query with 400 \(EVT-UNFILTERED\)/),
    });
    // A query of the sender's own that it refuses is no query interface answering.
    const lot = planEpcisLink("01/10", LOT, linkTo({ MATCH_anyEPCClass: [LOT] }), EVENTS);
    expect(judgeEpcisLink(lot, rejected, EVENTS).kind).toBe("fail");
  });

  it("passes a party's link that answers the repository, adding no query to the query interface", () => {
    const plan = planEpcisLink("417", PARTY, QUERY_INTERFACE, EVENTS);
    expect(plan.request.repository).toBe(true);
    expect(judgeEpcisLink(plan, answered(EVENTS), EVENTS).kind).toBe("pass");
  });
});

describe("RES-EPCIS-LINK: a wrong answer to a query for the identifier alone is the query interface's", () => {
  const judge = (uri: string, href: string, linked: LinkedEvents) =>
    judgeEpcisLink(planEpcisLink("01/10", uri, href, EVENTS), linked, EVENTS);
  const CLASS_FILTERS = ["EVT-CLASS-QUANTITY", "EVT-CLASS-CHILD", "EVT-CLASS-INPUT", "EVT-CLASS-OUTPUT"];

  it("names the filter of the list where the lacking events hold the lot as asked, and paging", () => {
    const outcome = judge(LOT, linkTo({ MATCH_anyEPCClass: [LOT_URN] }), answered([]));
    expect(outcome).toMatchObject({ kind: "fail", explainedBy: ["EVT-CLASS-QUANTITY", "EVT-PAGING"] });
    expect(outcome).not.toHaveProperty("recheck");
  });

  it("asks again as the events write it where the link spells the lot otherwise", () => {
    const outcome = judge(LOT, linkTo({ MATCH_anyEPCClass: [LOT] }), answered([]));
    expect(outcome).toMatchObject({
      kind: "fail",
      recheck: { query: { MATCH_anyEPCClass: [LOT_URN] }, lacking: [LOT_EVENT] },
    });
    expect(outcome).not.toHaveProperty("explainedBy");
  });

  it("names every list's filter for events that do not mention the lot", () => {
    const href = linkTo({ MATCH_anyEPCClass: [LOT_URN] });
    expect(judge(LOT, href, answered([LOT_EVENT, OTHER_EVENT]))).toMatchObject({
      kind: "fail",
      explainedBy: [...CLASS_FILTERS, "EVT-PAGING"],
    });
    const rejected: LinkedEvents = { kind: "rejected", status: 400, exchange: EXCHANGE };
    expect(judge(LOT, href, rejected)).toMatchObject({ explainedBy: [...CLASS_FILTERS, "EVT-PAGING"] });
  });

  it("names EVT-PAGING for pages that broke, and nothing for another broken answer", () => {
    const href = linkTo({ MATCH_anyEPCClass: [LOT_URN] });
    const paging: LinkedEvents = { kind: "broken", message: "pages go round", paging: true };
    expect(judge(LOT, href, paging)).toMatchObject({ kind: "fail", explainedBy: ["EVT-PAGING"] });
    const other = judge(LOT, href, { kind: "broken", message: "not a query document" });
    expect(other.kind).toBe("fail");
    expect(other).not.toHaveProperty("explainedBy");
  });

  it("fails a throttled answer with its status and leaves it to no filter", () => {
    const href = linkTo({ MATCH_anyEPCClass: [LOT_URN] });
    const throttled = judge(LOT, href, { kind: "throttled", status: 429, exchange: EXCHANGE });
    expect(throttled).toMatchObject({ kind: "fail", reason: expect.stringMatching(/answered status 429$/) });
    expect(throttled).not.toHaveProperty("explainedBy");
  });

  it("leaves a link that asks for another identifier, or narrows the query, to fail on its own", () => {
    const narrowed = `${linkTo({ MATCH_anyEPCClass: [LOT_URN] })}&GE_eventTime=2024-01-01T00%3A00%3A00Z`;
    for (const href of [linkTo({ MATCH_anyEPC: [SERIAL_URN] }), narrowed]) {
      const outcome = judge(LOT, href, answered([]));
      expect(outcome.kind).toBe("fail");
      expect(outcome).not.toHaveProperty("explainedBy");
      expect(outcome).not.toHaveProperty("recheck");
    }
  });
});

describe("entryOf: the entry about the identifier, or the failure that leaves none", () => {
  const answer = (body: unknown): LinksetAnswer => ({ form: "01/10", uri: LOT, url: "https://r/x", body });
  const entry = (anchor: string) => ({ anchor, itemDescription: null });

  it("finds the entry anchored at the identifier under any base", () => {
    const found = entry(LOT.replace(CANONICAL_DL_BASE, "https://resolver.example"));
    expect(entryOf(answer({ linkset: [entry(GTIN), found] }))).toEqual({ entry: found });
  });

  it("blames RES-LINKSET-SHAPE when there is no array of entries, RES-ANCHOR when none is about it", () => {
    expect(entryOf(answer({ linkset: entry(LOT) }))).toMatchObject({ blocker: "RES-LINKSET-SHAPE" });
    // The lot's link set anchored at the GTIN, relative: no entry is about the lot.
    const relative = entryOf(answer({ linkset: [entry(GTIN.slice(CANONICAL_DL_BASE.length))] }));
    expect(relative).toMatchObject({ blocker: "RES-ANCHOR", why: expect.stringContaining(LOT) });
    expect(entryOf(answer({ linkset: [entry(GTIN)] }))).toMatchObject({ blocker: "RES-ANCHOR" });
  });
});

describe("RES-NUMERIC-ONLY: the answer to an alphabetic path", () => {
  const NUMERIC = SERIAL;
  const PATH = SERIAL.slice(CANONICAL_DL_BASE.length).replace("/01/", "/gtin/").replace("/21/", "/ser/");
  const exchange = (status: number, headers: Record<string, string> = {}): ExchangeRecord => ({
    ...EXCHANGE,
    response: { status, headers, bodyExcerpt: "", bodyBytes: 0, truncated: false },
  });
  function result(
    status: number,
    body: string,
    hops: ExchangeRecord[] = [],
    url = "https://r/x",
  ): HttpResult {
    const last = exchange(status);
    return {
      status,
      headers: {},
      body: Buffer.from(body),
      text: body,
      truncated: false,
      url,
      json: () => JSON.parse(body) as never,
      exchange: last,
      exchanges: [...hops, last],
    };
  }

  it("fails a link set answered at the alphabetic path", () => {
    const verdict = judgeAlphabetic(PATH, NUMERIC, { result: result(200, '{"linkset":[]}') });
    expect(verdict).toMatchObject({
      status: "fail",
      note: expect.stringMatching(/answered with a link set/),
    });
  });

  it("passes a 4xx refusal, whatever its body", () => {
    expect(judgeAlphabetic(PATH, NUMERIC, { result: result(400, "no") }).status).toBe("pass");
    expect(judgeAlphabetic(PATH, NUMERIC, { result: result(404, '{"linkset":[]}') }).status).toBe("pass");
  });

  it("warns on a redirect to the numeric path, even one that then answers a link set", () => {
    const numericUrl = `https://r${NUMERIC.slice(CANONICAL_DL_BASE.length)}?linkType=linkset`;
    const hop = exchange(301, { location: numericUrl });
    const verdict = judgeAlphabetic(PATH, NUMERIC, {
      result: result(200, '{"linkset":[]}', [hop], numericUrl),
    });
    expect(verdict).toMatchObject({ status: "warn", exchange: hop });
    expect(verdict.note).toMatch(/redirected \(301\) to the numeric path/);
  });

  it("passes a redirect that leads to a refusal: the resolver refused the form, behind its own front", () => {
    const hop = exchange(307, { location: "https://backend/gtin/x" });
    const verdict = judgeAlphabetic(PATH, NUMERIC, {
      result: result(404, "no", [hop], "https://backend/gtin/x"),
    });
    expect(verdict.status).toBe("pass");
  });

  it("warns on any other answer without a link set, and fails (left undecided by the check) without an answer", () => {
    expect(judgeAlphabetic(PATH, NUMERIC, { result: result(200, "<html></html>") }).status).toBe("warn");
    expect(judgeAlphabetic(PATH, NUMERIC, { result: result(500, "") }).status).toBe("warn");
    expect(judgeAlphabetic(PATH, NUMERIC, { error: "connection reset" })).toMatchObject({
      status: "fail",
      note: expect.stringMatching(/got no answer: connection reset/),
    });
  });
});

describe("coverProducts: every product, with some of its lots and serials", () => {
  const gtin = (n: number) => {
    const body = `0561310400${String(n).padStart(3, "0")}`;
    return `${CANONICAL_DL_BASE}/01/${body}${gs1CheckDigit(body)}`;
  };
  const products = Array.from({ length: 6 }, (_, i) => gtin(i));
  const lotsOf = (g: string) => [1, 2, 3].map((k) => `${g}/10/L${k}`);
  const serialsOf = (g: string) => [1, 2, 3, 4].map((k) => `${g}/21/S${k}`);
  const all: IdentifiersByForm = {
    ...noIdentifiers(),
    "00": [SSCC],
    "01": products,
    "01/10": products.flatMap(lotsOf),
    "01/21": products.flatMap(serialsOf),
  };
  const sampled: IdentifiersByForm = {
    ...noIdentifiers(),
    "00": [SSCC],
    "01": [gtin(2)],
    "01/10": [lotsOf(gtin(2))[2]!],
  };

  it("asks about every product with up to two lots and two serials of each, after the sample, once each", () => {
    const covered = coverProducts(all, sampled, { runs: 25, seed: 7 });
    expect([covered.products, covered.coveredProducts]).toEqual([6, 6]);
    expect(covered.byForm["00"]).toEqual([SSCC]);
    expect(covered.byForm["01"][0]).toBe(gtin(2));
    expect([...covered.byForm["01"]].sort()).toEqual(products);
    expect(covered.byForm["01/10"][0]).toBe(lotsOf(gtin(2))[2]);
    for (const form of ["01/10", "01/21"] as const) {
      expect(new Set(covered.byForm[form]).size).toBe(covered.byForm[form].length);
      for (const g of products) {
        const mine = covered.byForm[form].filter((uri) => uri.startsWith(`${g}/`));
        expect(mine.length, `${form} of ${g}`).toBeGreaterThanOrEqual(1);
        // The sampled lot of a product comes on top of the two drawn for it.
        expect(mine.length, `${form} of ${g}`).toBeLessThanOrEqual(QUALIFIED_PER_PRODUCT + 1);
      }
    }
  });

  it("draws the products with the seed where the run's effort does not cover them all", () => {
    const covered = coverProducts(all, noIdentifiers(), { runs: 1, seed: 7 });
    expect(covered.coveredProducts).toBe(PRODUCTS_PER_RUN);
    expect(covered.byForm["01"]).toHaveLength(PRODUCTS_PER_RUN);
    expect(coverProducts(all, noIdentifiers(), { runs: 1, seed: 7 })).toEqual(covered);
    const lotsCovered = new Set(covered.byForm["01/10"].map((uri) => uri.slice(0, uri.indexOf("/10/"))));
    expect([...lotsCovered].sort()).toEqual([...covered.byForm["01"]].sort());
  });
});
