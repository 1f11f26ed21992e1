// An answer of GET /events judged against the oracle (spec 4.1), and two event sets judged against each other for
// the metamorphic relations (ARCHITECTURE.md "Oracle plus metamorphic relations").
import { encodeQuery, eventIdentity, matchesQuery, runOracle } from "../model/index.ts";
import type { EpcisEvent, EventQuery } from "../model/types.ts";
import { compareEventSets, decidingValuesOf, describeComparison, type SetComparison } from "./event-sets.ts";
import type { Failure } from "./failure.ts";

/** Ids listed in evidence per kind; the counts in the reason stay exact. */
const LISTED_IDS = 50;

export interface AnswerCheck {
  query: EventQuery;
  /** The events the target answered, every page read. */
  answered: readonly EpcisEvent[];
  /** The events the harness knows the target holds (the baseline, perhaps with more events seen since). */
  known: readonly EpcisEvent[];
  /**
   * Whether an expected event that was not answered counts against this check. A check about one field leaves
   * the events that match only through another field to that field's own check. Default: every one counts.
   */
  blames?: (expected: EpcisEvent) => boolean;
}

function listed(ids: readonly string[]): string[] {
  return ids.slice(0, LISTED_IDS);
}

/**
 * What is wrong with an answer, or undefined: expected events that are missing (as far as `blames` counts them),
 * answered events that do not meet the query, and events answered twice. An answered event the harness did not
 * know but which meets the query is no fault of the filter: the known events may be partial.
 */
export function answerProblem(check: AnswerCheck): Failure | undefined {
  const expected = runOracle(check.known, check.query);
  const comparison = compareEventSets(expected, check.answered);
  const blames = check.blames ?? (() => true);
  // Most answers are right: the events by identity are looked up only for an answer that is not.
  const byId = (events: readonly EpcisEvent[]) => new Map(events.map((e) => [eventIdentity(e), e]));
  const expectedById = comparison.missing.length === 0 ? undefined : byId(expected);
  const missing = comparison.missing.filter((id) => {
    const e = expectedById?.get(id);
    return e !== undefined && blames(e);
  });
  const answeredById = comparison.extra.length === 0 ? undefined : byId(check.answered);
  const extra = comparison.extra.filter((id) => {
    const e = answeredById?.get(id);
    return e !== undefined && !matchesQuery(e, check.query);
  });
  const judged: SetComparison = {
    equal: missing.length === 0 && extra.length === 0 && comparison.duplicated.length === 0,
    missing,
    extra,
    duplicated: comparison.duplicated,
  };
  if (judged.equal) return undefined;
  const wire = encodeQuery(check.query);
  // The values that decide each listed event, beside the query's bounds and values (spec 2.1's fields).
  const eventValues = {
    ...decidingValuesOf(listed(missing), expected, check.query),
    ...decidingValuesOf(listed(extra), check.answered, check.query),
  };
  return {
    reason: `GET /events?${wire}: ${describeComparison(judged, undefined, eventValues)}`,
    evidence: {
      expected: { query: wire, events: expected.length },
      actual: { events: check.answered.length, duplicated: listed(judged.duplicated) },
      missing: listed(missing),
      extra: listed(extra),
      eventValues,
    },
  };
}

/**
 * Two event sets that a relation says are equal, e.g. "A|B" and "A" ∪ "B"; `relation` names it in the reason (a
 * function, for a name that costs something to write and is needed only when the relation fails). With `query`,
 * the query whose answer is `actual`, each listed event carries its values in the fields that query reads.
 */
export function relationProblem(
  relation: string | (() => string),
  expected: readonly EpcisEvent[],
  actual: readonly EpcisEvent[],
  query?: EventQuery,
): Failure | undefined {
  const comparison = compareEventSets(expected, actual);
  if (comparison.equal) return undefined;
  const named = typeof relation === "string" ? relation : relation();
  const missing = listed(comparison.missing);
  const extra = listed(comparison.extra);
  const eventValues =
    query === undefined
      ? undefined
      : { ...decidingValuesOf(missing, expected, query), ...decidingValuesOf(extra, actual, query) };
  return {
    reason: `${named} does not hold: ${describeComparison(comparison, undefined, eventValues)}`,
    evidence: {
      expected: { events: expected.length },
      actual: { events: actual.length, duplicated: listed(comparison.duplicated) },
      missing,
      extra,
      ...(eventValues === undefined ? {} : { eventValues }),
    },
  };
}
