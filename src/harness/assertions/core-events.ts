// Which of the seven core events (spec 6) an event is, read against the signature columns of x-std-core-events,
// and what it breaks. Each assertion returns undefined when the rule holds, else evidence whose message says
// what is wrong.
import {
  type CoreEventSignature,
  canonicalDisposition,
  type ValidationResult,
} from "../../definition/index.ts";
import { bizStepsEqual, type EpcisEvent, eventIdentity } from "../../model/index.ts";
import type { Evidence } from "../types.ts";

/** A column of a core event's row that the event does not carry as the row fixes it. */
export interface ColumnMismatch {
  column: "action" | "disposition";
  /** null for action: the event type has none (TransformationEvent). */
  expected: string | null;
  /** null: the event has no such field. */
  actual: string | null;
}

/**
 * "core": the event's type and bizStep name a row of the table, with the columns it breaks (none when it is that
 * core event); "none": no row has its type and bizStep, so it is outside the seven.
 */
export type Classification =
  | { kind: "core"; signature: CoreEventSignature; mismatches: ColumnMismatch[] }
  | { kind: "none" };

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function actionMismatch(row: CoreEventSignature, event: EpcisEvent): ColumnMismatch | undefined {
  const actual = text(event.action);
  return actual === row.action ? undefined : { column: "action", expected: row.action, actual };
}

function dispositionMismatch(row: CoreEventSignature, event: EpcisEvent): ColumnMismatch | undefined {
  // A null disposition is a column the definition leaves not fixed (Decommission, Receiving): any value holds.
  if (row.disposition === null) return undefined;
  const actual = text(event.disposition);
  if (actual !== null && canonicalDisposition(actual) === canonicalDisposition(row.disposition))
    return undefined;
  return { column: "disposition", expected: row.disposition, actual };
}

function mismatchesOf(row: CoreEventSignature, event: EpcisEvent): ColumnMismatch[] {
  return [actionMismatch(row, event), dispositionMismatch(row, event)].filter(
    (m): m is ColumnMismatch => m !== undefined,
  );
}

/**
 * The row whose event type, action and bizStep (in any of its three forms, spec 2.1) the event has. An event
 * whose type and bizStep name a row but whose action differs is that row broken, not an event outside the seven:
 * an ObjectEvent OBSERVE with bizStep commissioning is a Commission with the wrong action.
 */
export function classifyEvent(event: EpcisEvent, rows: readonly CoreEventSignature[]): Classification {
  const bizStep = text(event.bizStep);
  if (bizStep === null) return { kind: "none" };
  const candidates = rows.filter((r) => r.eventType === event.type && bizStepsEqual(r.bizStep, bizStep));
  const first = candidates[0];
  if (first === undefined) return { kind: "none" };
  const signature = candidates.find((r) => actionMismatch(r, event) === undefined) ?? first;
  return { kind: "core", signature, mismatches: mismatchesOf(signature, event) };
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

function shown(value: string | null, column: ColumnMismatch["column"]): string {
  if (value !== null) return value;
  return column === "action" ? "no action" : "no disposition";
}

/** CORE-SIGNATURE: an event that is one of the core events has every fixed column of its row. */
export function coreSignatureProblem(
  event: EpcisEvent,
  rows: readonly CoreEventSignature[],
): Evidence | undefined {
  const c = classifyEvent(event, rows);
  if (c.kind === "none" || c.mismatches.length === 0) return undefined;
  const parts = c.mismatches.map(
    (m) =>
      `${m.column} ${shown(m.actual, m.column)} where x-std-core-events fixes ${shown(m.expected, m.column)}`,
  );
  return {
    message: `event ${eventIdentity(event)} is a ${c.signature.name} (${c.signature.eventType}, bizStep ${c.signature.bizStep}) with ${parts.join(" and ")}`,
    expected: Object.fromEntries([
      ["coreEvent", c.signature.name],
      ...c.mismatches.map((m) => [m.column, m.expected]),
    ]),
    actual: eventColumns(event),
  };
}

/** CORE-TYPE: the event matches one of the core event signatures. */
export function coreTypeProblem(
  event: EpcisEvent,
  rows: readonly CoreEventSignature[],
): Evidence | undefined {
  if (classifyEvent(event, rows).kind === "core") return undefined;
  const bizStep = text(event.bizStep);
  return {
    message: `event ${eventIdentity(event)} (${event.type}, ${bizStep === null ? "no bizStep" : `bizStep ${bizStep}`}) matches none of the core event signatures`,
    expected: rows.map((r) => `${r.name}: ${r.eventType} ${r.action ?? "(no action)"} ${r.bizStep}`),
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
