// A hundred thousand events load into the store, and a selective query looks at a handful of them (counted, not
// timed). What a selective query examines does not grow with the store; loading a million events, in time and
// memory, is measured by npm run bench (bench/reference-load.ts, bench/reference-store.ts).
import { describe, expect, it } from "vitest";
import type { EpcisEvent } from "../../src/model/index.ts";
import { epcUrnToDigitalLink } from "../../src/model/index.ts";
import { EventStore } from "../../src/reference/store/index.ts";

const COUNT = 100_000;
const STEPS = ["commissioning", "https://ref.gs1.org/cbv/BizStep-shipping", "receiving", "packing"];

/** Simple, varied events: one serialised EPC each (every third one in Digital Link form), 50 sites, 200 lots. */
function storedEvents(): EpcisEvent[] {
  const base = Date.UTC(2024, 0, 1);
  const events: EpcisEvent[] = new Array(COUNT);
  for (let i = 0; i < COUNT; i++) {
    const urn = `urn:epc:id:sgtin:0614141.812345.S${i}`;
    events[i] = {
      type: "ObjectEvent",
      eventID: `urn:uuid:00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`,
      eventTime: new Date(base + i * 1000).toISOString(),
      eventTimeZoneOffset: "+00:00",
      action: "OBSERVE",
      bizStep: STEPS[i % STEPS.length] as string,
      epcList: [i % 3 === 0 ? (epcUrnToDigitalLink(urn) as string) : urn],
      quantityList: [{ epcClass: `urn:epc:class:lgtin:0614141.812345.L${i % 200}`, quantity: 1 }],
      bizLocation: { id: `urn:epc:id:sgln:0614141.${String(i % 50).padStart(5, "0")}.0` },
    };
  }
  return events;
}

describe("a hundred thousand events", () => {
  it("load, and a single-EPC query examines a handful of them", { timeout: 600_000 }, async () => {
    const store = await EventStore.load(storedEvents());
    expect(store.size).toBe(COUNT);

    const target = "urn:epc:id:sgtin:0614141.812345.S77777";
    const byUrn = store.query({ MATCH_anyEPC: [target] });
    expect(byUrn.events.map((e) => e.eventID)).toEqual([store.events[77777]?.eventID]);
    expect(byUrn.examined).toBeLessThanOrEqual(5);

    const byLink = store.query({ MATCH_anyEPC: [epcUrnToDigitalLink(target) as string] });
    expect(byLink.events).toEqual(byUrn.events);
    expect(byLink.examined).toBeLessThanOrEqual(5);

    const window = store.query({
      GE_eventTime: "2024-01-02T00:00:00Z",
      LT_eventTime: "2024-01-02T00:01:00Z",
      EQ_bizStep: ["shipping"],
    });
    expect(window.events).toHaveLength(15);
    expect(window.examined).toBe(60);
  });
});
