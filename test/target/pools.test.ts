// The value pools the checks draw their bounds from (src/target/pools.ts): an instant is a bound only where its UTC
// form is one too.
import { describe, expect, it } from "vitest";
import type { EpcisEvent } from "../../src/model/types.ts";
import { valuePools } from "../../src/target/pools.ts";

const event = (eventTime: string): EpcisEvent => ({
  type: "ObjectEvent",
  action: "OBSERVE",
  eventTime,
  eventTimeZoneOffset: "+00:00",
});

describe("valuePools: eventTimes", () => {
  it("keeps the instants a bound can be taken at, and leaves out those whose UTC year is 0000 or 10000", () => {
    const pools = valuePools([
      event("2026-01-01T00:00:00Z"),
      event("0001-01-01T00:30:00+01:00"),
      event("9999-12-31T23:00:00-05:00"),
      event("0001-01-01T02:00:00+01:00"),
    ]);
    expect(pools.eventTimes).toEqual(["0001-01-01T02:00:00+01:00", "2026-01-01T00:00:00Z"]);
  });
});
