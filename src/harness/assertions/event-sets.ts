// Two event sets are equal up to identity (eventID, else a canonical hash): the one comparison every filter check
// makes against the oracle (ARCHITECTURE.md "Oracle plus metamorphic relations").
import { eventIdentity } from "../../model/index.ts";
import type { EpcisEvent } from "../../model/types.ts";

export interface SetComparison {
  equal: boolean;
  /** Identities expected but not answered. */
  missing: string[];
  /** Identities answered but not expected. */
  extra: string[];
  /** Identities answered more than once. */
  duplicated: string[];
}

export function identities(events: readonly EpcisEvent[]): string[] {
  return events.map((e) => eventIdentity(e));
}

/**
 * The answered events against the expected ones, by identity: each list in the order of first sight. Once per case
 * of every filter check, so it walks each list once and builds no list an equal answer does not need.
 */
export function compareEventSets(
  expected: readonly EpcisEvent[],
  actual: readonly EpcisEvent[],
): SetComparison {
  const want = new Set<string>();
  for (const e of expected) want.add(eventIdentity(e));
  const seen = new Set<string>();
  const extra: string[] = [];
  let twice: Set<string> | undefined;
  for (const e of actual) {
    const id = eventIdentity(e);
    if (seen.has(id)) {
      twice ??= new Set();
      twice.add(id);
      continue;
    }
    seen.add(id);
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

/** A short sentence for a failed comparison, naming a few ids of each kind. */
export function describeComparison(c: SetComparison, limit = 3): string {
  const parts: string[] = [];
  const few = (ids: string[]) => ids.slice(0, limit).join(", ") + (ids.length > limit ? ", …" : "");
  if (c.missing.length > 0) parts.push(`${c.missing.length} expected event(s) missing (${few(c.missing)})`);
  if (c.extra.length > 0) parts.push(`${c.extra.length} unexpected event(s) answered (${few(c.extra)})`);
  if (c.duplicated.length > 0)
    parts.push(`${c.duplicated.length} event(s) answered twice (${few(c.duplicated)})`);
  return parts.length === 0 ? "the sets are equal" : parts.join("; ");
}

/**
 * Every event of the lists once, by identity; the first copy seen is kept. Where that is the first list itself
 * (its events each once, and the others adding none), it is that list: the oracle answers a list it has seen
 * before from its index, and the known events joined with an answer of known events are the known events.
 */
export function unionOf(...lists: readonly (readonly EpcisEvent[])[]): readonly EpcisEvent[] {
  const byId = new Map<string, EpcisEvent>();
  /** How many identities the first list holds: all of its events, when it holds each once. */
  let firstHolds: number | undefined;
  for (const list of lists) {
    for (const e of list) {
      const id = eventIdentity(e);
      if (!byId.has(id)) byId.set(id, e);
    }
    firstHolds ??= byId.size;
  }
  const [first] = lists;
  return first !== undefined && firstHolds === first.length && byId.size === firstHolds
    ? first
    : [...byId.values()];
}
