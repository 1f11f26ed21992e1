// Spec 4.1: values of one parameter joined by the pipe are alternatives (rule 1), and different parameters narrow
// each other. Both are checked as relations on the target's own answers, so that a defect of one filter shows
// under that filter's requirement and not here: "A|B" must answer what "A" and "B" answer together, and a query
// must answer what each of its parameters answers alone, intersected. Combinations are drawn with an event exactly
// at each time bound, one that meets the other parameters too, so that a window read otherwise than its two bounds
// alone shows.
import fc from "fast-check";
import { relationProblem } from "../../src/assertions/query-answer.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { queryArbitrary } from "../../src/generate/arbitraries.ts";
import { NO_MATCH } from "../../src/generate/index.ts";
import {
  addUnits,
  compareInstants,
  encodeQuery,
  formatInstant,
  fractionDigitsOf,
  type Instant,
  parseInstant,
  runOracle,
} from "../../src/model/index.ts";
import {
  type EpcisEvent,
  type EventQuery,
  LIST_PARAMETERS,
  type ListParameter,
  type QueryParameter,
  TIME_PARAMETERS,
  type TimeParameter,
} from "../../src/model/types.ts";
import { CLASS_FIELDS, classesIn, EPC_FIELDS, epcsIn, locationOf } from "../../src/target/pools.ts";
import { type Answer, exchangeOf } from "./support/answers.ts";
import { eventsOrVerdict, failWith, held } from "./support/cases.ts";
import { type CaseResult, type SuiteEnv, suiteEnv } from "./support/env.ts";
import { Findings } from "./support/findings.ts";
import { combinedEvents, settled, skipWithoutEvents } from "./support/known.ts";
import { blamePaging } from "./support/paging.ts";
import { inUtc, probeOf } from "./support/probes.ts";
import { checkProperty } from "./support/property.ts";

/**
 * Judges the answer to `q` against its parts combined: `union` for pipe-joined alternatives, intersection for
 * parameters. A part without an answer of its own (refused as too broad, or broken) makes the case inconclusive:
 * standing in for it with the oracle would blame this relation for a defect of the part's own filter. So too where
 * the whole got no usable answer (rejected, broken) and a part got none either for a defect of its own (rejected,
 * broken): the part's filter fails alone, and its requirement judges it. A part refused as too broad (413, spec 7)
 * or throttled explains no failure of the whole, which its own values, not the part's, are judged by.
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
  const partUnanswered: CaseResult = {
    status: "inconclusive",
    reason: "a part of the query got no answer of its own",
  };
  const partFailed = answers.some((answer) => answer?.kind === "rejected" || answer?.kind === "broken");
  if (!Array.isArray(answered)) return answered.status === "fail" && partFailed ? partUnanswered : answered;
  const partEvents: (readonly EpcisEvent[])[] = [];
  for (const answer of answers) {
    if (answer?.kind !== "events") return partUnanswered;
    partEvents.push(settled(env.known, answer.events));
  }
  const expected = combinedEvents(env.known, partEvents, combine);
  const actual = settled(env.known, answered);
  const problem = relationProblem(() => `${relation} for ${encodeQuery(q)}`, expected, actual, q);
  if (problem === undefined) {
    return held(
      whole!,
      () => `GET /events?${encodeQuery(q)} answered the ${answered.length} event(s) of ${relation}`,
    );
  }
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
    await checkProperty(checks, ctx, new Findings(), {
      subject: "pipe-joined values of one parameter against each value alone",
      arbitrary: fc.constantFrom(...parameters).chain((parameter) => {
        const value = fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...pools[parameter].present) },
          { weight: 1, arbitrary: fc.constantFrom(...pools[parameter].nothing) },
        );
        return fc.uniqueArray(value, { minLength: 2, maxLength: 3 }).map((values) => ({ parameter, values }));
      }),
      isProbe: ({ parameter, values }) => values.some((v) => !pools[parameter].present.includes(v)),
      evaluate: ({ parameter, values }, findings) =>
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

type TimeField = "eventTime" | "recordTime";

const BOUNDS: Record<TimeField, { ge: TimeParameter; lt: TimeParameter }> = {
  eventTime: { ge: "GE_eventTime", lt: "LT_eventTime" },
  recordTime: { ge: "GE_recordTime", lt: "LT_recordTime" },
};

/** An event's instant in UTC with its own digits (a bound every sender must take), or none it writes rightly. */
function boundAt(e: EpcisEvent, field: TimeField): { text: string; at: Instant } | undefined {
  const written = e[field];
  if (typeof written !== "string") return undefined;
  try {
    return { text: inUtc(written), at: parseInstant(written) };
  } catch {
    return undefined;
  }
}

/**
 * The query `others` within a window whose bounds are the instants of two events that meet `others`: `e` and one
 * later than it (else one earlier), `step` picking which. One of them lies exactly at GE, which keeps it, the
 * other exactly at LT, which does not (spec 4.1), so that a combined query reading either bound the other way
 * shows. Undefined when the events meeting `others` have fewer than two instants.
 */
function windowAtEvents(
  env: SuiteEnv,
  e: EpcisEvent,
  others: EventQuery,
  field: TimeField,
  step: number,
): EventQuery | undefined {
  const own = boundAt(e, field);
  if (own === undefined) return undefined;
  const instants = runOracle(env.known.candidates(others), others)
    .flatMap((m) => boundAt(m, field) ?? [])
    .sort((a, b) => compareInstants(a.at, b.at))
    .filter((b, i, all) => i === 0 || compareInstants(all[i - 1]!.at, b.at) !== 0);
  const later = instants.filter((b) => compareInstants(b.at, own.at) > 0);
  const earlier = instants.filter((b) => compareInstants(b.at, own.at) < 0);
  const [from, to] =
    later.length > 0 ? [own, later[step % later.length]!] : [earlier[step % earlier.length], own];
  if (from === undefined) return undefined;
  return { ...others, [BOUNDS[field].ge]: from.text, [BOUNDS[field].lt]: to.text };
}

/** Whether a query bounds a field on both sides at instants the known events carry. */
function boundedAtEvents(q: EventQuery, instants: Record<TimeField, ReadonlySet<string>>): boolean {
  return (Object.keys(BOUNDS) as TimeField[]).some((field) => {
    const ge = q[BOUNDS[field].ge];
    const lt = q[BOUNDS[field].lt];
    return ge !== undefined && lt !== undefined && instants[field].has(ge) && instants[field].has(lt);
  });
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
    // A time window with an event exactly at each bound, alone or with one or two parameters of one of those
    // events: the bounds where a combined query could read GE or LT otherwise than each alone does.
    const fields = (Object.keys(BOUNDS) as TimeField[]).filter(
      (f) => new Set(events.flatMap((e) => boundAt(e, f)?.text ?? [])).size >= 2,
    );
    const atBounds = fc
      .record({
        i: fc.integer({ min: 0, max: events.length - 1 }),
        field: fc.constantFrom(...(fields.length > 0 ? fields : (["eventTime"] as const))),
        others: fc.integer({ min: 0, max: 2 }),
        from: fc.nat(),
        step: fc.nat(),
      })
      .map(({ i, field, others, from, step }) => {
        // An event without the field gives way to the first that has it: `fields` holds only fields some have.
        const e = [events[i]!, ...events].find((x) => boundAt(x, field) !== undefined)!;
        const lists = parametersOf(e).filter((q) => !TIME_PARAMETERS.some((t) => t in q));
        const chosen = Object.assign(
          {},
          ...lists
            .slice(from % Math.max(1, lists.length))
            .concat(lists)
            .slice(0, others),
        ) as EventQuery;
        // Without another event meeting the parameters, the window is taken among all the events, which hold
        // two instants of the field at least.
        return windowAtEvents(env, e, chosen, field, step) ?? windowAtEvents(env, e, {}, field, step)!;
      });
    const drawn = queryArbitrary(events).filter((q) => Object.keys(q).length >= 2);
    const instants = {
      eventTime: new Set(events.flatMap((e) => boundAt(e, "eventTime")?.text ?? [])),
      recordTime: new Set(events.flatMap((e) => boundAt(e, "recordTime")?.text ?? [])),
    };
    await checkProperty(checks, ctx, new Findings(), {
      subject: "queries of two to four parameters against each parameter alone",
      arbitrary:
        fields.length > 0
          ? fc.oneof(
              { weight: 1, arbitrary: ofOneEvent },
              { weight: 1, arbitrary: atBounds },
              { weight: 1, arbitrary: drawn },
            )
          : fc.oneof({ weight: 2, arbitrary: ofOneEvent }, { weight: 1, arbitrary: drawn }),
      isProbe: (q) => probeOf(env.known, q) !== undefined,
      decisive: (q) => boundedAtEvents(q, instants),
      evaluate: (q, findings) =>
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
