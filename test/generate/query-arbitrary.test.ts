// Queries drawn from a baseline reach every field the nine parameters of spec 4.1 look at, in every spelling,
// and come as single parameters, AND-combinations and pipe-joined alternatives.
import { readFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { queryArbitrary } from "../../src/generate/arbitraries.ts";
import { documentToDataset, generateDataset } from "../../src/generate/index.ts";
import type { EpcisEvent, EventQuery, Instant } from "../../src/model/index.ts";
import {
  CLASS_LISTS,
  canonicalBizStep,
  canonicalId,
  compareInstants,
  EPC_FIELDS,
  encodeQuery,
  instantsEqual,
  LIST_PARAMETERS,
  parseInstant,
  parseQueryString,
  QUERY_PARAMETERS,
  runOracle,
  TIME_PARAMETERS,
} from "../../src/model/index.ts";
import { GDST_EXAMPLES } from "./support.ts";

const events = generateDataset({ seed: 51, events: 300 }).events;
const queries = fc.sample(queryArbitrary(events), { seed: 52, numRuns: 1500 });

function valuesOf(qs: readonly EventQuery[], name: (typeof LIST_PARAMETERS)[number]): string[] {
  return qs.flatMap((q) => q[name] ?? []);
}

function canonicalSet(values: Iterable<string>): Set<string> {
  return new Set([...values].map(canonicalId));
}

function fieldValues(field: (typeof EPC_FIELDS)[number]): string[] {
  return events.flatMap((e) => {
    const v = e[field];
    return v === undefined ? [] : Array.isArray(v) ? v : [v];
  });
}

describe("queryArbitrary", () => {
  it("draws well-formed queries: known parameters, 1 to 3 values, no pipe, valid times", () => {
    for (const q of queries) {
      const keys = Object.keys(q);
      expect(keys.length).toBeGreaterThanOrEqual(1);
      for (const k of keys) expect(QUERY_PARAMETERS).toContain(k);
      for (const name of LIST_PARAMETERS) {
        const list = q[name];
        if (list === undefined) continue;
        expect(list.length).toBeGreaterThanOrEqual(1);
        expect(list.length).toBeLessThanOrEqual(3);
        for (const v of list) expect(v.length > 0 && !v.includes("|")).toBe(true);
      }
      for (const name of TIME_PARAMETERS)
        if (q[name] !== undefined) expect(() => parseInstant(q[name] as string)).not.toThrow();
    }
  });

  it("survives encoding on the wire (spec 4.1 rules 1 and 2)", () => {
    for (const q of queries.slice(0, 500)) expect(parseQueryString(encodeQuery(q)).query).toEqual(q);
  });

  it("takes MATCH_anyEPC values from each of the five EPC fields, in both spellings", () => {
    const drawn = valuesOf(queries, "MATCH_anyEPC");
    const drawnIds = canonicalSet(drawn);
    for (const f of EPC_FIELDS) {
      const hit = [...canonicalSet(fieldValues(f))].some((id) => drawnIds.has(id));
      expect(hit, f).toBe(true);
    }
    expect(drawn.some((v) => v.startsWith("urn:epc:id:"))).toBe(true);
    expect(drawn.some((v) => v.startsWith("https://id.gs1.org/"))).toBe(true);
  });

  it("takes MATCH_anyEPCClass values from each of the four quantity lists, plus class patterns", () => {
    const drawn = valuesOf(queries, "MATCH_anyEPCClass");
    const drawnIds = canonicalSet(drawn);
    for (const f of CLASS_LISTS) {
      const classes = canonicalSet(events.flatMap((e) => (e[f] ?? []).map((x) => x.epcClass)));
      expect(
        [...classes].some((id) => drawnIds.has(id)),
        f,
      ).toBe(true);
    }
    expect(drawn.some((v) => /^urn:epc:idpat:sgtin:\d+\.\d+\.\*$/.test(v))).toBe(true);
    expect(drawn.some((v) => /^urn:epc:idpat:sgtin:\d+\.\*\.\*$/.test(v))).toBe(true);
    expect(drawn.some((v) => /^https:\/\/id\.gs1\.org\/01\/\d{14}$/.test(v))).toBe(true);
  });

  it("writes bizSteps in all three forms of spec 2.1", () => {
    const drawn = valuesOf(queries, "EQ_bizStep");
    expect(drawn.some((v) => /^[a-z_]+$/.test(v))).toBe(true);
    expect(drawn.some((v) => v.startsWith("urn:epcglobal:cbv:bizstep:"))).toBe(true);
    expect(drawn.some((v) => v.startsWith("https://ref.gs1.org/cbv/BizStep-"))).toBe(true);
    const used = new Set(events.map((e) => canonicalBizStep(e.bizStep ?? "")));
    expect(drawn.some((v) => used.has(canonicalBizStep(v)))).toBe(true);
  });

  it("takes business locations and transformation ids from the events", () => {
    const locations = canonicalSet(events.flatMap((e) => (e.bizLocation ? [e.bizLocation.id] : [])));
    expect(valuesOf(queries, "EQ_bizLocation").some((v) => locations.has(canonicalId(v)))).toBe(true);
    const xf = new Set(events.flatMap((e) => (e.transformationID ? [e.transformationID] : [])));
    expect(valuesOf(queries, "EQ_transformationID").some((v) => xf.has(v))).toBe(true);
  });

  it("bounds times at event instants written differently, and one unit either side", () => {
    const instants = events.map((e) => parseInstant(e.eventTime ?? ""));
    const written = new Set(events.map((e) => e.eventTime));
    const bounds = queries
      .flatMap((q) => [q.GE_eventTime, q.LT_eventTime])
      .filter((t) => t !== undefined)
      .map((text) => ({ text, instant: parseInstant(text) }));
    const atAnEvent = (b: { instant: Instant }): boolean => instants.some((i) => instantsEqual(i, b.instant));
    expect(bounds.some((b) => atAnEvent(b) && !written.has(b.text))).toBe(true);
    expect(bounds.some((b) => !atAnEvent(b))).toBe(true);
  });

  it("draws single parameters, AND-combinations and pipe-joined alternatives", () => {
    expect(queries.some((q) => Object.keys(q).length === 1)).toBe(true);
    expect(queries.some((q) => Object.keys(q).length >= 2)).toBe(true);
    expect(queries.some((q) => LIST_PARAMETERS.some((n) => (q[n]?.length ?? 0) >= 2))).toBe(true);
    expect(queries.some((q) => q.GE_eventTime !== undefined && q.LT_eventTime !== undefined)).toBe(true);
  });

  it("draws GE and LT windows with an event exactly at each bound (spec 4.1: GE keeps it, LT does not)", () => {
    const instants = events.map((e) => parseInstant(e.eventTime ?? ""));
    const atAnEvent = (text: string): boolean => instants.some((i) => instantsEqual(i, parseInstant(text)));
    const windows = queries.filter(
      (q) => Object.keys(q).length === 2 && q.GE_eventTime !== undefined && q.LT_eventTime !== undefined,
    );
    // Combinations draw the two bounds apart, in either order; windows draw them in order.
    const atBoth = windows.filter(
      (q) =>
        atAnEvent(q.GE_eventTime!) &&
        atAnEvent(q.LT_eventTime!) &&
        compareInstants(parseInstant(q.GE_eventTime!), parseInstant(q.LT_eventTime!)) < 0,
    );
    expect(atBoth.length).toBeGreaterThan(windows.length / 2);
    for (const q of atBoth) {
      // The event at GE is answered and the one at LT is not: the window is never empty of its lower bound.
      expect(runOracle(events, q).length, encodeQuery(q)).toBeGreaterThan(0);
      const atLt = events.filter((e) =>
        instantsEqual(parseInstant(e.eventTime ?? ""), parseInstant(q.LT_eventTime!)),
      );
      for (const e of atLt) expect(runOracle(events, q)).not.toContain(e);
    }
  });

  it("gives queries that match nothing and queries that select some but not all events", () => {
    const sizes = queries.slice(0, 150).map((q) => runOracle(events, q).length);
    expect(sizes.some((n) => n === 0)).toBe(true);
    expect(sizes.some((n) => n > 0 && n < events.length)).toBe(true);
  });

  it("draws from foreign events, with recordTime bounds when the baseline carries recordTime", async () => {
    const doc = JSON.parse(await readFile(path.join(GDST_EXAMPLES, "traceback_tests.jsonld"), "utf8"));
    // A sender stamps recordTime on capture; the example file has none, so stamp it as a sender would.
    const served: EpcisEvent[] = documentToDataset(doc).events.map((e, i) => ({
      ...e,
      recordTime: `2024-03-01T10:00:${String(i).padStart(2, "0")}.5Z`,
    }));
    const drawn = fc.sample(queryArbitrary(served), { seed: 53, numRuns: 500 });
    expect(drawn.some((q) => q.GE_recordTime !== undefined || q.LT_recordTime !== undefined)).toBe(true);
    expect(queries.some((q) => q.GE_recordTime !== undefined || q.LT_recordTime !== undefined)).toBe(false);
    const gdstEpcs = canonicalSet(served.flatMap((e) => e.epcList ?? []));
    expect(drawn.some((q) => (q.MATCH_anyEPC ?? []).some((v) => gdstEpcs.has(canonicalId(v))))).toBe(true);
  });

  it("still draws queries from an empty baseline (values that match nothing)", () => {
    for (const q of fc.sample(queryArbitrary([]), { seed: 54, numRuns: 50 })) {
      expect(Object.keys(q).length).toBeGreaterThanOrEqual(1);
    }
  });
});
