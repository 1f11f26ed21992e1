// Two event sets are equal up to identity (eventID, else a canonical hash): the one comparison every filter check
// makes against the oracle (ARCHITECTURE.md "Oracle plus metamorphic relations").

import type { EventValues } from "../engine/types.ts";
import { eventIdentity, formatInstant, matchesQuery, parseInstant } from "../model/index.ts";
import {
  CLASS_LISTS,
  EPC_LIST_FIELDS,
  type EpcisEvent,
  type EventQuery,
  type TimeParameter,
} from "../model/types.ts";

export interface SetComparison {
  equal: boolean;
  /** Identities expected but not answered. */
  missing: string[];
  /** Identities answered but not expected. */
  extra: string[];
  /** Identities answered more times than the expected list holds them (and more than once). */
  duplicated: string[];
}

export function identities(events: readonly EpcisEvent[]): string[] {
  return events.map((e) => eventIdentity(e));
}

/**
 * The answered events against the expected ones, by identity: each list in the order of first sight. An identity
 * the expected list holds n times may be answered up to n times (at least once): EPCIS makes eventID optional, so a
 * repository may hold one identity more than once (the same event captured twice), and the expected events, drawn
 * from what it holds, carry its copies; only copies beyond those are answered twice. Once per case of every filter
 * check, so it walks each list once and builds no list an equal answer does not need.
 */
export function compareEventSets(
  expected: readonly EpcisEvent[],
  actual: readonly EpcisEvent[],
): SetComparison {
  /** How many times each expected identity may be answered, beyond once, where it is more. */
  let copies: Map<string, number> | undefined;
  const want = new Set<string>();
  for (const e of expected) {
    const id = eventIdentity(e);
    if (want.has(id)) {
      copies ??= new Map();
      copies.set(id, (copies.get(id) ?? 1) + 1);
    } else want.add(id);
  }
  const seen = new Map<string, number>();
  const extra: string[] = [];
  let twice: Set<string> | undefined;
  for (const e of actual) {
    const id = eventIdentity(e);
    const times = (seen.get(id) ?? 0) + 1;
    seen.set(id, times);
    if (times > 1) {
      if (times > (copies?.get(id) ?? 1)) {
        twice ??= new Set();
        twice.add(id);
      }
      continue;
    }
    if (!want.has(id)) extra.push(id);
  }
  // The identities seen that were wanted are all those wanted exactly when they are as many.
  const missing = seen.size - extra.length === want.size ? [] : [...want].filter((id) => !seen.has(id));
  const duplicated = twice === undefined ? [] : [...twice];
  return {
    equal: missing.length === 0 && extra.length === 0 && duplicated.length === 0,
    missing,
    extra,
    duplicated,
  };
}

/**
 * A short sentence for a failed comparison, naming a few ids of each kind; with `values`, each id is followed by
 * what its event holds in the fields the query reads (valuesInWords).
 */
export function describeComparison(
  c: SetComparison,
  limit = 3,
  values?: Readonly<Record<string, EventValues>>,
): string {
  const parts: string[] = [];
  const named = (id: string) => {
    const v = values?.[id];
    const words = v === undefined ? "" : valuesInWords(v);
    return words === "" ? id : `${id} with ${words}`;
  };
  // Values hold commas of their own, so the events they follow are parted by semicolons.
  const separator = values === undefined ? ", " : "; ";
  const few = (ids: string[]) =>
    ids.slice(0, limit).map(named).join(separator) + (ids.length > limit ? `${separator}…` : "");
  if (c.missing.length > 0) parts.push(`${c.missing.length} expected event(s) missing (${few(c.missing)})`);
  if (c.extra.length > 0) parts.push(`${c.extra.length} unexpected event(s) answered (${few(c.extra)})`);
  if (c.duplicated.length > 0)
    parts.push(`${c.duplicated.length} event(s) answered twice (${few(c.duplicated)})`);
  return parts.length === 0 ? "the sets are equal" : parts.join("; ");
}

/**
 * Every event of the lists by identity, each identity as many times as the list that holds it most holds it (a list
 * of the known events holds an identity the repository holds twice twice); the first copies seen are kept. Where
 * that is the first list itself (the others adding nothing), it is that list: the oracle answers a list it has seen
 * before from its index, and the known events joined with an answer of known events are the known events.
 */
export function unionOf(...lists: readonly (readonly EpcisEvent[])[]): readonly EpcisEvent[] {
  const byId = new Map<string, EpcisEvent[]>();
  let added = false;
  lists.forEach((list, at) => {
    /** How many times this list has held each identity so far. */
    const times = new Map<string, number>();
    for (const e of list) {
      const id = eventIdentity(e);
      const n = (times.get(id) ?? 0) + 1;
      times.set(id, n);
      const kept = byId.get(id);
      if (kept === undefined) byId.set(id, [e]);
      else if (n > kept.length) kept.push(e);
      else continue;
      if (at > 0) added = true;
    }
  });
  const [first] = lists;
  return first !== undefined && !added ? first : [...byId.values()].flat();
}

/** Every identity of the events once, the first copy seen: an answer's repeats set aside. */
export function distinct(events: readonly EpcisEvent[]): readonly EpcisEvent[] {
  const byId = new Map<string, EpcisEvent>();
  for (const e of events) {
    const id = eventIdentity(e);
    if (!byId.has(id)) byId.set(id, e);
  }
  return byId.size === events.length ? events : [...byId.values()];
}

/** Values of one list shown in evidence; the rest are counted (EventValues.more). */
const LIST_SHOWN = 10;

const TIME_FIELD: Record<TimeParameter, "eventTime" | "recordTime"> = {
  LT_recordTime: "recordTime",
  GE_recordTime: "recordTime",
  LT_eventTime: "eventTime",
  GE_eventTime: "eventTime",
};

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** The list cut to LIST_SHOWN, the values that meet the query first; `left` is told how many were left out. */
function shown(
  values: readonly string[],
  meets: (v: string) => boolean,
  left: (n: number) => void,
): string[] {
  if (values.length <= LIST_SHOWN) return [...values];
  const first = values.filter(meets);
  const kept = [...first, ...values.filter((v) => !first.includes(v))].slice(0, LIST_SHOWN);
  left(values.length - kept.length);
  return kept;
}

/**
 * What an event holds in the fields the query reads (spec 2.1), written as the event writes them: the values that
 * decide whether it meets the query, for evidence beside the bound or value asked. Values that are not strings
 * where the spec's fields hold strings are left out (a shape defect, EVT-SHAPE-SCHEMA, not a value to compare).
 */
export function decidingValues(e: EpcisEvent, query: EventQuery): EventValues {
  const out: EventValues = {};
  const more: Record<string, number> = {};
  for (const p of Object.keys(TIME_FIELD) as TimeParameter[]) {
    const field = TIME_FIELD[p];
    const at = e[field];
    if (query[p] !== undefined && typeof at === "string") out[field] = at;
  }
  if (query.EQ_bizStep !== undefined && typeof e.bizStep === "string") out.bizStep = e.bizStep;
  if (query.EQ_transformationID !== undefined && typeof e.transformationID === "string") {
    out.transformationID = e.transformationID;
  }
  const location = e.bizLocation?.id;
  if (query.EQ_bizLocation !== undefined && typeof location === "string") out.bizLocation = { id: location };
  const epcs = query.MATCH_anyEPC;
  if (epcs !== undefined) {
    const meets = (epc: string) => matchesQuery({ type: "", epcList: [epc] }, { MATCH_anyEPC: epcs });
    for (const field of EPC_LIST_FIELDS) {
      const list = strings(e[field]);
      if (list.length > 0) out[field] = shown(list, meets, (n) => (more[field] = n));
    }
    if (typeof e.parentID === "string") out.parentID = e.parentID;
  }
  const classes = query.MATCH_anyEPCClass;
  if (classes !== undefined) {
    const meets = (c: string) =>
      matchesQuery({ type: "", quantityList: [{ epcClass: c }] }, { MATCH_anyEPCClass: classes });
    for (const field of CLASS_LISTS) {
      const list = Array.isArray(e[field])
        ? strings(e[field].map((q: unknown) => (q as { epcClass?: unknown } | null)?.epcClass))
        : [];
      if (list.length > 0) {
        out[field] = shown(list, meets, (n) => (more[field] = n)).map((epcClass) => ({ epcClass }));
      }
    }
  }
  if (Object.keys(more).length > 0) out.more = more;
  return out;
}

/** The deciding values of the listed events, by identity, for the ids among `ids` found in `events`. */
export function decidingValuesOf(
  ids: readonly string[],
  events: readonly EpcisEvent[],
  query: EventQuery,
): Record<string, EventValues> {
  if (ids.length === 0) return {};
  const wanted = new Set(ids);
  const out: Record<string, EventValues> = {};
  for (const e of events) {
    const id = eventIdentity(e);
    if (wanted.has(id) && !(id in out)) out[id] = decidingValues(e, query);
  }
  return out;
}

/** A time as written, and in UTC beside it when it is written at another offset, so that it reads against a bound. */
function timeWords(written: string): string {
  if (written.endsWith("Z")) return written;
  try {
    return `${written} (${formatInstant(parseInstant(written))})`;
  } catch {
    return written;
  }
}

/** Values in a few words for a sentence, e.g. "eventTime 2021-04-18T04:41:17Z, bizStep shipping". */
export function valuesInWords(v: EventValues): string {
  const parts: string[] = [];
  const few = (list: readonly string[], more = 0) => {
    const cut = list.length > 2 ? 2 : list.length;
    const left = list.length - cut + more;
    return `${list.slice(0, cut).join(", ")}${left > 0 ? ` and ${left} more` : ""}`;
  };
  if (v.eventTime !== undefined) parts.push(`eventTime ${timeWords(v.eventTime)}`);
  if (v.recordTime !== undefined) parts.push(`recordTime ${timeWords(v.recordTime)}`);
  if (v.bizStep !== undefined) parts.push(`bizStep ${v.bizStep}`);
  for (const field of EPC_LIST_FIELDS) {
    const list = v[field];
    if (list !== undefined) parts.push(`${field} ${few(list, v.more?.[field])}`);
  }
  if (v.parentID !== undefined) parts.push(`parentID ${v.parentID}`);
  for (const field of CLASS_LISTS) {
    const list = v[field];
    if (list !== undefined)
      parts.push(
        `${field} ${few(
          list.map((q) => q.epcClass),
          v.more?.[field],
        )}`,
      );
  }
  if (v.bizLocation !== undefined) parts.push(`bizLocation ${v.bizLocation.id}`);
  if (v.transformationID !== undefined) parts.push(`transformationID ${v.transformationID}`);
  return parts.join(", ");
}
