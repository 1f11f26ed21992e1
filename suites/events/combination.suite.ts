// Spec 4.1: values of one parameter joined by the pipe are alternatives (rule 1), and different parameters narrow
// each other. Both are checked as relations on the target's own answers, so that a defect of one filter shows
// under that filter's requirement and not here: "A|B" must answer what "A" and "B" answer together, and a query
// must answer what each of its parameters answers alone, intersected.
import fc from "fast-check";
import { queryArbitrary } from "../../src/generate/arbitraries.ts";
import { NO_MATCH } from "../../src/generate/index.ts";
import { identities, unionOf } from "../../src/harness/assertions/event-sets.ts";
import { relationProblem } from "../../src/harness/assertions/query-answer.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { exchangeEvidence } from "../../src/harness/target.ts";
import {
  addUnits,
  encodeQuery,
  eventIdentity,
  formatInstant,
  fractionDigitsOf,
  parseInstant,
} from "../../src/model/index.ts";
import {
  type EpcisEvent,
  type EventQuery,
  LIST_PARAMETERS,
  type ListParameter,
  type QueryParameter,
} from "../../src/model/types.ts";
import { type Answer, exchangeOf } from "./support/answers.ts";
import { type CaseResult, eventsOrVerdict, failWith, type SuiteEnv, suiteEnv } from "./support/cases.ts";
import { Findings } from "./support/findings.ts";
import { skipWithoutEvents } from "./support/known.ts";
import { blamePaging } from "./support/paging.ts";
import { CLASS_FIELDS, classesIn, EPC_FIELDS, epcsIn, locationOf } from "./support/pools.ts";
import { inUtc, probeOf } from "./support/probes.ts";
import { checkProperty } from "./support/property.ts";

/**
 * Judges the answer to `q` against its parts combined: `union` for pipe-joined alternatives, intersection for
 * parameters. A part without an answer of its own (refused as too broad, or broken) makes the case inconclusive:
 * standing in for it with the oracle would blame this relation for a defect of the part's own filter.
 */
async function checkRelation(
  env: SuiteEnv,
  findings: Findings,
  q: EventQuery,
  parts: readonly EventQuery[],
  combine: "union" | "intersection",
  relation: string,
): Promise<CaseResult> {
  const [whole, ...answers] = await Promise.all([q, ...parts].map((p) => env.answers.get(p)));
  const answered = eventsOrVerdict(env, findings, q, whole!);
  if (!Array.isArray(answered)) return answered;
  const partEvents: EpcisEvent[][] = [];
  for (const answer of answers) {
    if (answer?.kind !== "events") {
      return { status: "inconclusive", reason: "a part of the query got no answer of its own" };
    }
    partEvents.push(answer.events);
  }
  const sets = partEvents.map((events) => new Set(identities(events)));
  const keep = (id: string) =>
    combine === "union" ? sets.some((s) => s.has(id)) : sets.every((s) => s.has(id));
  const expected = unionOf(...partEvents).filter((e) => keep(eventIdentity(e)));
  const problem = relationProblem(() => `${relation} for ${encodeQuery(q)}`, expected, answered);
  if (problem === undefined) return { status: "ok" };
  const result = failWith(problem.reason, exchangeEvidence(exchangeOf(whole!), problem.evidence));
  return blamePaging(env, findings, result, [
    [q, whole!],
    ...parts.map((p, i): [EventQuery, Answer] => [p, answers[i]!]),
  ]);
}

function listPools(env: SuiteEnv): Record<ListParameter, { present: string[]; nothing: readonly string[] }> {
  const { pools } = env.known;
  return {
    MATCH_anyEPC: { present: [...new Set(EPC_FIELDS.flatMap((f) => pools.epcs[f]))], nothing: NO_MATCH.epcs },
    MATCH_anyEPCClass: {
      present: [...new Set(CLASS_FIELDS.flatMap((f) => pools.classes[f]))],
      nothing: NO_MATCH.classes,
    },
    EQ_bizStep: { present: pools.bizSteps, nothing: NO_MATCH.bizSteps },
    EQ_transformationID: { present: pools.transformationIds, nothing: NO_MATCH.transformationIds },
    EQ_bizLocation: { present: pools.locations, nothing: NO_MATCH.locations },
  };
}

requirementTest(
  "EVT-PIPE-OR",
  "Pipe-joined values answer the union of the values alone",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    if (skipWithoutEvents(checks, env.known)) return;
    const pools = listPools(env);
    const parameters = LIST_PARAMETERS.filter((p) => pools[p].present.length > 0);
    const findings = new Findings();
    await checkProperty(checks, ctx, findings, {
      subject: "pipe-joined values of one parameter against each value alone",
      arbitrary: fc.constantFrom(...parameters).chain((parameter) => {
        const value = fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...pools[parameter].present) },
          { weight: 1, arbitrary: fc.constantFrom(...pools[parameter].nothing) },
        );
        return fc.uniqueArray(value, { minLength: 2, maxLength: 3 }).map((values) => ({ parameter, values }));
      }),
      isProbe: ({ parameter, values }) => values.some((v) => !pools[parameter].present.includes(v)),
      evaluate: ({ parameter, values }) =>
        checkRelation(
          env,
          findings,
          { [parameter]: values },
          values.map((v) => ({ [parameter]: [v] })),
          "union",
          "the union of what each value selects alone",
        ),
    });
  },
);

/** The parameters an event meets, each as its own one-parameter query: AND-combinations of them select it. */
function parametersOf(e: EpcisEvent): EventQuery[] {
  const out: EventQuery[] = [];
  const first = <T>(list: readonly T[]) => list[0];
  const epc = first(EPC_FIELDS.flatMap((f) => epcsIn(e, f)));
  if (epc !== undefined) out.push({ MATCH_anyEPC: [epc] });
  const epcClass = first(CLASS_FIELDS.flatMap((f) => classesIn(e, f)));
  if (epcClass !== undefined) out.push({ MATCH_anyEPCClass: [epcClass] });
  if (typeof e.bizStep === "string") out.push({ EQ_bizStep: [e.bizStep] });
  const location = locationOf(e);
  if (location !== undefined) out.push({ EQ_bizLocation: [location] });
  if (typeof e.transformationID === "string") out.push({ EQ_transformationID: [e.transformationID] });
  for (const [field, ge, lt] of [
    ["eventTime", "GE_eventTime", "LT_eventTime"],
    ["recordTime", "GE_recordTime", "LT_recordTime"],
  ] as const) {
    const at = e[field];
    if (typeof at !== "string") continue;
    try {
      // In UTC, with the event's own digits: bounds the sender must take (support/probes.ts).
      const digits = fractionDigitsOf(at);
      const after = formatInstant(addUnits(parseInstant(at), 1n, digits), { fractionDigits: digits });
      out.push({ [ge]: inUtc(at) }, { [lt]: after });
    } catch {
      // An instant the event writes wrongly is a shape defect (EVT-SHAPE-SCHEMA), not a bound to combine.
    }
  }
  return out.filter((q) => Object.values(q).every((v) => !String(v).includes("|")));
}

function split(q: EventQuery): EventQuery[] {
  return (Object.keys(q) as QueryParameter[]).map((k) => ({ [k]: q[k] }) as EventQuery);
}

requirementTest(
  "EVT-AND",
  "Different parameters answer the intersection of each alone",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    if (skipWithoutEvents(checks, env.known)) return;
    const events = env.known.events;
    // Parameters one event meets, so that the intersection is seldom empty; and any drawn combination.
    const ofOneEvent = fc
      .integer({ min: 0, max: events.length - 1 })
      .map((i) => parametersOf(events[i]!))
      .filter((ps) => ps.length >= 2)
      .chain((ps) => fc.shuffledSubarray(ps, { minLength: 2, maxLength: 3 }))
      .map((ps) => Object.assign({}, ...ps) as EventQuery);
    const drawn = queryArbitrary(events).filter((q) => Object.keys(q).length >= 2);
    const findings = new Findings();
    await checkProperty(checks, ctx, findings, {
      subject: "queries of two or three parameters against each parameter alone",
      arbitrary: fc.oneof({ weight: 2, arbitrary: ofOneEvent }, { weight: 1, arbitrary: drawn }),
      isProbe: (q) => probeOf(env.known, q) !== undefined,
      evaluate: (q) =>
        checkRelation(
          env,
          findings,
          q,
          split(q),
          "intersection",
          "the intersection of what each parameter selects alone",
        ),
    });
  },
);
