// Which of the seven core events (spec 6) an event is, and what it breaks. An event is taken for a core event by
// the CBV step that names it (commissioning, decommissioning, shipping, receiving) or by its type
// (AggregationEvent, TransformationEvent); the event type and action of the spec's table are then a MUST. The
// further columns (bizStep, disposition) are fixed only by a definition's x-std-core-events, and are judged apart.
// Each assertion returns undefined when the rule holds, else evidence whose message says what is wrong.
import {
  CORE_EVENTS,
  type CoreEventSignature,
  canonicalDisposition,
  type ValidationResult,
} from "../../definition/index.ts";
import { bizStepsEqual, type EpcisEvent, eventIdentity } from "../../model/index.ts";
import type { Evidence } from "../types.ts";

/** A row of the spec 6 table: the event, its event type and its action (null: the type has no action field). */
export type SpecRow = Pick<CoreEventSignature, "name" | "eventType" | "action">;

/** The table of spec 6, as CORE_EVENTS carries it: name, event type and action are the spec's own columns. */
export const SPEC_ROWS: readonly SpecRow[] = CORE_EVENTS.map(({ name, eventType, action }) => ({
  name,
  eventType,
  action,
}));

/** The CBV business step that names each of four core events: a Shipping is an event at step shipping. */
export const STEP_NAMING: Readonly<Record<string, string>> = Object.freeze({
  Commission: "commissioning",
  Decommission: "decommissioning",
  Shipping: "shipping",
  Receiving: "receiving",
});

/** The event types that name the other three: an AggregationEvent is an Aggregation or a Disaggregation. */
export const TYPE_NAMING: readonly string[] = ["AggregationEvent", "TransformationEvent"];

/**
 * "core": the event has the type and action of a core event it is taken for; "broken": it is taken for one or more
 * core events and has the type and action of none of them; "none": neither its bizStep nor its type names one.
 */
export type Classification =
  | { kind: "core"; name: string }
  | { kind: "broken"; takenFor: SpecRow[] }
  | { kind: "none" };

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** The core events the event is taken for: those its bizStep names and those its type names. */
export function takenFor(event: EpcisEvent): SpecRow[] {
  const bizStep = text(event.bizStep);
  return SPEC_ROWS.filter((row) => {
    const step = STEP_NAMING[row.name];
    if (step !== undefined) return bizStep !== null && bizStepsEqual(step, bizStep);
    return TYPE_NAMING.includes(row.eventType) && row.eventType === event.type;
  });
}

function hasSignature(row: SpecRow, event: EpcisEvent): boolean {
  return row.eventType === event.type && text(event.action) === row.action;
}

/**
 * Where the two namings disagree (a TransformationEvent at commissioning, an AggregationEvent ADD at shipping), the
 * event is the core event whose type and action it has: the spec fixes each event's signature, not which of two
 * names an event that could bear both must take.
 */
export function classifyEvent(event: EpcisEvent): Classification {
  const rows = takenFor(event);
  if (rows.length === 0) return { kind: "none" };
  const matched = rows.find((row) => hasSignature(row, event));
  return matched === undefined ? { kind: "broken", takenFor: rows } : { kind: "core", name: matched.name };
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
const names = (rows: readonly SpecRow[]) => {
  const listed = [...new Set(rows.map((r) => r.name))].join(" or ");
  return `${/^[AEIOU]/.test(listed) ? "an" : "a"} ${listed}`;
};
const alternatives = (values: readonly string[]) => [...new Set(values)].join(" or ");

function namedBy(event: EpcisEvent, rows: readonly SpecRow[]): string {
  const byStep = rows.some((r) => STEP_NAMING[r.name] !== undefined);
  const byType = rows.some((r) => STEP_NAMING[r.name] === undefined);
  const how = [byStep ? `its bizStep ${String(event.bizStep)}` : "", byType ? `its type ${event.type}` : ""];
  return how.filter((h) => h !== "").join(" and ");
}

/**
 * CORE-SIGNATURE (MUST): an event taken for a core event has the event type and action of the spec 6 table. An
 * event of the right type with another action is that event with the wrong action; an event of none of their
 * types has the wrong type.
 */
export function coreSignatureProblem(event: EpcisEvent): Evidence | undefined {
  const c = classifyEvent(event);
  if (c.kind !== "broken") return undefined;
  const sameType = c.takenFor.filter((r) => r.eventType === event.type);
  const message =
    sameType.length > 0
      ? `event ${eventIdentity(event)} is ${names(sameType)} (${event.type}, by ${namedBy(event, sameType)}) with action ${shownAction(text(event.action))} where spec 6 fixes ${alternatives(sameType.map((r) => shownAction(r.action)))}`
      : `event ${eventIdentity(event)} is ${names(c.takenFor)} (by ${namedBy(event, c.takenFor)}) of type ${event.type} where spec 6 fixes ${alternatives(c.takenFor.map((r) => r.eventType))}`;
  return {
    message,
    expected: c.takenFor.map((r) => `${r.name}: ${r.eventType} ${shownAction(r.action)}`),
    actual: eventColumns(event),
  };
}

/** A column of a core event's row in x-std-core-events that the event does not carry as the row fixes it. */
export interface ColumnMismatch {
  column: "bizStep" | "disposition";
  expected: string;
  /** null: the event has no such field. */
  actual: string | null;
}

/** The columns of the definition's row for the event's core event that the event breaks. */
export function columnMismatches(event: EpcisEvent, row: CoreEventSignature): ColumnMismatch[] {
  const found: ColumnMismatch[] = [];
  const bizStep = text(event.bizStep);
  if (bizStep === null || !bizStepsEqual(row.bizStep, bizStep)) {
    found.push({ column: "bizStep", expected: row.bizStep, actual: bizStep });
  }
  // A null disposition is a column the definition leaves not fixed (Decommission, Receiving): any value holds.
  if (row.disposition !== null) {
    const actual = text(event.disposition);
    if (actual === null || canonicalDisposition(actual) !== canonicalDisposition(row.disposition)) {
      found.push({ column: "disposition", expected: row.disposition, actual });
    }
  }
  return found;
}

/**
 * CORE-COLUMNS: a core event has the further columns the definition's x-std-core-events fixes for it. Only an
 * event that has its core event's type and action is judged here (CORE-SIGNATURE judges the others), against the
 * row of the same name; a definition without that row fixes nothing for it.
 */
export function coreColumnsProblem(
  event: EpcisEvent,
  rows: readonly CoreEventSignature[],
): Evidence | undefined {
  const c = classifyEvent(event);
  if (c.kind !== "core") return undefined;
  const row = rows.find((r) => r.name === c.name);
  if (row === undefined) return undefined;
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

/** CORE-TYPE (SHOULD): the event is one of the seven core events. */
export function coreTypeProblem(event: EpcisEvent): Evidence | undefined {
  if (classifyEvent(event).kind !== "none") return undefined;
  const bizStep = text(event.bizStep);
  return {
    message: `event ${eventIdentity(event)} (${event.type}, ${bizStep === null ? "no bizStep" : `bizStep ${bizStep}`}) matches none of the core event signatures: its bizStep is none of ${Object.values(STEP_NAMING).join(", ")} and its type is neither ${TYPE_NAMING.join(" nor ")}`,
    expected: SPEC_ROWS.map(
      (r) =>
        `${r.name}: ${r.eventType} ${shownAction(r.action)}${STEP_NAMING[r.name] ? ` at ${STEP_NAMING[r.name]}` : ""}`,
    ),
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
