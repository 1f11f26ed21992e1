// The query oracle: the events a correct server returns for a query (spec 4.1), as a plain filter written for
// clarity. The reference sender answers from indexes and is held equal to this by a property test.
import { bizStepsEqual } from "./bizstep.ts";
import { classMatches, idsEqual } from "./identifiers.ts";
import { compareInstants, parseInstant } from "./instant.ts";
import type { EpcisEvent, EventQuery, Instant } from "./types.ts";

function instantOf(value: string | undefined): Instant | undefined {
  if (value === undefined) return undefined;
  try {
    return parseInstant(value);
  } catch {
    return undefined;
  }
}

// LT_ is strict and GE_ inclusive; an event lacking the field (or with an unreadable one) never meets a bound.
function withinBounds(value: string | undefined, lt: string | undefined, ge: string | undefined): boolean {
  if (lt === undefined && ge === undefined) return true;
  const at = instantOf(value);
  if (at === undefined) return false;
  if (lt !== undefined && compareInstants(at, parseInstant(lt)) >= 0) return false;
  if (ge !== undefined && compareInstants(at, parseInstant(ge)) < 0) return false;
  return true;
}

function epcsOf(e: EpcisEvent): string[] {
  const parent = typeof e.parentID === "string" ? [e.parentID] : [];
  return [
    ...(e.epcList ?? []),
    ...(e.childEPCs ?? []),
    ...parent,
    ...(e.inputEPCList ?? []),
    ...(e.outputEPCList ?? []),
  ];
}

function classesOf(e: EpcisEvent): string[] {
  return [
    ...(e.quantityList ?? []),
    ...(e.childQuantityList ?? []),
    ...(e.inputQuantityList ?? []),
    ...(e.outputQuantityList ?? []),
  ]
    .map((q) => q.epcClass)
    .filter((c): c is string => typeof c === "string");
}

// OR among the values of one list parameter; a parameter sent with no values selects nothing.
function anyOf(values: string[] | undefined, test: (value: string) => boolean): boolean {
  return values === undefined || values.some(test);
}

/** Whether an event is selected by a query: parameters combine as AND, list values as OR (spec 4.1). */
export function matchesQuery(e: EpcisEvent, q: EventQuery): boolean {
  if (!withinBounds(e.recordTime, q.LT_recordTime, q.GE_recordTime)) return false;
  if (!withinBounds(e.eventTime, q.LT_eventTime, q.GE_eventTime)) return false;
  if (!anyOf(q.MATCH_anyEPC, (v) => epcsOf(e).some((epc) => idsEqual(v, epc)))) return false;
  if (!anyOf(q.MATCH_anyEPCClass, (v) => classesOf(e).some((c) => classMatches(v, c)))) return false;
  if (!anyOf(q.EQ_bizStep, (v) => typeof e.bizStep === "string" && bizStepsEqual(v, e.bizStep))) return false;
  if (!anyOf(q.EQ_transformationID, (v) => e.transformationID === v)) return false;
  const location = e.bizLocation?.id;
  if (!anyOf(q.EQ_bizLocation, (v) => typeof location === "string" && idsEqual(v, location))) return false;
  return true;
}

/** The events selected by a query, in input order. Throws RangeError when a time bound is not an instant. */
export function runOracle(events: readonly EpcisEvent[], q: EventQuery): EpcisEvent[] {
  for (const bound of [q.LT_recordTime, q.GE_recordTime, q.LT_eventTime, q.GE_eventTime]) {
    if (bound !== undefined) parseInstant(bound);
  }
  return events.filter((e) => matchesQuery(e, q));
}
