import { describe, expect, it } from "vitest";
import type { Evidence } from "../../src/engine/types.ts";
import {
  eventFacts,
  eventQueryOf,
  groupKey,
  inWords,
  readableUrl,
  utcOf,
} from "../../src/report/evidence-facts.ts";
import { eventsAnswer } from "./build-report.ts";

const get = (url: string, status = 200, message?: string): Evidence => ({
  request: { method: "GET", url, headers: {} },
  response: { status, headers: {}, bodyExcerpt: "", bodyBytes: 0, truncated: false },
  ...(message === undefined ? {} : { message }),
});

describe("eventQueryOf", () => {
  it("names the field each parameter reads (spec 2.1) and what it asks, decoded", () => {
    const asked = eventQueryOf(
      "http://h/events?EQ_bizStep=shipping%7Creceiving&GE_recordTime=2024-01-01T10%3A00%3A00%2B02%3A00",
    )!;
    expect(asked.facts).toEqual([
      {
        parameter: "GE_recordTime",
        field: "recordTime",
        asks: "recordTime at or after 2024-01-01T10:00:00+02:00 (2024-01-01T08:00:00Z)",
      },
      {
        parameter: "EQ_bizStep",
        field: "bizStep",
        asks: "bizStep equal to one of shipping | receiving (in any of its three forms)",
      },
    ]);
  });

  it("reads only GET /events queries", () => {
    expect(eventQueryOf("http://h/01/09506000134352?linkType=linkset")).toBeUndefined();
    expect(eventQueryOf("not a url")).toBeUndefined();
  });
});

describe("eventFacts", () => {
  it("finds an extra event in the answer and says whether it meets each parameter", () => {
    const e: Evidence = {
      ...get("http://h/events?EQ_bizStep=shipping&LT_eventTime=2024-01-01T00%3A00%3A00Z"),
      extra: ["urn:uuid:x"],
    };
    e.response!.bodyExcerpt = eventsAnswer([
      { type: "ObjectEvent", eventID: "urn:uuid:x", eventTime: "2024-01-01T00:00:00Z", bizStep: "shipping" },
    ]);
    const { events } = eventFacts(e)!;
    expect(events).toEqual([
      {
        id: "urn:uuid:x",
        side: "extra",
        values: [
          { parameter: "LT_eventTime", value: "2024-01-01T00:00:00Z", meets: false },
          { parameter: "EQ_bizStep", value: "shipping", meets: true },
        ],
      },
    ]);
  });

  it("takes a missing event's fields from the event objects the evidence records", () => {
    const e: Evidence = {
      ...get("http://h/events?MATCH_anyEPC=urn%3Aepc%3Aid%3Asscc%3A0614141.1234567890"),
      missing: ["urn:uuid:y", "urn:uuid:z"],
      expected: { events: [{ eventID: "urn:uuid:y", parentID: "urn:epc:id:sscc:0614141.1234567890" }] },
    };
    const { events } = eventFacts(e)!;
    expect(events[0]).toEqual({
      id: "urn:uuid:y",
      side: "missing",
      values: [
        { parameter: "MATCH_anyEPC", value: "parentID: urn:epc:id:sscc:0614141.1234567890", meets: true },
      ],
    });
    expect(events[1]).toEqual({ id: "urn:uuid:z", side: "missing" });
  });

  it("reads a listed event's values from what the evidence records of it, a cut list counted", () => {
    const e: Evidence = {
      ...get("http://h/events?MATCH_anyEPC=urn%3Aepc%3Aid%3Asgtin%3A0614141.107346.2017&EQ_bizStep=shipping"),
      missing: ["urn:uuid:m"],
      extra: ["urn:uuid:x"],
      eventValues: {
        "urn:uuid:m": {
          bizStep: "urn:epcglobal:cbv:bizstep:shipping",
          epcList: ["urn:epc:id:sgtin:0614141.107346.2017", "urn:epc:id:sgtin:0614141.107346.1"],
          more: { epcList: 30 },
        },
        // An event holding none of the fields the query reads.
        "urn:uuid:x": {},
      },
    };
    expect(eventFacts(e)!.events).toEqual([
      {
        id: "urn:uuid:m",
        side: "missing",
        values: [
          {
            parameter: "MATCH_anyEPC",
            value:
              "epcList: urn:epc:id:sgtin:0614141.107346.2017, urn:epc:id:sgtin:0614141.107346.1 and 30 more",
            meets: true,
          },
          { parameter: "EQ_bizStep", value: "urn:epcglobal:cbv:bizstep:shipping", meets: true },
        ],
      },
      {
        id: "urn:uuid:x",
        side: "extra",
        values: [
          { parameter: "MATCH_anyEPC", value: "(none)", meets: false },
          { parameter: "EQ_bizStep", value: "(none)", meets: false },
        ],
      },
    ]);
  });

  it("has nothing to say without missing or extra events", () => {
    expect(eventFacts(get("http://h/events"))).toBeUndefined();
  });
});

describe("inWords", () => {
  it("writes a query object as its query and a nested pair as two queries", () => {
    expect(inWords({ q: { LT_eventTime: "2024-01-01T00:00:00Z" } })).toEqual([
      { label: "query", text: "LT_eventTime=2024-01-01T00:00:00Z" },
    ]);
    expect(inWords({ written: { EQ_bizStep: ["urn:a", "b"] }, reference: { EQ_bizStep: ["b"] } })).toEqual([
      { label: "written", text: "EQ_bizStep=urn:a|b" },
      { label: "reference", text: "EQ_bizStep=b" },
    ]);
  });

  it("turns keys into words, lists into comma lists and an encoded query into a readable one", () => {
    expect(inWords({ fractionDigits: 3, values: ["a", "b"], none: [], query: "EQ_bizStep=a%7Cb" })).toEqual([
      { label: "fraction digits", text: "3" },
      { label: "values", text: "a, b" },
      { label: "none", text: "none" },
      { label: "query", text: "EQ_bizStep=a|b" },
    ]);
  });

  it("names recorded event objects by their ids, their fields being for the table of events", () => {
    const events = [{ eventID: "urn:uuid:1", eventTime: "2024-01-01T00:00:00Z" }, { eventID: "urn:uuid:2" }];
    expect(inWords({ events, count: 2 })).toEqual([
      { label: "events", text: "2 event(s): urn:uuid:1, urn:uuid:2" },
      { label: "count", text: "2" },
    ]);
  });

  it("gives up on what words cannot say, so that the reader gets JSON", () => {
    expect(inWords({ deep: { a: { b: { c: 1 } } } })).toBeUndefined();
    expect(inWords({ long: "x".repeat(10) })).toEqual([{ label: "long", text: "xxxxxxxxxx" }]);
    expect(inWords({ many: Array.from({ length: 200 }, (_, i) => `value-${i}`) })).toBeUndefined();
  });
});

describe("groupKey", () => {
  it("is the same for requests that differ only in identifier values", () => {
    expect(groupKey(get("http://h/01/09506000134352/10/LOT-1?linkType=linkset"))).toBe(
      groupKey(get("http://h/01/05832764850097/10/B2?linkType=linkset")),
    );
    expect(groupKey(get("http://h/events?MATCH_anyEPC=urn%3Aa"))).toBe(
      groupKey(get("http://h/events?MATCH_anyEPC=urn%3Ab")),
    );
  });

  it("differs for another path shape, another status or another parameter", () => {
    const base = groupKey(get("http://h/01/09506000134352?linkType=linkset"));
    expect(groupKey(get("http://h/01/09506000134352/10/L1?linkType=linkset"))).not.toBe(base);
    expect(groupKey(get("http://h/01/09506000134352?linkType=linkset", 404))).not.toBe(base);
    expect(groupKey(get("http://h/events?EQ_bizStep=a"))).not.toBe(
      groupKey(get("http://h/events?EQ_bizLocation=a")),
    );
  });

  it("groups findings without a request by their message, identifiers aside", () => {
    const finding = (message: string): Evidence => ({ message });
    expect(groupKey(finding("event urn:uuid:1 lacks bizStep"))).toBe(
      groupKey(finding("event urn:uuid:2 lacks bizStep")),
    );
    expect(groupKey(finding("event urn:uuid:1 lacks bizStep"))).not.toBe(
      groupKey(finding("event urn:uuid:1 lacks eventTime")),
    );
  });
});

describe("utcOf and readableUrl", () => {
  it("keep every fractional digit of an instant", () => {
    expect(utcOf("2023-12-17T09:58:59.854795756+01:00")).toBe("2023-12-17T08:58:59.854795756Z");
    expect(utcOf("yesterday")).toBeUndefined();
  });

  it("decode the query of a URL for reading", () => {
    expect(readableUrl("http://h:1/events?EQ_bizStep=a%7Cb&LT_eventTime=2024-01-01T00%3A00%3A00Z")).toBe(
      "http://h:1/events?EQ_bizStep=a|b&LT_eventTime=2024-01-01T00:00:00Z",
    );
  });
});
