// Which invented values a query holds (suites/events/support/probes.ts): a refusal warns on the probe's own
// requirement only where the query holds invented values of one kind, since otherwise it does not say which was
// refused.
import { describe, expect, it } from "vitest";
import type { EpcisEvent } from "../../src/model/types.ts";
import type { Known } from "../../suites/events/support/known.ts";
import { inUtc, probeOf, probesOf } from "../../suites/events/support/probes.ts";

const EVENT: EpcisEvent = {
  type: "ObjectEvent",
  eventID: "urn:uuid:00000000-0000-4000-8000-000000000001",
  action: "OBSERVE",
  eventTime: "2026-01-01T00:00:00.000Z",
  eventTimeZoneOffset: "+00:00",
  recordTime: "2026-01-01T00:00:01.000Z",
  epcList: ["urn:epc:id:sgtin:0614141.107346.1"],
  bizStep: "shipping",
};

const known = { events: [EVENT] } as unknown as Known;

describe("probesOf", () => {
  it("names nothing for values the events hold, in UTC at their own digits", () => {
    expect(probesOf(known, { MATCH_anyEPC: [EVENT.epcList![0]!], GE_eventTime: EVENT.eventTime })).toEqual(
      [],
    );
    expect(probeOf(known, { EQ_bizStep: ["shipping"] })).toBeUndefined();
  });

  it("names each kind of invented value once, the first of them as probeOf's", () => {
    const both = {
      EQ_transformationID: ["urn:tracecheck:transformation:none", "urn:tracecheck:transformation:none2"],
      GE_eventTime: "2026-01-01T09:00:00.000+09:00",
    };
    expect(probesOf(known, both)).toEqual(["EVT-NO-MATCH", "EVT-TIME-PROBES"]);
    expect(probeOf(known, both)).toBe("EVT-NO-MATCH");
    expect(probesOf(known, { GE_eventTime: "2026-01-01T09:00:00.000+09:00" })).toEqual(["EVT-TIME-PROBES"]);
  });
});

describe("inUtc", () => {
  it("writes an event's instant in UTC with its own digits", () => {
    expect(inUtc("2026-01-01T09:00:00.120+09:00")).toBe("2026-01-01T00:00:00.120Z");
  });

  it("gives no bound where the UTC form leaves the years 0001 to 9999", () => {
    expect(() => inUtc("0001-01-01T00:30:00+01:00")).toThrow(/year 0000/);
    expect(() => inUtc("9999-12-31T23:00:00-05:00")).toThrow();
  });
});
