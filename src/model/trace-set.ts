// The trace a receiver is to fetch, so that every receiver is judged alike: the events below one product
// identifier, found with the query oracle over the events the sender holds. From the identifier, repeat until
// nothing changes: add every event that names an identifier of the set (in an EPC or quantity field, or as
// parentID); for each aggregation event in the trace, add its parent and its children; for each transformation
// event in the trace with an identifier of the set among its outputs, add its inputs and the other events sharing
// its transformationID.
import { canonicalId, type EpcisEvent, type EventQuery, eventIdentity, runOracle } from "./index.ts";

export interface TraceSet {
  /** The events of the trace, by identity (eventID, else a canonical hash), in the order the sender holds them. */
  events: Map<string, EpcisEvent>;
  /** The identifiers the trace reached, canonical. */
  identifiers: Set<string>;
}

/** The identity a receiver's answers are matched on: the eventID where there is one. */
export function traceIdentity(e: EpcisEvent): string {
  return typeof e.eventID === "string" ? e.eventID : eventIdentity(e);
}

function classesIn(list: EpcisEvent["quantityList"]): string[] {
  return (list ?? []).map((q) => q.epcClass).filter((c): c is string => typeof c === "string");
}

function outputsOf(e: EpcisEvent): string[] {
  return [...(e.outputEPCList ?? []), ...classesIn(e.outputQuantityList)];
}

function inputsOf(e: EpcisEvent): string[] {
  return [...(e.inputEPCList ?? []), ...classesIn(e.inputQuantityList)];
}

function aggregated(e: EpcisEvent): string[] {
  const parent = typeof e.parentID === "string" ? [e.parentID] : [];
  return [...parent, ...(e.childEPCs ?? []), ...classesIn(e.childQuantityList)];
}

/** The events a set of identifiers and transformation ids selects, asked of the oracle as a receiver would ask. */
function selected(
  events: readonly EpcisEvent[],
  ids: ReadonlySet<string>,
  transformations: ReadonlySet<string>,
): EpcisEvent[] {
  const queries: EventQuery[] = [];
  if (ids.size > 0) queries.push({ MATCH_anyEPC: [...ids] }, { MATCH_anyEPCClass: [...ids] });
  if (transformations.size > 0) queries.push({ EQ_transformationID: [...transformations] });
  return queries.flatMap((q) => runOracle(events, q));
}

/** The trace below `identifier` (a Digital Link URI or EPC URN) over `events`. */
export function traceBelow(events: readonly EpcisEvent[], identifier: string): TraceSet {
  const identifiers = new Set([canonicalId(identifier)]);
  const transformations = new Set<string>();
  const trace = new Map<string, EpcisEvent>();
  for (;;) {
    const before = identifiers.size + transformations.size;
    for (const e of selected(events, identifiers, transformations)) trace.set(traceIdentity(e), e);
    for (const e of trace.values()) {
      if (e.type === "AggregationEvent") for (const id of aggregated(e)) identifiers.add(canonicalId(id));
      if (e.type !== "TransformationEvent") continue;
      if (!outputsOf(e).some((id) => identifiers.has(canonicalId(id)))) continue;
      for (const id of inputsOf(e)) identifiers.add(canonicalId(id));
      if (typeof e.transformationID === "string") transformations.add(e.transformationID);
    }
    if (identifiers.size + transformations.size === before) break;
  }
  const ordered = new Map<string, EpcisEvent>();
  for (const e of events) {
    const id = traceIdentity(e);
    if (trace.has(id)) ordered.set(id, e);
  }
  return { events: ordered, identifiers };
}
