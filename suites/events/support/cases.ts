// One query case of a check: read the answer, note what it shows about paging, 413 and content, and judge its
// events against the oracle (spec 4.1) or hand them to a relation.

import { isLotClass, isNarrow, refusedBelowAnswered } from "../../../src/assertions/narrow-query.ts";
import { answerProblem, relationProblem } from "../../../src/assertions/query-answer.ts";
import { exchangeEvidence } from "../../../src/engine/evidence.ts";
import type { Evidence } from "../../../src/engine/types.ts";
import { encodeQuery } from "../../../src/model/index.ts";
import type { EpcisEvent, EventQuery } from "../../../src/model/types.ts";
import { CLASS_FIELDS, classesIn, EPC_FIELDS, epcsIn } from "../../../src/target/pools.ts";
import { type Answer, exchangeOf } from "./answers.ts";
import type { CaseResult, SuiteEnv } from "./env.ts";
import type { Findings } from "./findings.ts";
import { heldDifferences, settled } from "./known.ts";
import { blamePaging } from "./paging.ts";
import { probesOf } from "./probes.ts";

export const INCONCLUSIVE_413 = "refused with 413 as too broad (spec 7)";
export const INCONCLUSIVE_PROBE = "refused a value the harness invented";
const INCONCLUSIVE_PAGING = "its pages could not be read to the end (see EVT-PAGING)";

/** A 429 that outlasted the client's retries: the case is an error, never a verdict on the sender. */
export function undecided(answer: Answer & { kind: "throttled" }): CaseResult {
  return {
    status: "error",
    reason: `${answer.url} was still answered 429 Too Many Requests after the retries the run allows; run again with a lower --rate`,
    evidence: exchangeEvidence(answer.result.exchange),
  };
}

export function failWith(reason: string, evidence: Evidence): CaseResult {
  return { status: "fail", reason, evidence };
}

/**
 * A case that held, proven by the exchange of `answer`, with `message` saying what it shows. The answer may have
 * been read for another check first (answers are shared by URL): it decides this case all the same.
 */
export function held(answer: Answer, message?: string | (() => string)): CaseResult {
  return {
    status: "ok",
    proof: () =>
      exchangeEvidence(
        exchangeOf(answer),
        message === undefined ? {} : { message: typeof message === "string" ? message : message() },
      ),
  };
}

/** What a proof of an answer judged against the oracle says: how many events it holds, as the query selects. */
function heldNote(q: EventQuery, events: readonly EpcisEvent[]): string {
  return `GET /events?${encodeQuery(q)} answered the ${events.length} event(s) the query selects`;
}

/** The events of an answer, or the case's verdict when there are none to judge. */
export function eventsOrVerdict(
  e: SuiteEnv,
  findings: Findings,
  q: EventQuery,
  answer: Answer,
): EpcisEvent[] | CaseResult {
  // Built for a verdict or a note alone: an answer of events, the usual case, needs none.
  const evidence = () => exchangeEvidence(exchangeOf(answer));
  // A value the harness invented may be refused (ARCHITECTURE.md): at most a warning under the probe's own
  // requirement, and the case says nothing about the check that drew it. A query holding invented values of two
  // kinds (a time at another offset and an identifier no event carries) does not say which was refused: its
  // refusal warns on neither.
  const probeRefused = (how: string): CaseResult | undefined => {
    const probes = probesOf(e.known, q);
    const [probe] = probes;
    if (probe === undefined) return undefined;
    if (probes.length > 1) {
      return { status: "inconclusive", reason: `${INCONCLUSIVE_PROBE} (values for ${probes.join(" and ")})` };
    }
    findings.note(probe, { reason: `${encodeQuery(q)} was ${how}`, evidence: evidence() });
    return { status: "inconclusive", reason: `${INCONCLUSIVE_PROBE} (see ${probe})` };
  };
  switch (answer.kind) {
    case "throttled":
      return undecided(answer);
    case "refused":
      // Even a narrow query may be refused alone (spec 8: the threshold is the sender's); EVT-413-NARROW judges
      // its parameter on values of its own, and judgeNarrowed a refusal beside a broader answer.
      return { status: "inconclusive", reason: INCONCLUSIVE_413 };
    case "rejected":
      return (
        probeRefused(`refused with status ${answer.result.status}`) ??
        failWith(
          `the query ${encodeQuery(q)}, whose values all come from the target's own events, was refused with status ${answer.result.status}`,
          evidence(),
        )
      );
    case "broken":
      if (answer.paging !== undefined) {
        findings.note("EVT-PAGING", { reason: answer.message, evidence: evidence() });
        return { status: "inconclusive", reason: INCONCLUSIVE_PAGING };
      }
      return (
        probeRefused(`not answered: ${answer.message}`) ??
        failWith(`the query ${encodeQuery(q)} got no usable answer: ${answer.message}`, evidence())
      );
    case "events":
      noteContent(e, findings, answer);
      return answer.events;
  }
}

/** EVT-SHAPE-CONTENT in passing: an answered event must be served as the baseline holds it. */
export function noteContent(e: SuiteEnv, findings: Findings, answer: Answer & { kind: "events" }): void {
  for (const served of answer.events) {
    const problem = heldDifferences(e.known, served)?.content;
    if (problem !== undefined) {
      findings.note("EVT-SHAPE-CONTENT", {
        reason: `${problem.reason} (answer to ${answer.url})`,
        evidence: exchangeEvidence(exchangeOf(answer), problem.evidence),
      });
      return;
    }
  }
}

export interface QueryCase {
  query: EventQuery;
  /** Whether a missing expected event counts against this check (see answerProblem). */
  blames?: (expected: EpcisEvent) => boolean;
  /** Added to the query when the target refuses it as too broad (spec 7), so that the case still says something. */
  narrowing?: EventQuery | undefined;
}

/**
 * One EPC (else one lot class, else one class) of an event: a parameter that narrows a query to the events around
 * it. The first two are narrow queries, which a sender may not refuse as too broad (EVT-413-NARROW).
 */
export function narrowingFor(e: EpcisEvent): EventQuery | undefined {
  const epc = EPC_FIELDS.flatMap((f) => epcsIn(e, f))[0];
  if (epc !== undefined) return { MATCH_anyEPC: [epc] };
  const classes = CLASS_FIELDS.flatMap((f) => classesIn(e, f));
  const epcClass = classes.find(isLotClass) ?? classes[0];
  return epcClass === undefined ? undefined : { MATCH_anyEPCClass: [epcClass] };
}

function judged(
  e: SuiteEnv,
  findings: Findings,
  check: Parameters<typeof answerProblem>[0],
  answer: Answer,
): Promise<CaseResult> | CaseResult {
  const problem = answerProblem(check);
  if (problem === undefined) return held(answer, () => heldNote(check.query, check.answered));
  const result = failWith(problem.reason, exchangeEvidence(exchangeOf(answer), problem.evidence));
  return blamePaging(e, findings, result, [[check.query, answer]]);
}

/** Sends the query and judges its answer against the oracle; a refused broad query is asked again narrowed. */
export async function judgeQuery(e: SuiteEnv, findings: Findings, c: QueryCase): Promise<CaseResult> {
  const answer = await e.answers.get(c.query);
  if (answer.kind === "refused" && c.narrowing !== undefined) {
    return judgeNarrowed(e, findings, c.query, c.narrowing, c.blames);
  }
  const events = eventsOrVerdict(e, findings, c.query, answer);
  if (!Array.isArray(events)) return events;
  const check: Parameters<typeof answerProblem>[0] = {
    query: c.query,
    answered: events,
    known: e.known.candidates(c.query),
  };
  if (c.blames !== undefined) check.blames = c.blames;
  return judged(e, findings, check, answer);
}

/**
 * The query with the narrowing added, judged against what the narrowing alone answers: the events the oracle
 * keeps of those. A defect of the narrowing's own filter is thus left to that filter's requirement.
 */
export async function judgeNarrowed(
  e: SuiteEnv,
  findings: Findings,
  query: EventQuery,
  narrowing: EventQuery,
  blames?: (expected: EpcisEvent) => boolean,
): Promise<CaseResult> {
  const narrowed = { ...query, ...narrowing };
  const [answer, alone] = await Promise.all([e.answers.get(narrowed), e.answers.get(narrowing)]);
  if (answer.kind === "refused" && alone.kind === "events" && isNarrow(narrowed)) {
    // The narrowing alone selects every event the narrowed query does, and was answered (EVT-413-NARROW).
    const broader = { query: narrowing, events: alone.events.length, exchange: exchangeOf(alone) };
    findings.note("EVT-413-NARROW", refusedBelowAnswered(narrowed, answer.result.exchange, broader));
  }
  const events = eventsOrVerdict(e, findings, narrowed, answer);
  if (!Array.isArray(events)) return events;
  if (alone.kind !== "events") {
    return {
      status: "inconclusive",
      reason: "refused as too broad, and its narrowing got no usable answer alone",
    };
  }
  const check: Parameters<typeof answerProblem>[0] = {
    query: narrowed,
    answered: events,
    known: alone.events,
  };
  if (blames !== undefined) check.blames = blames;
  return judged(e, findings, check, answer);
}

/** Two queries a relation says select the same events; the second's answer is judged against the first's. */
export async function sameSelection(
  e: SuiteEnv,
  findings: Findings,
  relation: string,
  reference: EventQuery,
  other: EventQuery,
): Promise<CaseResult> {
  const [a, b] = await Promise.all([e.answers.get(reference), e.answers.get(other)]);
  const expected = eventsOrVerdict(e, findings, reference, a);
  if (!Array.isArray(expected)) return expected;
  const answered = eventsOrVerdict(e, findings, other, b);
  if (!Array.isArray(answered)) return answered;
  const problem = relationProblem(relation, settled(e.known, expected), settled(e.known, answered), other);
  if (problem === undefined) {
    return held(b, `${relation}: both answered the same ${answered.length} event(s)`);
  }
  const result = failWith(problem.reason, exchangeEvidence(exchangeOf(b), problem.evidence));
  return blamePaging(e, findings, result, [
    [reference, a],
    [other, b],
  ]);
}
