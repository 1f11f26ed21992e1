// An answer of GET /events judged against the oracle (spec 4.1), and two event sets judged against each other for
// the metamorphic relations (ARCHITECTURE.md "Oracle plus metamorphic relations").
import { encodeQuery, eventIdentity, matchesQuery, runOracle } from "../../model/index.ts";
import type { EpcisEvent, EventQuery } from "../../model/types.ts";
import { compareEventSets, describeComparison, type SetComparison } from "./event-sets.ts";
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
  return {
    reason: `GET /events?${wire}: ${describeComparison(judged)}`,
    evidence: {
      expected: { query: wire, events: expected.length },
      actual: { events: check.answered.length, duplicated: listed(judged.duplicated) },
      missing: listed(missing),
      extra: listed(extra),
    },
  };
}

/**
 * Two event sets that a relation says are equal, e.g. "A|B" and "A" ∪ "B"; `relation` names it in the reason (a
 * function, for a name that costs something to write and is needed only when the relation fails).
 */
export function relationProblem(
  relation: string | (() => string),
  expected: readonly EpcisEvent[],
  actual: readonly EpcisEvent[],
): Failure | undefined {
  const comparison = compareEventSets(expected, actual);
  if (comparison.equal) return undefined;
  const named = typeof relation === "string" ? relation : relation();
  return {
    reason: `${named} does not hold: ${describeComparison(comparison)}`,
    evidence: {
      expected: { events: expected.length },
      actual: { events: actual.length, duplicated: listed(comparison.duplicated) },
      missing: listed(comparison.missing),
      extra: listed(comparison.extra),
    },
  };
}
