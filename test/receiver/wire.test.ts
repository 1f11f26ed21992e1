// How the reference receiver writes its requests, and how each named client fault bends exactly that.
import { describe, expect, it } from "vitest";
import { parseInstant, parseQueryString } from "../../src/model/index.ts";
import { checkedReceiverFaults } from "../../src/receiver/faults.ts";
import { nanosecondsOf, queryString, resolverUrl, timeBound } from "../../src/receiver/wire.ts";

const A = "https://id.gs1.org/01/09506000134352/21/A%2FB";
const B = "urn:epc:id:sscc:9506000.1000000001";
const none = checkedReceiverFaults([]);

describe("the reference receiver's queries", () => {
  it("send one parameter per list, values joined by %7C and each value percent-encoded", () => {
    const q = queryString({ MATCH_anyEPC: [A, B] }, none);
    expect(q).toBe(`MATCH_anyEPC=${encodeURIComponent(A)}%7C${encodeURIComponent(B)}`);
    expect(parseQueryString(q).query.MATCH_anyEPC).toEqual([A, B]);
  });

  it("repeat the key under repeat-key and join with a raw | under raw-pipe", () => {
    expect(queryString({ MATCH_anyEPC: [A, B] }, checkedReceiverFaults(["repeat-key"]))).toBe(
      `MATCH_anyEPC=${encodeURIComponent(A)}&MATCH_anyEPC=${encodeURIComponent(B)}`,
    );
    expect(queryString({ MATCH_anyEPC: [A, B] }, checkedReceiverFaults(["raw-pipe"]))).toContain("|");
  });

  it("write time bounds in UTC, and the same instant at +02:00 under local-time", () => {
    const ns = nanosecondsOf(parseInstant("2024-03-01T10:00:00.123456789Z"));
    expect(timeBound(ns, none)).toBe("2024-03-01T10:00:00.123456789Z");
    const local = timeBound(ns, checkedReceiverFaults(["local-time"]));
    expect(local).toBe("2024-03-01T12:00:00.123456789+02:00");
    expect(nanosecondsOf(parseInstant(local))).toBe(ns);
    expect(queryString({ GE_eventTime: local }, none)).toBe(
      "GE_eventTime=2024-03-01T12%3A00%3A00.123456789%2B02%3A00",
    );
  });

  it("ask the resolver with numeric AIs, and alphabetic ones under alphabetic-ai", () => {
    const elements = [
      { ai: "01", value: "09506000134352" },
      { ai: "21", value: "A/B" },
    ];
    expect(resolverUrl("http://r", elements, none)).toBe(
      "http://r/01/09506000134352/21/A%2FB?linkType=linkset",
    );
    expect(resolverUrl("http://r", elements, checkedReceiverFaults(["alphabetic-ai"]))).toBe(
      "http://r/gtin/09506000134352/ser/A%2FB?linkType=linkset",
    );
  });

  it("ask the resolver for one link type, to be redirected to it", () => {
    const elements = [{ ai: "01", value: "09506000134352" }];
    expect(resolverUrl("http://r", elements, none, "gs1:masterData")).toBe(
      "http://r/01/09506000134352?linkType=gs1:masterData",
    );
  });

  it("refuse a fault it does not know, naming the known ones", () => {
    expect(() => checkedReceiverFaults(["no-such"])).toThrow(/no-such.*repeat-key/);
  });
});
