// Where a definition declares x-std-core-events, and how its entries are read. Spec 6 says the signatures "are
// declared in the vendor extension `x-std-core-events`", and spec 9 that the definition carries it, but neither
// shows where in the definition it sits nor what shape it has: it is looked for wherever a reader would (at the
// top, else the nearest place in the document that carries it), and read in the shapes a reader would take for a
// table of events: a list of rows, or rows keyed by the event's name.
import { CORE_EVENTS } from "./core-events.ts";
import { escapePointer, isObject } from "./json-pointer.ts";
import type { JsonObject } from "./types.ts";

export const CORE_EVENTS_EXTENSION = "x-std-core-events";

/** The columns of a row, each under the names a definition may give it (compared without case or punctuation). */
const COLUMN_NAMES = {
  name: ["name", "event", "eventname", "coreevent", "coreeventname"],
  eventType: ["eventtype", "type"],
  action: ["action"],
  bizStep: ["bizstep", "businessstep"],
  disposition: ["disposition"],
} as const;

export type CoreEventColumn = keyof typeof COLUMN_NAMES;

/** A column of a row: the key it is written under (undefined when the row lacks it) and its value. */
export interface DeclaredColumn {
  key: string | undefined;
  value: unknown;
}

/** One row of x-std-core-events, as the definition writes it. */
export interface DeclaredCoreEvent {
  /** JSON pointer of the row. */
  at: string;
  /** The name of the core event of spec 6 the row is about; undefined when it names none of the seven. */
  name: string | undefined;
  /** The name as written, or undefined when the row names no event. */
  written: string | undefined;
  columns: Record<Exclude<CoreEventColumn, "name">, DeclaredColumn>;
}

export type FoundCoreEvents =
  | { found: false }
  /** `rows` is undefined when the value is not a list of rows, nor rows keyed by name. */
  | { found: true; at: string; value: unknown; rows: DeclaredCoreEvent[] | undefined };

/** An action cell that says the event type has none: absent, null, empty, or "none" (spec 6's own cell). */
export function noAction(value: unknown): boolean {
  return (
    value === undefined || value === null || (typeof value === "string" && /^\s*(none\b.*)?$/i.test(value))
  );
}

const plain = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** The spec 6 name a written name stands for, in any case and spelling of its punctuation. */
export function coreEventName(written: string): string | undefined {
  return CORE_EVENTS.find((e) => plain(e.name) === plain(written))?.name;
}

function column(row: JsonObject, name: CoreEventColumn): DeclaredColumn {
  const names: readonly string[] = COLUMN_NAMES[name];
  const key = Object.keys(row).find((k) => names.includes(plain(k)));
  return { key, value: key === undefined ? undefined : row[key] };
}

function readRow(row: unknown, at: string, keyName?: string): DeclaredCoreEvent {
  const fields = isObject(row) ? row : {};
  const own = column(fields, "name").value;
  const written = typeof own === "string" ? own : keyName;
  return {
    at,
    name: written === undefined ? undefined : coreEventName(written),
    written,
    columns: {
      eventType: column(fields, "eventType"),
      action: column(fields, "action"),
      bizStep: column(fields, "bizStep"),
      disposition: column(fields, "disposition"),
    },
  };
}

function readRows(value: unknown, at: string): DeclaredCoreEvent[] | undefined {
  if (Array.isArray(value)) return value.map((row, i) => readRow(row, `${at}/${i}`));
  if (!isObject(value)) return undefined;
  const entries = Object.entries(value);
  // Rows keyed by the event's name: { Commission: { eventType: …, action: … }, … }.
  if (entries.some(([key, row]) => isObject(row) && coreEventName(key) !== undefined)) {
    return entries
      .filter(([, row]) => isObject(row))
      .map(([key, row]) => readRow(row, `${at}/${escapePointer(key)}`, key));
  }
  // A list wrapped in an object of its own: { events: [ … ] }.
  const lists = entries.filter(([, v]) => Array.isArray(v));
  const only = lists.length === 1 ? lists[0] : undefined;
  return only === undefined ? undefined : readRows(only[1], `${at}/${escapePointer(only[0])}`);
}

/**
 * x-std-core-events where the definition declares it: at the top level, else the occurrence nearest to it (in
 * `info`, on an operation, among the components), read breadth first so that the shallowest one is taken.
 */
export function findCoreEvents(raw: JsonObject): FoundCoreEvents {
  const queue: { node: unknown; at: string }[] = [{ node: raw, at: "" }];
  const seen = new Set<unknown>();
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { node, at } = next;
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    if (isObject(node) && CORE_EVENTS_EXTENSION in node) {
      const where = `${at}/${CORE_EVENTS_EXTENSION}`;
      const value = node[CORE_EVENTS_EXTENSION];
      return { found: true, at: where, value, rows: readRows(value, where) };
    }
    const children = Array.isArray(node) ? node.entries() : Object.entries(node);
    for (const [key, child] of children)
      queue.push({ node: child, at: `${at}/${escapePointer(String(key))}` });
  }
  return { found: false };
}
