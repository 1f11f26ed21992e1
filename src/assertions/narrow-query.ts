// EVT-413-NARROW: a query narrowed by one EPC, one lot or one transformation. Spec 4.1 says of the parameters
// "Every one must be supported", and spec 8 that the threshold of a query too broad to run "is not a stated
// number": so no single refusal of a narrow query is a failure by itself, but a parameter is not supported when
// the sender refuses it for every value asked, or refuses a query that selects no more events than a query it
// answered (that query was not too broad by the sender's own measure). A refusal of one value, with others
// answered and nothing as large answered, is the sender's threshold at work on a really large lot or
// transformation: a warning. Every other query may be refused (EVT-413-BROAD); the events class and
// RES-EPCIS-LINK tell a narrow query by isNarrow.

import { exchangeEvidence } from "../engine/evidence.ts";
import type { Evidence } from "../engine/types.ts";
import type { ExchangeRecord } from "../http/record.ts";
import {
  canonicalId,
  encodeQuery,
  isDigitalLink,
  LIST_PARAMETERS,
  parseDigitalLink,
  parseQueryString,
  TIME_PARAMETERS,
} from "../model/index.ts";
import type { EventQuery } from "../model/types.ts";
import type { EventsRequest } from "../target/follow.ts";
import type { Failure } from "./failure.ts";

/** True for the class of one lot of one GTIN (an lgtin, or /01/{gtin}/10/{lot}). */
export function isLotClass(value: string): boolean {
  try {
    const id = canonicalId(value);
    if (!isDigitalLink(id)) return false;
    const [gtin, lot, ...rest] = parseDigitalLink(id).elements;
    return gtin?.ai === "01" && lot?.ai === "10" && rest.length === 0;
  } catch {
    return false;
  }
}

/** The parameters that narrow a query to one identifier. */
export type NarrowParameter = "MATCH_anyEPC" | "MATCH_anyEPCClass" | "EQ_transformationID";

/** The parameter that makes `q` narrow (one EPC, one lot class or one transformation id), if any. */
export function narrowParameterOf(q: EventQuery): NarrowParameter | undefined {
  if (q.MATCH_anyEPC?.length === 1) return "MATCH_anyEPC";
  if (q.EQ_transformationID?.length === 1) return "EQ_transformationID";
  const classes = q.MATCH_anyEPCClass;
  if (classes?.length === 1 && isLotClass(classes[0]!)) return "MATCH_anyEPCClass";
  return undefined;
}

/**
 * One EPC, one lot class or one transformation id: a query the sender may refuse as too broad only as EVT-413-NARROW
 * allows (spec 4.1: "Every one must be supported").
 */
export function isNarrow(q: EventQuery): boolean {
  return narrowParameterOf(q) !== undefined;
}

/**
 * Whether every event `narrower` selects, `broader` selects too, whatever the events: each parameter of `broader`
 * is in `narrower`, with a list of no other values or the same time bound (parameters combine as AND, spec 4.1).
 * The unfiltered query holds every query.
 */
export function holdsQuery(broader: EventQuery, narrower: EventQuery): boolean {
  const lists = LIST_PARAMETERS.every((p) => {
    const wide = broader[p];
    if (wide === undefined) return true;
    const narrow = narrower[p];
    return narrow?.every((v) => wide.includes(v)) === true;
  });
  return lists && TIME_PARAMETERS.every((p) => broader[p] === undefined || broader[p] === narrower[p]);
}

/** A query the sender answered: its events were counted, every page read. */
export interface AnsweredQuery {
  query: EventQuery;
  events: number;
  exchange: ExchangeRecord | undefined;
}

/** A narrow query and what the sender did with it. */
export interface NarrowCase {
  query: EventQuery;
  /** The events it selects among those the harness knows (the oracle over the baseline). */
  selects: number;
  outcome:
    | ({ kind: "answered" } & Omit<AnsweredQuery, "query">)
    | { kind: "refused"; exchange: ExchangeRecord | undefined }
    /** Neither: another refusal or no usable answer, which other requirements judge. */
    | { kind: "other" };
}

/**
 * The answered query that shows a refusal of `refused` was no threshold: one that holds it whatever the events,
 * or, where the baseline is the whole repository, one that answered at least as many events as it selects.
 */
export function broaderAnswered(
  refused: EventQuery,
  selects: number,
  answered: readonly AnsweredQuery[],
  complete: boolean,
): AnsweredQuery | undefined {
  return (
    answered.find((a) => holdsQuery(a.query, refused)) ??
    (complete ? answered.find((a) => a.events >= selects) : undefined)
  );
}

/** Why a refusal of `refused` is not the sender's threshold, given the broader query it answered. */
export function refusedBelowAnswered(
  refused: EventQuery,
  exchange: ExchangeRecord | undefined,
  broader: AnsweredQuery,
  selects?: number,
): Failure {
  const holds = holdsQuery(broader.query, refused);
  const how = holds
    ? "which selects every event it does"
    : `which answered ${broader.events} event(s), no fewer than the ${selects} it selects`;
  return {
    reason: `the narrow query ${show(refused)} was refused with 413 as too broad, although ${show(broader.query)}, ${how}, was answered: a query that selects no more events than one the sender runs is not too broad by its own measure (spec 4.1: "Every one must be supported")`,
    evidence: exchangeEvidence(exchange, {
      expected: "an answer, as to a query that selects at least as many events",
      actual: {
        answered: { query: show(broader.query), events: broader.events, url: broader.exchange?.request.url },
      },
    }),
  };
}

export interface NarrowVerdicts {
  fail: Failure[];
  warn: Failure[];
  /** One per parameter the sender answered: the answer that shows it supported. */
  pass: { note: string; evidence: Evidence }[];
}

function show(q: EventQuery): string {
  const qs = encodeQuery(q);
  return qs === "" ? "the unfiltered query" : `?${qs}`;
}

/**
 * EVT-413-NARROW's verdicts on the narrow queries asked and the other queries answered: per parameter, a failure
 * when every value was refused; per refusal, a failure when a query that selects no fewer events was answered,
 * else a warning (one really large lot or transformation, alone).
 */
export function judgeNarrowQueries(
  cases: readonly NarrowCase[],
  others: readonly AnsweredQuery[],
  complete: boolean,
): NarrowVerdicts {
  const verdicts: NarrowVerdicts = { fail: [], warn: [], pass: [] };
  const answered: AnsweredQuery[] = [
    ...cases.flatMap((c) => (c.outcome.kind === "answered" ? [{ ...c.outcome, query: c.query }] : [])),
    ...others,
  ];
  const byParameter = new Map<NarrowParameter, NarrowCase[]>();
  for (const c of cases) {
    const p = narrowParameterOf(c.query);
    if (p !== undefined) byParameter.set(p, [...(byParameter.get(p) ?? []), c]);
  }
  for (const [parameter, group] of byParameter) {
    const supported = group.find((c) => c.outcome.kind === "answered");
    const refused = group.filter((c) => c.outcome.kind === "refused");
    if (supported?.outcome.kind === "answered") {
      verdicts.pass.push({
        note: `${parameter} is answered: ${show(supported.query)} answered ${supported.outcome.events} event(s)`,
        evidence: exchangeEvidence(supported.outcome.exchange, {
          message: `${show(supported.query)} answered ${supported.outcome.events} event(s)`,
        }),
      });
    }
    const failedBefore = verdicts.fail.length;
    for (const c of refused) {
      const exchange = c.outcome.kind === "refused" ? c.outcome.exchange : undefined;
      const broader = broaderAnswered(c.query, c.selects, answered, complete);
      if (broader !== undefined) {
        verdicts.fail.push(refusedBelowAnswered(c.query, exchange, broader, c.selects));
      } else if (supported !== undefined) {
        verdicts.warn.push({
          reason: `${show(c.query)}, which selects ${c.selects} known event(s), more than any query the sender answered, was refused with 413 while other values of ${parameter} were answered: spec 8 leaves the threshold to the sender, so one really large lot or transformation may be refused, but a receiver then cannot trace it`,
          evidence: exchangeEvidence(exchange, {
            expected: "an answer (every parameter must be supported, spec 4.1)",
            actual: { status: 413, selects: c.selects },
          }),
        });
      }
    }
    const first = refused[0];
    if (supported === undefined && first !== undefined && verdicts.fail.length === failedBefore) {
      verdicts.fail.push({
        reason: `every narrow ${parameter} query asked (${refused.length}) was refused with 413 as too broad, ${show(first.query)} among them: the parameter is not supported (spec 4.1: "Every one must be supported")`,
        evidence: exchangeEvidence(first.outcome.kind === "refused" ? first.outcome.exchange : undefined, {
          expected: "an answer to a query for one value",
          actual: { refused: refused.map((c) => show(c.query)).slice(0, 20) },
        }),
      });
    }
  }
  return verdicts;
}

/**
 * Whether the query an epcis link led to may be refused with 413 as too broad (RES-EPCIS-LINK): the whole
 * repository, or any query but a narrow one, judged as EVT-413-NARROW judges it (one EPC, one lot, one
 * transformation), whether the sender's link wrote it or the receiver added it.
 */
export function mayBeRefusedAsBroad(request: EventsRequest): boolean {
  return request.repository || !isNarrow(parseQueryString(new URL(request.url).search).query);
}
