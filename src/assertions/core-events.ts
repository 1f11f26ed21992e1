// Which of the seven core events (spec 6) an event is, and what it breaks. Spec 6 fixes each core event's event type
// and action, but which events are core events rests on the further columns the definition fixes ("The names and
// values of those further columns: not shown"), and the spec never says that only core events are served. So an
// event is taken for a core event when a row of x-std-core-events has its event type at its bizStep, the column
// that ties an event to a step of the controlled vocabulary ("plain EPCIS events with business steps from the
// controlled vocabulary"); it must then have that event's action. An event no row names (an AggregationEvent
// OBSERVE at receiving, a TransactionEvent at shipping) is a plain EPCIS event beside the core events, not a broken
// one. The rows are the run's definition's: tracecheck's own, whose columns the spec does not show (a warning), or
// a vendor's given with --definition (a failure). The remaining column, disposition, is judged apart.
// Each assertion returns undefined when the rule holds, else evidence whose message says what is wrong.
import {
  CORE_EVENTS,
  type CoreEventSignature,
  canonicalDisposition,
  type ValidationResult,
} from "../definition/index.ts";
import type { Evidence } from "../engine/types.ts";
import { bizStepsEqual, type EpcisEvent, eventIdentity } from "../model/index.ts";

/** A row as the checks use it: spec 6's event type and action for the name, the definition's further columns. */
export interface CoreRow {
  name: string;
  eventType: string;
  /** null: the event type has no action field (Transformation). */
  action: string | null;
  bizStep: string;
  /** null: the definition leaves the column not fixed (Decommission, Receiving). */
  disposition: string | null;
}

/**
 * The rows that take events for core events: each row of the definition that names one of the seven, with the
 * event type and action spec 6 gives that event (a definition that writes others is DEF-CORE-EVENTS's failure,
 * not its events').
 */
export function coreRowsOf(rows: readonly CoreEventSignature[]): CoreRow[] {
  return rows.flatMap((row) => {
    const spec = CORE_EVENTS.find((e) => e.name === row.name);
    if (spec === undefined) return [];
    const { name, eventType, action } = spec;
    return [{ name, eventType, action, bizStep: row.bizStep, disposition: row.disposition }];
  });
}

/**
 * "core": the event has the action of a core event it is taken for; "broken": it is taken for one or more core
 * events and has the action of none of them; "none": no row has its event type at its bizStep.
 */
export type Classification =
  | { kind: "core"; row: CoreRow }
  | { kind: "broken"; takenFor: CoreRow[] }
  | { kind: "none" };

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** The core events the event is taken for: the rows with its event type at its bizStep. */
export function takenFor(event: EpcisEvent, rows: readonly CoreRow[]): CoreRow[] {
  const bizStep = text(event.bizStep);
  if (bizStep === null) return [];
  return rows.filter((row) => row.eventType === event.type && bizStepsEqual(row.bizStep, bizStep));
}

export function classifyEvent(event: EpcisEvent, rows: readonly CoreRow[]): Classification {
  const taken = takenFor(event, rows);
  if (taken.length === 0) return { kind: "none" };
  const matched = taken.find((row) => text(event.action) === row.action);
  return matched === undefined ? { kind: "broken", takenFor: taken } : { kind: "core", row: matched };
}

/** The event's identity and its signature columns, as evidence shows them. */
function eventColumns(event: EpcisEvent): Record<string, unknown> {
  return {
    event: eventIdentity(event),
    type: event.type,
    action: event.action ?? null,
    bizStep: event.bizStep ?? null,
    disposition: event.disposition ?? null,
  };
}

const shownAction = (action: string | null) => action ?? "no action";
/** "a Shipping", "an Aggregation or Disaggregation". */
const names = (rows: readonly Pick<CoreRow, "name">[]) => {
  const listed = [...new Set(rows.map((r) => r.name))].join(" or ");
  return `${/^[AEIOU]/.test(listed) ? "an" : "a"} ${listed}`;
};
const alternatives = (values: readonly string[]) => [...new Set(values)].join(" or ");
const signature = (r: CoreRow) => `${r.name}: ${r.eventType} ${shownAction(r.action)} at ${r.bizStep}`;

/**
 * CORE-SIGNATURE: an event taken for a core event has the action spec 6 gives it (its event type is one of the
 * columns that take it for that event).
 */
export function coreSignatureProblem(event: EpcisEvent, rows: readonly CoreRow[]): Evidence | undefined {
  const c = classifyEvent(event, rows);
  if (c.kind !== "broken") return undefined;
  return {
    message: `event ${eventIdentity(event)} is ${names(c.takenFor)} (${event.type} at bizStep ${String(event.bizStep)}) with action ${shownAction(text(event.action))} where spec 6 fixes ${alternatives(c.takenFor.map((r) => shownAction(r.action)))}`,
    expected: c.takenFor.map(signature),
    actual: eventColumns(event),
  };
}

/** What a pass of CORE-SIGNATURE shows of a core event it judged, or undefined for an event that is none. */
export function coreSignatureShown(event: EpcisEvent, rows: readonly CoreRow[]): string | undefined {
  const c = classifyEvent(event, rows);
  if (c.kind !== "core") return undefined;
  return `event ${eventIdentity(event)} is ${names([c.row])} (${event.type} at bizStep ${String(event.bizStep)}) with action ${shownAction(text(event.action))}, as spec 6 fixes`;
}

/** A column of a core event's row in x-std-core-events that the event does not carry as the row fixes it. */
export interface ColumnMismatch {
  column: "disposition";
  expected: string;
  /** null: the event has no such field. */
  actual: string | null;
}

/**
 * The further columns of the event's row that the event breaks. Its bizStep took it for the row, so only the
 * disposition is left; a row that leaves it not fixed (Decommission, Receiving) holds any value.
 */
export function columnMismatches(event: EpcisEvent, row: CoreRow): ColumnMismatch[] {
  if (row.disposition === null) return [];
  const actual = text(event.disposition);
  if (actual !== null && canonicalDisposition(actual) === canonicalDisposition(row.disposition)) return [];
  return [{ column: "disposition", expected: row.disposition, actual }];
}

/**
 * CORE-COLUMNS: a core event has the further columns the definition's x-std-core-events fixes for it. Only an
 * event that has its core event's action is judged here (CORE-SIGNATURE judges the others), against the row it was
 * taken for; the bizStep took it for that row, so what is left to break is the disposition.
 */
export function coreColumnsProblem(event: EpcisEvent, rows: readonly CoreRow[]): Evidence | undefined {
  const c = classifyEvent(event, rows);
  if (c.kind !== "core") return undefined;
  const { row } = c;
  const mismatches = columnMismatches(event, row);
  if (mismatches.length === 0) return undefined;
  const parts = mismatches.map(
    (m) => `${m.column} ${m.actual ?? `no ${m.column}`} where x-std-core-events fixes ${m.expected}`,
  );
  return {
    message: `event ${eventIdentity(event)} is ${names([row])} (${row.eventType}) with ${parts.join(" and ")}`,
    expected: Object.fromEntries([["coreEvent", row.name], ...mismatches.map((m) => [m.column, m.expected])]),
    actual: eventColumns(event),
  };
}

/**
 * CORE-TYPE (SHOULD): the event is one of the seven core events. Spec 6 says the service serves the seven and
 * never that it serves only them, so an event beyond them is reported, never failed.
 */
export function coreTypeProblem(event: EpcisEvent, rows: readonly CoreRow[]): Evidence | undefined {
  if (classifyEvent(event, rows).kind !== "none") return undefined;
  const bizStep = text(event.bizStep);
  return {
    message: `event ${eventIdentity(event)} (${event.type}, ${bizStep === null ? "no bizStep" : `bizStep ${bizStep}`}) matches none of the core event signatures: no row of x-std-core-events has event type ${event.type} at ${bizStep === null ? "an event without bizStep" : `bizStep ${bizStep}`}`,
    expected: rows.map(signature),
    actual: eventColumns(event),
  };
}

/** CORE-MODULE-*: the event meets a commodity module's payload schema (spec 1). */
export function moduleProblem(
  module: string,
  event: EpcisEvent,
  result: ValidationResult,
): Evidence | undefined {
  if (result.valid) return undefined;
  const few = result.errors.slice(0, 3).join("; ") + (result.errors.length > 3 ? "; …" : "");
  return {
    message: `event ${eventIdentity(event)} does not meet the ${module} module schema: ${few}`,
    expected: `an event valid against the ${module} module schema`,
    actual: { event: eventIdentity(event), errors: result.errors },
  };
}
