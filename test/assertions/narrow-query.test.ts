// EVT-413-NARROW's decision (src/assertions/narrow-query.ts) on made-up answers: a parameter fails when
// every value asked was refused, or a refused query selects no more events than one the sender answered; one
// really large value refused alone warns; every answered parameter is passed with the exchange that answered it.
import { describe, expect, it } from "vitest";
import {
  type AnsweredQuery,
  holdsQuery,
  isNarrow,
  judgeNarrowQueries,
  type NarrowCase,
  narrowParameterOf,
} from "../../src/assertions/narrow-query.ts";
import type { ExchangeRecord } from "../../src/http/record.ts";
import type { EventQuery } from "../../src/model/types.ts";

const LOT = "urn:epc:class:lgtin:4012345.012345.998877";
const BIG_LOT = "https://id.gs1.org/01/04012345123456/10/BIG";
const GTIN_CLASS = "urn:epc:idpat:sgtin:4012345.012345.*";

function exchange(query: EventQuery, status: number): ExchangeRecord {
  const url = `http://127.0.0.1:1/events?${new URLSearchParams(query as Record<string, string>)}`;
  return {
    request: { method: "GET", url, headers: {} },
    response: { status, headers: {}, bodyExcerpt: "", bodyBytes: 0, truncated: false },
    durationMs: 1,
    curl: `curl '${url}'`,
  };
}

function answered(query: EventQuery, selects: number, events = selects): NarrowCase {
  return { query, selects, outcome: { kind: "answered", events, exchange: exchange(query, 200) } };
}

function refused(query: EventQuery, selects: number): NarrowCase {
  return { query, selects, outcome: { kind: "refused", exchange: exchange(query, 413) } };
}

const epc = (v: string): EventQuery => ({ MATCH_anyEPC: [v] });
const lot = (v: string): EventQuery => ({ MATCH_anyEPCClass: [v] });
const transformation = (v: string): EventQuery => ({ EQ_transformationID: [v] });

describe("narrow queries", () => {
  it("are those for one EPC, one lot class or one transformation, whatever narrows them further", () => {
    expect(narrowParameterOf(epc("urn:epc:id:sgtin:4012345.012345.1"))).toBe("MATCH_anyEPC");
    expect(narrowParameterOf(lot(LOT))).toBe("MATCH_anyEPCClass");
    expect(narrowParameterOf(lot(BIG_LOT))).toBe("MATCH_anyEPCClass");
    expect(narrowParameterOf(transformation("urn:uuid:1"))).toBe("EQ_transformationID");
    expect(isNarrow({ ...epc("urn:epc:id:sgtin:4012345.012345.1"), EQ_bizStep: ["shipping"] })).toBe(true);
    expect(isNarrow(lot(GTIN_CLASS))).toBe(false);
    expect(isNarrow({ MATCH_anyEPC: ["a", "b"] })).toBe(false);
    expect(isNarrow({ EQ_bizStep: ["shipping"] })).toBe(false);
  });

  it("are held by a query whose every parameter they have, with no other values", () => {
    const narrowed = { ...epc("a"), EQ_bizStep: ["shipping"], GE_eventTime: "2024-01-01T00:00:00Z" };
    expect(holdsQuery({}, narrowed)).toBe(true);
    expect(holdsQuery(epc("a"), narrowed)).toBe(true);
    expect(holdsQuery({ MATCH_anyEPC: ["a", "b"] }, narrowed)).toBe(true);
    expect(holdsQuery({ GE_eventTime: "2024-01-01T00:00:00Z" }, narrowed)).toBe(true);
    expect(holdsQuery(epc("b"), narrowed)).toBe(false);
    expect(holdsQuery({ GE_eventTime: "2023-01-01T00:00:00Z" }, narrowed)).toBe(false);
    expect(holdsQuery({ EQ_bizLocation: ["x"] }, narrowed)).toBe(false);
  });
});

describe("judgeNarrowQueries", () => {
  it("passes every parameter answered, with the exchange of an answer", () => {
    const verdicts = judgeNarrowQueries(
      [answered(epc("a"), 3), answered(lot(LOT), 4), answered(transformation("t"), 2)],
      [],
      true,
    );
    expect(verdicts.fail).toEqual([]);
    expect(verdicts.warn).toEqual([]);
    expect(verdicts.pass).toHaveLength(3);
    expect(verdicts.pass[0]?.evidence.response?.status).toBe(200);
    expect(verdicts.pass[0]?.evidence.request?.url).toContain("MATCH_anyEPC");
  });

  it("fails a parameter refused for every value asked, with the refusal as evidence", () => {
    const verdicts = judgeNarrowQueries(
      [refused(epc("a"), 50), refused(epc("b"), 60), answered(lot(LOT), 4)],
      [],
      true,
    );
    expect(verdicts.fail).toHaveLength(1);
    expect(verdicts.fail[0]?.reason).toMatch(/every narrow MATCH_anyEPC query asked \(2\) was refused/);
    expect(verdicts.fail[0]?.evidence.response?.status).toBe(413);
    expect(verdicts.warn).toEqual([]);
    expect(verdicts.pass.map((p) => p.note)).toEqual([expect.stringMatching(/^MATCH_anyEPCClass/)]);
  });

  it("fails a refusal of a query that selects no more events than one answered", () => {
    const verdicts = judgeNarrowQueries([refused(lot(LOT), 5), answered(lot(BIG_LOT), 9)], [], true);
    expect(verdicts.fail).toHaveLength(1);
    expect(verdicts.fail[0]?.reason).toMatch(/answered 9 event\(s\), no fewer than the 5 it selects/);
    expect(verdicts.warn).toEqual([]);
  });

  it("fails a refusal beside an answered query that holds it, whatever the baseline knows", () => {
    const unfiltered: AnsweredQuery = { query: {}, events: 3, exchange: exchange({}, 200) };
    const verdicts = judgeNarrowQueries(
      [refused(transformation("t"), 40), answered(transformation("u"), 1)],
      [unfiltered],
      false,
    );
    expect(verdicts.fail).toHaveLength(1);
    expect(verdicts.fail[0]?.reason).toMatch(/the unfiltered query, which selects every event it does/);
  });

  it("warns on one really large value refused alone, others of its parameter answered", () => {
    const verdicts = judgeNarrowQueries(
      [answered(lot(LOT), 4), refused(lot(BIG_LOT), 900), answered(epc("a"), 6)],
      [],
      true,
    );
    expect(verdicts.fail).toEqual([]);
    expect(verdicts.warn).toHaveLength(1);
    expect(verdicts.warn[0]?.reason).toMatch(
      /selects 900 known event\(s\), more than any query the sender answered/,
    );
    expect(verdicts.warn[0]?.evidence.response?.status).toBe(413);
    expect(verdicts.pass).toHaveLength(2);
  });

  it("compares counts only where the baseline is the whole repository", () => {
    // The refused lot may select more events than the partial baseline knows of.
    const partial = judgeNarrowQueries([refused(lot(LOT), 5), answered(lot(BIG_LOT), 9)], [], false);
    expect(partial.fail).toEqual([]);
    expect(partial.warn).toHaveLength(1);
  });

  it("says nothing of queries neither answered nor refused with 413", () => {
    const other: NarrowCase = { query: epc("a"), selects: 2, outcome: { kind: "other" } };
    expect(judgeNarrowQueries([other], [], true)).toEqual({ fail: [], warn: [], pass: [] });
  });
});
