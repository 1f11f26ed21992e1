import { describe, expect, it } from "vitest";
import { linearScan, scanRows } from "../../bench/linear-scan.ts";
import { QUERY_KINDS, queriesOf } from "../../bench/queries.ts";
import { generateDataset } from "../../src/generate/index.ts";
import { eventIdentity, parseInstant, runOracle } from "../../src/model/index.ts";

// One spelling per identifier, so that the plain filter, which compares identifiers as written, must agree with
// the oracle, which compares them in canonical form.
const events = generateDataset({ seed: 11, events: 400, epcForm: "urn" }).events;
const ids = (list: readonly { eventID?: string }[]) => list.map((e) => eventIdentity(e as never)).sort();

describe("queriesOf", () => {
  it.each(QUERY_KINDS)("gives %s queries that each select at least one event", (kind) => {
    const queries = queriesOf(kind, events, 5);
    expect(queries.length).toBe(5);
    for (const q of queries) expect(runOracle(events, q).length).toBeGreaterThan(0);
  });

  it("gives the same queries for the same events", () => {
    expect(queriesOf("single EPC", events, 5)).toEqual(queriesOf("single EPC", events, 5));
  });

  it("makes a one-day window a whole UTC day", () => {
    for (const q of queriesOf("one-day window", events, 5)) {
      const from = parseInstant(q.GE_eventTime as string).epochSeconds;
      const to = parseInstant(q.LT_eventTime as string).epochSeconds;
      expect(to - from).toBe(86_400n);
      expect(from % 86_400n).toBe(0n);
    }
  });

  it("refuses events that offer no query of the kind", () => {
    expect(() => queriesOf("single EPC", [{ type: "ObjectEvent" }], 3)).toThrow(/generate a larger dataset/);
  });
});

describe("linearScan", () => {
  const rows = scanRows(events);
  it.each(QUERY_KINDS)("selects what the oracle selects for %s queries", (kind) => {
    for (const q of queriesOf(kind, events, 5)) {
      expect(ids(linearScan(rows, q))).toEqual(ids(runOracle(events, q)));
    }
  });
});
