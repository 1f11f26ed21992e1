// The trace every receiver is held to, on a dataset small enough to know by heart: aggregations are followed both
// ways, a transformation backwards only from its outputs, and its siblings by transformationID.
import { describe, expect, it } from "vitest";
import type { EpcisEvent } from "../../src/model/index.ts";
import { traceBelow } from "../../src/model/trace-set.ts";

const id = (serial: string) => `https://id.gs1.org/01/09506000134352/21/${serial}`;
const SSCC = "urn:epc:id:sscc:9506000.1000000001";

function ev(eventID: string, fields: Partial<EpcisEvent>): EpcisEvent {
  return { type: "ObjectEvent", eventID, eventTime: "2024-01-01T00:00:00Z", ...fields };
}

const EVENTS: EpcisEvent[] = [
  ev("commission-A", { action: "ADD", epcList: [id("A")] }),
  ev("commission-B", { action: "ADD", epcList: [id("B")] }),
  ev("commission-C", { action: "ADD", epcList: [id("C")] }),
  ev("t1", {
    type: "TransformationEvent",
    inputEPCList: [id("B")],
    outputEPCList: [id("A")],
    transformationID: "urn:x:t1",
  }),
  ev("t1-sibling", {
    type: "TransformationEvent",
    inputEPCList: [id("C")],
    outputEPCList: [id("D")],
    transformationID: "urn:x:t1",
  }),
  ev("pack", { type: "AggregationEvent", action: "ADD", parentID: SSCC, childEPCs: [id("A")] }),
  // The SSCC in its Digital Link form: the same identifier as the URN the aggregation names.
  ev("ship-sscc", { action: "OBSERVE", epcList: ["https://id.gs1.org/00/195060000000000012"] }),
  ev("t2", { type: "TransformationEvent", inputEPCList: [id("A")], outputEPCList: [id("E")] }),
  ev("ship-E", { action: "OBSERVE", epcList: [id("E")] }),
  ev("unrelated", { action: "OBSERVE", epcList: [id("Z")] }),
];

describe("the trace below a product", () => {
  const trace = traceBelow(EVENTS, id("A"));
  const ids = [...trace.events.keys()];

  it("holds the product's events, its aggregation's parent and what a transformation made it from", () => {
    expect(ids).toEqual(["commission-A", "commission-B", "t1", "t1-sibling", "pack", "ship-sscc", "t2"]);
  });

  it("takes a transformation's siblings by transformationID but not the inputs of their outputs", () => {
    expect(ids).toContain("t1-sibling");
    expect(ids).not.toContain("commission-C");
  });

  it("does not follow a transformation forwards from its inputs, nor unrelated events", () => {
    expect(ids).not.toContain("ship-E");
    expect(ids).not.toContain("unrelated");
  });

  it("starts from the identifier in either spelling", () => {
    const fromUrn = traceBelow(EVENTS, "urn:epc:id:sgtin:9506000.013435.A");
    expect([...fromUrn.events.keys()]).toEqual(ids);
  });
});
