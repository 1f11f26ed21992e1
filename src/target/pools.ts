// The values a query can be drawn from, taken from the events the target holds: each EPC field and each quantity
// list on its own (one requirement each, spec 4.1), bizSteps, locations, transformation ids and instants.
import { formatInstant, parseInstant } from "../model/index.ts";
import { CLASS_LISTS, type ClassList, EPC_FIELDS, type EpcField, type EpcisEvent } from "../model/types.ts";

export { EPC_FIELDS, type EpcField };
export const CLASS_FIELDS = CLASS_LISTS;
export type ClassField = ClassList;

export interface ValuePools {
  epcs: Record<EpcField, string[]>;
  classes: Record<ClassField, string[]>;
  bizSteps: string[];
  locations: string[];
  transformationIds: string[];
  /** eventTime and recordTime values as written, only those that are instants. */
  eventTimes: string[];
  recordTimes: string[];
  /** GS1 company prefixes read from the EPC URNs of the events: what converting a Digital Link to a URN needs. */
  companyPrefixes: string[];
}

export function epcsIn(e: EpcisEvent, field: EpcField): string[] {
  const v = e[field];
  if (typeof v === "string") return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

export function classesIn(e: EpcisEvent, field: ClassField): string[] {
  const list = e[field];
  if (!Array.isArray(list)) return [];
  return list
    .map((q: unknown) =>
      q !== null && typeof q === "object" ? (q as { epcClass?: unknown }).epcClass : undefined,
    )
    .filter((c): c is string => typeof c === "string");
}

export function locationOf(e: EpcisEvent): string | undefined {
  const id = e.bizLocation?.id;
  return typeof id === "string" ? id : undefined;
}

/**
 * True for a value with characters beyond letters, digits and the URI punctuation ":/._~-": the values whose
 * percent-encoding EVT-ENCODING checks, kept out of the checks of single fields where possible so that an encoding
 * defect is reported once, under its own requirement.
 */
export function needsEscaping(value: string): boolean {
  return /[^A-Za-z0-9:/._~-]/.test(value);
}

// A value without "%" and "+" reads the same after a second decoding, form decoding included, so a server that
// decodes twice still finds it.
function survivesDecodingTwice(value: string): boolean {
  return !/[%+]/.test(value);
}

/**
 * The values that need no escaping when there are any; else those that a second decoding leaves alone; else all.
 * A field whose values all need escaping is still checked, with the values least exposed to an encoding defect.
 */
export function plainFirst(values: readonly string[]): string[] {
  const plain = values.filter((v) => !needsEscaping(v));
  if (plain.length > 0) return plain;
  const robust = values.filter(survivesDecodingTwice);
  return robust.length > 0 ? robust : [...values];
}

const URN_PREFIX = /^urn:epc:(?:id|class|idpat):(?:sgtin|lgtin|sscc|sgln|pgln):(\d+)\./;

/**
 * Whether a bound can be taken at the instant: it parses, and so does its UTC form (spec 4.1 types the bounds "in
 * UTC"), which an event at the calendar's edge written at an offset (0001-01-01T00:30:00+01:00) has not: its UTC
 * year is 0000.
 */
function isInstant(value: string): boolean {
  try {
    parseInstant(formatInstant(parseInstant(value)));
    return true;
  } catch {
    return false;
  }
}

class Collector {
  readonly #values = new Set<string>();

  // A value holding a pipe cannot be sent: the pipe separates alternatives (spec 4.1 rule 1).
  add(value: unknown): void {
    if (typeof value === "string" && value !== "" && !value.includes("|")) this.#values.add(value);
  }

  sorted(): string[] {
    return [...this.#values].sort();
  }
}

/** Sorted, distinct values per kind, so that a seed draws the same cases from the same events. */
export function valuePools(events: readonly EpcisEvent[]): ValuePools {
  const epcs = Object.fromEntries(EPC_FIELDS.map((f) => [f, new Collector()])) as Record<EpcField, Collector>;
  const classes = Object.fromEntries(CLASS_FIELDS.map((f) => [f, new Collector()])) as Record<
    ClassField,
    Collector
  >;
  const bizSteps = new Collector();
  const locations = new Collector();
  const transformationIds = new Collector();
  const eventTimes = new Collector();
  const recordTimes = new Collector();
  const prefixes = new Collector();
  const notePrefix = (value: string) => prefixes.add(URN_PREFIX.exec(value)?.[1]);
  for (const e of events) {
    for (const f of EPC_FIELDS) {
      for (const v of epcsIn(e, f)) {
        epcs[f].add(v);
        notePrefix(v);
      }
    }
    for (const f of CLASS_FIELDS) {
      for (const v of classesIn(e, f)) {
        classes[f].add(v);
        notePrefix(v);
      }
    }
    bizSteps.add(e.bizStep);
    const location = locationOf(e);
    locations.add(location);
    if (location !== undefined) notePrefix(location);
    const readPoint = e.readPoint?.id;
    if (typeof readPoint === "string") notePrefix(readPoint);
    transformationIds.add(e.transformationID);
    if (typeof e.eventTime === "string" && isInstant(e.eventTime)) eventTimes.add(e.eventTime);
    if (typeof e.recordTime === "string" && isInstant(e.recordTime)) recordTimes.add(e.recordTime);
  }
  return {
    epcs: Object.fromEntries(EPC_FIELDS.map((f) => [f, epcs[f].sorted()])) as Record<EpcField, string[]>,
    classes: Object.fromEntries(CLASS_FIELDS.map((f) => [f, classes[f].sorted()])) as Record<
      ClassField,
      string[]
    >,
    bizSteps: bizSteps.sorted(),
    locations: locations.sorted(),
    transformationIds: transformationIds.sorted(),
    eventTimes: eventTimes.sorted(),
    recordTimes: recordTimes.sorted(),
    companyPrefixes: prefixes.sorted(),
  };
}
