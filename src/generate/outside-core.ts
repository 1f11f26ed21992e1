// Events a sender may serve beside the seven core events: spec 6 names the seven the service serves, never that it
// serves only them, and EPCIS 2.0 has events no row of x-std-core-events takes for a core event. Each is written
// after a core event of the dataset, about the same objects at the same place and time, so that it names nothing
// the dataset's master data and resolver do not already know. They are the shapes of GS1's own EPCIS examples: an
// AggregationEvent OBSERVE at receiving (Example 9.6.3), an ObjectEvent OBSERVE at inspecting (the sensor data
// examples), a TransactionEvent ADD at shipping (transaction_event_all_possible_fields).
import { createHash } from "node:crypto";
import { canonicalBizStep, type EpcisEvent } from "../model/index.ts";
import { uuidUrnOf } from "./chain.ts";

/** A name of the event's own, made from the event it was written after, the same in every run. */
function derivedId(source: EpcisEvent, kind: string): string {
  const hex = createHash("sha256")
    .update(`${source.eventID ?? JSON.stringify(source)} ${kind}`)
    .digest("hex");
  return uuidUrnOf(hex, "8");
}

/** The members every derived event keeps from its source: when and where it happened, and whose it is. */
function common(source: EpcisEvent, kind: string): Partial<EpcisEvent> {
  const kept: Partial<EpcisEvent> = { eventID: derivedId(source, kind) };
  for (const key of [
    "eventTime",
    "eventTimeZoneOffset",
    "readPoint",
    "bizLocation",
    "gdst:productOwner",
    "cbvmda:informationProvider",
  ]) {
    if (source[key] !== undefined) kept[key] = structuredClone(source[key]);
  }
  return kept;
}

const at = (event: EpcisEvent, step: string) =>
  typeof event.bizStep === "string" && canonicalBizStep(event.bizStep) === step;

/** The party that records the event, as the number of its GLN: for a business transaction of its own. */
function partyNumber(event: EpcisEvent): string {
  const party = event["cbvmda:informationProvider"];
  const digits = typeof party === "string" ? /(\d{13})$/.exec(party)?.[1] : undefined;
  return digits ?? "0000000000000";
}

/**
 * Three events outside the seven core events, each written after a core event of `events` (fewer when the
 * dataset lacks the core event it would follow).
 */
export function outsideCoreEvents(events: readonly EpcisEvent[]): EpcisEvent[] {
  const out: EpcisEvent[] = [];
  const packed = events.find((e) => e.type === "AggregationEvent" && e.action === "ADD");
  if (packed !== undefined) {
    // The aggregation observed again where it is received.
    const observed: EpcisEvent = {
      type: "AggregationEvent",
      ...common(packed, "aggregation-observed"),
      action: "OBSERVE",
      bizStep: "receiving",
      disposition: "in_progress",
    };
    if (typeof packed.parentID === "string") observed.parentID = packed.parentID;
    if (packed.childEPCs !== undefined) observed.childEPCs = [...packed.childEPCs];
    if (packed.childQuantityList !== undefined)
      observed.childQuantityList = structuredClone(packed.childQuantityList);
    out.push(observed);
  }
  const shipped = events.find(
    (e) => e.type === "ObjectEvent" && at(e, "shipping") && e.epcList !== undefined,
  );
  if (shipped !== undefined) {
    const objects: Partial<EpcisEvent> = { epcList: [...(shipped.epcList ?? [])] };
    if (shipped.quantityList !== undefined) objects.quantityList = structuredClone(shipped.quantityList);
    // The shipped objects inspected before they leave.
    out.push({
      type: "ObjectEvent",
      ...common(shipped, "object-inspected"),
      action: "OBSERVE",
      ...objects,
      bizStep: "inspecting",
    });
    // The purchase order the shipment fulfils, tied to the shipped objects.
    out.push({
      type: "TransactionEvent",
      ...common(shipped, "shipment-transaction"),
      action: "ADD",
      ...objects,
      bizTransactionList: [
        {
          type: "po",
          bizTransaction: `urn:epcglobal:cbv:bt:${partyNumber(shipped)}:PO-${derivedId(shipped, "po").slice(9, 17)}`,
        },
      ],
      bizStep: "shipping",
      disposition: "in_transit",
    });
  }
  return out;
}
