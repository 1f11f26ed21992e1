import type { CoreEventSignature } from "./types.ts";

/**
 * The seven core events (spec 6). eventType and action are the spec's table; bizStep and disposition are the
 * columns the definition fixes, null where the spec leaves one not fixed (Decommission, Receiving) and, for
 * action, where the event type has none (Transformation).
 */
export const CORE_EVENTS: readonly CoreEventSignature[] = Object.freeze([
  {
    name: "Commission",
    eventType: "ObjectEvent",
    action: "ADD",
    bizStep: "commissioning",
    disposition: "active",
  },
  {
    name: "Decommission",
    eventType: "ObjectEvent",
    action: "DELETE",
    bizStep: "decommissioning",
    disposition: null,
  },
  {
    name: "Aggregation",
    eventType: "AggregationEvent",
    action: "ADD",
    bizStep: "packing",
    disposition: "active",
  },
  {
    name: "Disaggregation",
    eventType: "AggregationEvent",
    action: "DELETE",
    bizStep: "unpacking",
    disposition: "inactive",
  },
  {
    name: "Shipping",
    eventType: "ObjectEvent",
    action: "OBSERVE",
    bizStep: "shipping",
    disposition: "in_transit",
  },
  { name: "Receiving", eventType: "ObjectEvent", action: "OBSERVE", bizStep: "receiving", disposition: null },
  {
    name: "Transformation",
    eventType: "TransformationEvent",
    action: null,
    bizStep: "commissioning",
    disposition: "active",
  },
]);

const DISPOSITION_PREFIXES = ["urn:epcglobal:cbv:disp:", "https://ref.gs1.org/cbv/Disp-"];

/** The bare word of a CBV disposition written in its short, URN or web URI form. */
export function canonicalDisposition(value: string): string {
  const prefix = DISPOSITION_PREFIXES.find((p) => value.startsWith(p));
  return prefix ? value.slice(prefix.length) : value;
}
