// The values that decide whether an event meets a query (spec 2.1's fields, spec 4.1's parameters), as evidence
// records them beside a failed comparison.
import { describe, expect, it } from "vitest";
import {
  decidingValues,
  decidingValuesOf,
  describeComparison,
  valuesInWords,
} from "../../src/assertions/event-sets.ts";
import type { EpcisEvent } from "../../src/model/types.ts";

const AGGREGATION: EpcisEvent = {
  type: "AggregationEvent",
  eventID: "urn:uuid:agg",
  eventTime: "2024-03-01T12:00:00.5+02:00",
  recordTime: "2024-03-01T10:05:00Z",
  bizStep: "packing",
  parentID: "urn:epc:id:sscc:0614141.1234567890",
  childEPCs: Array.from({ length: 25 }, (_, i) => `urn:epc:id:sgtin:0614141.107346.${i}`),
  childQuantityList: [{ epcClass: "urn:epc:class:lgtin:0614141.107346.LOT1", quantity: 3 }],
  bizLocation: { id: "urn:epc:id:sgln:0614141.00001.0", extra: "kept out" },
};

describe("decidingValues", () => {
  it("keeps only the fields the query reads, as the event writes them", () => {
    expect(decidingValues(AGGREGATION, { GE_eventTime: "2024-03-01T10:00:00Z" })).toEqual({
      eventTime: "2024-03-01T12:00:00.5+02:00",
    });
    expect(
      decidingValues(AGGREGATION, {
        LT_recordTime: "2024-03-02T00:00:00Z",
        EQ_bizStep: ["shipping"],
        EQ_bizLocation: ["urn:epc:id:sgln:0614141.00001.0"],
        MATCH_anyEPCClass: ["urn:epc:idpat:sgtin:0614141.107346.*"],
      }),
    ).toEqual({
      recordTime: "2024-03-01T10:05:00Z",
      bizStep: "packing",
      bizLocation: { id: "urn:epc:id:sgln:0614141.00001.0" },
      childQuantityList: [{ epcClass: "urn:epc:class:lgtin:0614141.107346.LOT1" }],
    });
  });

  it("cuts a long EPC list, keeping the EPCs that meet the query first and counting the rest", () => {
    // The Digital Link spelling of the 21st child: the value that decides is far down the list.
    const values = decidingValues(AGGREGATION, {
      MATCH_anyEPC: ["https://id.gs1.org/01/10614141073464/21/20"],
    });
    expect(values.childEPCs).toHaveLength(10);
    expect(values.childEPCs?.[0]).toBe("urn:epc:id:sgtin:0614141.107346.20");
    expect(values.more).toEqual({ childEPCs: 15 });
    expect(values.parentID).toBe("urn:epc:id:sscc:0614141.1234567890");
  });

  it("leaves out what is not a string where the spec's fields hold strings, and fields the event lacks", () => {
    const odd = { type: "ObjectEvent", eventTime: 5, bizStep: ["shipping"] } as unknown as EpcisEvent;
    expect(decidingValues(odd, { GE_eventTime: "2024-01-01T00:00:00Z", EQ_bizStep: ["shipping"] })).toEqual(
      {},
    );
  });
});

describe("decidingValuesOf and the sentence of a failed comparison", () => {
  it("gives the listed events' values by identity, and names them beside each id", () => {
    const other: EpcisEvent = { type: "ObjectEvent", eventID: "urn:uuid:obj", bizStep: "shipping" };
    const values = decidingValuesOf(["urn:uuid:agg", "urn:uuid:none"], [AGGREGATION, other], {
      EQ_bizStep: ["shipping"],
      GE_eventTime: "2024-03-01T10:00:00Z",
    });
    expect(values).toEqual({
      "urn:uuid:agg": { eventTime: "2024-03-01T12:00:00.5+02:00", bizStep: "packing" },
    });
    expect(
      describeComparison(
        { equal: false, missing: [], extra: ["urn:uuid:agg", "urn:uuid:none"], duplicated: [] },
        3,
        values,
      ),
    ).toBe(
      "2 unexpected event(s) answered (urn:uuid:agg with eventTime 2024-03-01T12:00:00.5+02:00 (2024-03-01T10:00:00.5Z), bizStep packing; urn:uuid:none)",
    );
  });

  it("says a long list in a few values and how many more", () => {
    expect(valuesInWords({ epcList: ["a", "b", "c"], more: { epcList: 7 } })).toBe("epcList a, b and 8 more");
    expect(valuesInWords({})).toBe("");
  });
});
