// Spec 4.1 rules 1-2 and spec 7: how a query is written and when it may be refused. A repeated key "is not
// equivalent and must not be used": a sender should not answer it as it answers the pipe-joined value (judged on
// the sender's own answers, support/repeat.ts; the "must not" binds the client), and is expected to refuse it; a
// value with characters that need percent-encoding selects the events carrying the decoded value; every narrow
// query parameter (one EPC, one lot class, one transformation id) is supported, not refused as too broad
// (narrow-query.ts).
import fc from "fast-check";
import { identities } from "../../src/assertions/event-sets.ts";
import {
  type AnsweredQuery,
  isLotClass,
  judgeNarrowQueries,
  type NarrowCase,
  narrowParameterOf,
} from "../../src/assertions/narrow-query.ts";
import { problemBodyProblem } from "../../src/assertions/problem-body.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { type Checks, requirementTest } from "../../src/engine/suite.ts";
import { encodeQuery, eventIdentity, runOracle } from "../../src/model/index.ts";
import type { EpcisEvent, EventQuery, ListParameter } from "../../src/model/types.ts";
import {
  CLASS_FIELDS,
  type ClassField,
  classesIn,
  EPC_FIELDS,
  type EpcField,
  epcsIn,
  locationOf,
  needsEscaping,
  type ValuePools,
} from "../../src/target/pools.ts";
import { type Answer, exchangeOf } from "./support/answers.ts";
import { failWith, held, judgeQuery, undecided } from "./support/cases.ts";
import { type CaseResult, type SuiteEnv, suiteEnv } from "./support/env.ts";
import { Findings } from "./support/findings.ts";
import { type Known, partialNote, skipWithoutEvents } from "./support/known.ts";
import { inUtc } from "./support/probes.ts";
import { checkAll, checkProperty } from "./support/property.ts";
import { judgeRepeat, type Reading, type RepeatAnswers } from "./support/repeat.ts";

/** How a repeat can be read; the first is the one spec 4.1 rule 2 rules out. */
const AS_PIPE = "read as the pipe-joined value";

/** Two values of one list parameter, repeated in a request. */
interface ListPair {
  parameter: ListParameter;
  a: string;
  b: string;
}

/** A request repeating one key, and how each way of reading it would answer. */
interface RepeatCase {
  raw: string;
  readings: { reading: string; query: EventQuery }[];
  /** For a list parameter, the values whose pipe-joined query the repeat must not be read as. */
  list?: ListPair;
}

/** A set of events as one comparable string. */
function setKey(events: readonly EpcisEvent[]): string {
  return identities(events).sort().join(" ");
}

function oracleKey(k: Known, q: EventQuery): string {
  return setKey(runOracle(k.candidates(q), q));
}

function differ(k: Known, queries: readonly EventQuery[]): boolean {
  return new Set(queries.map((q) => oracleKey(k, q))).size === queries.length;
}

/** For each list parameter, two values whose readings (first, last, both) answer differently; and a time bound. */
function repeatCases(k: Known): RepeatCase[] {
  const { pools } = k;
  const lists: [ListParameter, string[]][] = [
    ["MATCH_anyEPC", [...new Set(EPC_FIELDS.flatMap((f) => pools.epcs[f]))]],
    ["EQ_bizStep", pools.bizSteps],
    ["EQ_bizLocation", pools.locations],
  ];
  const out: RepeatCase[] = [];
  for (const [parameter, values] of lists) {
    const candidates = values.slice(0, 12);
    const pair = candidates
      .flatMap((a, i) => candidates.slice(i + 1).map((b) => [a, b] as const))
      .find(([a, b]) => differ(k, [{ [parameter]: [a] }, { [parameter]: [b] }, { [parameter]: [a, b] }]));
    if (pair === undefined) continue;
    const [a, b] = pair;
    out.push({
      raw: `${parameter}=${encodeURIComponent(a)}&${parameter}=${encodeURIComponent(b)}`,
      list: { parameter, a, b },
      readings: [
        { reading: AS_PIPE, query: { [parameter]: [a, b] } },
        { reading: "answered from the last repeat", query: { [parameter]: [b] } },
        { reading: "answered from the first repeat", query: { [parameter]: [a] } },
      ],
    });
  }
  const first = pools.eventTimes[0];
  const last = pools.eventTimes.at(-1);
  if (first !== undefined && last !== undefined && first !== last) {
    const [early, late] = [inUtc(first), inUtc(last)];
    out.push({
      raw: `GE_eventTime=${encodeURIComponent(early)}&GE_eventTime=${encodeURIComponent(late)}`,
      readings: [
        { reading: "answered from the last repeat", query: { GE_eventTime: late } },
        { reading: "answered from the first repeat", query: { GE_eventTime: early } },
      ],
    });
  }
  return out;
}

/** How the oracle names the reading an answer to a repeat matches, for the report line. */
function readingName(k: Known, answered: readonly EpcisEvent[], c: RepeatCase): string {
  const key = setKey(answered);
  return (
    c.readings.find((r) => oracleKey(k, r.query) === key)?.reading ?? "read in a way the harness cannot name"
  );
}

/** The repeat cases, or undefined after recording why there are none. */
function repeatCasesOrSkip(checks: Checks, env: SuiteEnv): RepeatCase[] | undefined {
  if (skipWithoutEvents(checks, env.known)) return undefined;
  const cases = repeatCases(env.known);
  if (cases.length === 0)
    checks.skip("the known events hold no two values whose readings of a repeated key differ");
  return cases.length === 0 ? undefined : cases;
}

/**
 * What the target did with a query, as the repeat's judgement reads it. Answers are compared on the events
 * discovery found: the queries are asked one after another, and a repository that grows while it is checked may
 * answer a later one with events captured since.
 */
function readingOf(k: Known, answer: Answer): Reading {
  switch (answer.kind) {
    case "events":
      return { kind: "answered", events: setKey(answer.events.filter((e) => k.byId.has(eventIdentity(e)))) };
    case "refused":
      return { kind: "too-broad" };
    case "rejected":
      return { kind: "refused", status: answer.result.status };
    default:
      return { kind: "unusable" };
  }
}

/** How an answer shows in evidence: its URL, and its status or the events it holds. */
function shown(answer: Answer): { url: string; status?: number; events?: number } {
  const status = exchangeOf(answer)?.response?.status;
  return {
    url: answer.url,
    ...(status === undefined ? {} : { status }),
    ...(answer.kind === "events" ? { events: answer.events.length } : {}),
  };
}

/**
 * One repeat judged on the target's own answers (support/repeat.ts): the repeat first, then the pipe-joined query
 * and each value alone only as far as the judgement needs them.
 */
async function judgeRepeatCase(env: SuiteEnv, c: RepeatCase & { list: ListPair }): Promise<CaseResult> {
  const { parameter, a, b } = c.list;
  const repeat = await env.answers.get(c.raw);
  const asked: Answer[] = [repeat];
  const known: RepeatAnswers = { repeat: readingOf(env.known, repeat) };
  let pipe: Answer | undefined;
  let singles: Answer[] = [];
  for (;;) {
    const throttled = asked.find((x) => x.kind === "throttled");
    if (throttled?.kind === "throttled") return undecided(throttled);
    const judgement = judgeRepeat(known);
    if ("verdict" in judgement) {
      const compared = {
        repeat: shown(repeat),
        ...(pipe === undefined ? {} : { pipeJoined: shown(pipe) }),
        ...(singles.length === 0 ? {} : { alone: singles.map(shown) }),
      };
      if (judgement.verdict === "undecided") return { status: "inconclusive", reason: judgement.why };
      if (judgement.verdict === "not-pipe") {
        return {
          status: "ok",
          proof: () =>
            exchangeEvidence(exchangeOf(repeat), {
              message: `?${c.raw}: ${judgement.why}, so it was not ${AS_PIPE}`,
              actual: compared,
            }),
        };
      }
      return failWith(
        `?${c.raw} was ${AS_PIPE}, which spec 4.1 rule 2 says a repeat is not: ${judgement.why}`,
        exchangeEvidence(exchangeOf(repeat), {
          expected: "a refusal, or anything but the target's own answer to the pipe-joined value",
          actual: compared,
        }),
      );
    }
    if (judgement.need === "pipe") {
      pipe = await env.answers.get({ [parameter]: [a, b] });
      known.pipe = readingOf(env.known, pipe);
      asked.push(pipe);
    } else {
      singles = await Promise.all([
        env.answers.get({ [parameter]: [a] }),
        env.answers.get({ [parameter]: [b] }),
      ]);
      known.singles = [readingOf(env.known, singles[0]!), readingOf(env.known, singles[1]!)];
      asked.push(...singles);
    }
  }
}

requirementTest(
  "EVT-REPEAT-NOT-PIPE",
  "A repeated key is not read as the pipe-joined value",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    const cases = repeatCasesOrSkip(checks, env)?.filter(
      (c): c is RepeatCase & { list: ListPair } => c.list !== undefined,
    );
    if (cases === undefined) return;
    if (cases.length === 0) {
      checks.skip(
        "the known events hold no two values of a list parameter whose readings of a repeat differ",
      );
      return;
    }
    await checkAll(
      checks,
      new Findings(),
      "requests repeating the key of a list parameter, judged against the target's own pipe-joined answer",
      cases.map((c) => () => judgeRepeatCase(env, c)),
    );
  },
);

requirementTest(
  "EVT-REPEAT-REFUSED",
  "A repeated parameter key is refused with a 4xx",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    const cases = repeatCasesOrSkip(checks, env);
    if (cases === undefined) return;
    await checkAll(
      checks,
      new Findings(),
      "requests repeating a key",
      cases.map((c) => async (): Promise<CaseResult> => {
        const answer = await env.answers.get(c.raw);
        const evidence = exchangeEvidence(exchangeOf(answer), { expected: "a 4xx refusal" });
        switch (answer.kind) {
          case "refused":
          case "rejected":
            return held(answer, `?${c.raw} was refused with status ${answer.result.status}`);
          case "throttled":
            return undecided(answer);
          case "events":
            return failWith(
              `?${c.raw} was answered (${readingName(env.known, answer.events, c)}) instead of refused`,
              { ...evidence, actual: { status: answer.pages[0]?.status, events: answer.events.length } },
            );
          case "broken":
            return failWith(`?${c.raw} was not refused with a 4xx: ${answer.message}`, evidence);
        }
      }),
    );
  },
);

requirementTest(
  "EVT-REPEAT-PROBLEM",
  "A repeated key is refused with 400 and an RFC 7807 body",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    const cases = repeatCasesOrSkip(checks, env);
    if (cases === undefined) return;
    await checkAll(
      checks,
      new Findings(),
      "refusals of a repeated key",
      cases.map((c) => async (): Promise<CaseResult> => {
        const answer = await env.answers.get(c.raw);
        if (answer.kind === "throttled") return undecided(answer);
        if (answer.kind !== "refused" && answer.kind !== "rejected") {
          return { status: "inconclusive", reason: "not refused (see EVT-REPEAT-REFUSED)" };
        }
        const evidence = exchangeEvidence(answer.result.exchange, { expected: { status: 400 } });
        if (answer.result.status !== 400) {
          return failWith(
            `?${c.raw} was refused with status ${answer.result.status} rather than 400`,
            evidence,
          );
        }
        const problem = problemBodyProblem(answer.result);
        return problem === undefined
          ? held(answer, `?${c.raw} was refused with 400 and a problem body`)
          : failWith(`?${c.raw}: ${problem.reason}`, problem.evidence);
      }),
    );
  },
);

type EncodedField = EpcField | ClassField | "transformationID" | "bizLocation";

interface EncodingCase {
  parameter: ListParameter;
  field: EncodedField;
  value: string;
  /** A value of the same field that needs no escaping: if it fails too, the field is at fault, not the encoding. */
  control: string | undefined;
}

function holds(e: EpcisEvent, field: EncodedField, value: string): boolean {
  if (field === "transformationID") return e.transformationID === value;
  if (field === "bizLocation") return locationOf(e) === value;
  if ((EPC_FIELDS as readonly string[]).includes(field)) return epcsIn(e, field as EpcField).includes(value);
  return classesIn(e, field as ClassField).includes(value);
}

function encodingCases(pools: ValuePools): EncodingCase[][] {
  const group = (
    parameter: ListParameter,
    field: EncodedField,
    values: readonly string[],
  ): EncodingCase[] => {
    const control = values.find((v) => !needsEscaping(v));
    return values.filter(needsEscaping).map((value) => ({ parameter, field, value, control }));
  };
  const groups = [
    EPC_FIELDS.flatMap((f) => group("MATCH_anyEPC", f, pools.epcs[f])),
    CLASS_FIELDS.flatMap((f) => group("MATCH_anyEPCClass", f, pools.classes[f])),
    group("EQ_transformationID", "transformationID", pools.transformationIds),
    group("EQ_bizLocation", "bizLocation", pools.locations),
  ];
  // Without a control a field defect would pass for an encoding defect, so values with one are preferred.
  const controlled = groups.map((g) => g.filter((c) => c.control !== undefined)).filter((g) => g.length > 0);
  return controlled.length > 0 ? controlled : groups.filter((g) => g.length > 0);
}

requirementTest(
  "EVT-ENCODING",
  "Values that need percent-encoding select the events carrying them",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    if (skipWithoutEvents(checks, env.known)) return;
    const groups = encodingCases(env.known.pools);
    if (groups.length === 0) {
      checks.skip("no value of the known events has characters that need percent-encoding");
      return;
    }
    await checkProperty(checks, ctx, new Findings(), {
      subject: "values with characters that need percent-encoding",
      note: partialNote(env.known),
      // Each kind of value as likely as the others, however many EPCs there are.
      arbitrary: fc.constantFrom(...groups).chain((g) => fc.constantFrom(...g)),
      evaluate: async (c, findings): Promise<CaseResult> => {
        if (c.control !== undefined) {
          const control = await judgeQuery(env, findings, {
            query: { [c.parameter]: [c.control] },
            blames: (e) => holds(e, c.field, c.control!),
          });
          if (control.status !== "ok") {
            return {
              status: "inconclusive",
              reason: `the ${c.field} filter failed with a plain value too (see its requirement)`,
            };
          }
        }
        return judgeQuery(env, findings, {
          query: { [c.parameter]: [c.value] },
          blames: (e) => holds(e, c.field, c.value),
        });
      },
    });
  },
);

/** The narrow queries of each narrow parameter, one per value of the known events. */
function narrowKinds(pools: ValuePools): EventQuery[][] {
  return [
    [...new Set(EPC_FIELDS.flatMap((f) => pools.epcs[f]))].map((v) => ({ MATCH_anyEPC: [v] })),
    [...new Set(CLASS_FIELDS.flatMap((f) => pools.classes[f]))]
      .filter(isLotClass)
      .map((v) => ({ MATCH_anyEPCClass: [v] })),
    pools.transformationIds.map((v) => ({ EQ_transformationID: [v] })),
  ].filter((k) => k.length > 0);
}

/**
 * For each parameter whose every drawn value was refused, one more value: the one of its values not drawn that
 * selects the fewest known events, so that a refusal of one large lot or transformation is not taken for the
 * parameter's.
 */
function oneMoreValue(
  kinds: readonly EventQuery[][],
  asked: readonly [EventQuery, Answer][],
  selects: (q: EventQuery) => number,
): EventQuery[] {
  return kinds.flatMap((values) => {
    const parameter = narrowParameterOf(values[0]!);
    const mine = asked.filter(([q]) => narrowParameterOf(q) === parameter);
    if (mine.length === 0 || mine.some(([, a]) => a.kind !== "refused")) return [];
    const tried = new Set(mine.map(([q]) => encodeQuery(q)));
    const rest = values.filter((q) => !tried.has(encodeQuery(q)));
    const fewest = rest.reduce<EventQuery | undefined>(
      (best, q) => (best === undefined || selects(q) < selects(best) ? q : best),
      undefined,
    );
    return fewest === undefined ? [] : [fewest];
  });
}

function answeredQuery(q: EventQuery, answer: Answer): AnsweredQuery | undefined {
  return answer.kind === "events"
    ? { query: q, events: answer.events.length, exchange: exchangeOf(answer) }
    : undefined;
}

requirementTest(
  "EVT-413-NARROW",
  "Every narrow parameter is supported: one EPC, lot class or transformation id is answered",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    if (skipWithoutEvents(checks, env.known)) return;
    const kinds = narrowKinds(env.known.pools);
    if (kinds.length === 0) {
      checks.skip("no event the harness knows has an EPC, a lot class or a transformationID");
      return;
    }
    const selects = (q: EventQuery) => runOracle(env.known.candidates(q), q).length;
    // Each kind as likely as the others, however many EPCs there are; the seed replays the draw.
    const arbitrary = fc.constantFrom(...kinds).chain((k) => fc.constantFrom(...k));
    const drawn = [
      ...new Map(
        fc.sample(arbitrary, { seed: ctx.seed, numRuns: ctx.runs }).map((q) => [encodeQuery(q), q]),
      ).values(),
    ];
    const ask = (qs: readonly EventQuery[]) =>
      Promise.all(qs.map(async (q): Promise<[EventQuery, Answer]> => [q, await env.answers.get(q)]));
    const asked = await ask(drawn);
    asked.push(...(await ask(oneMoreValue(kinds, asked, selects))));
    // The unfiltered query holds every query: answered, it shows a refused narrow query was no threshold. It is
    // asked only when something was refused, and most runs have asked it already.
    const others = asked.some(([, a]) => a.kind === "refused") ? await ask([{}]) : [];
    const throttled = [...asked, ...others].find(([, a]) => a.kind === "throttled");
    if (throttled?.[1].kind === "throttled") {
      const result = undecided(throttled[1]);
      if (result.status === "error") checks.error(result.reason, result.evidence);
      return;
    }
    const cases = asked.map(([query, answer]): NarrowCase => {
      const answered = answeredQuery(query, answer);
      return {
        query,
        selects: selects(query),
        outcome:
          answered !== undefined
            ? { kind: "answered", events: answered.events, exchange: answered.exchange }
            : answer.kind === "refused"
              ? { kind: "refused", exchange: answer.result.exchange }
              : { kind: "other" },
      };
    });
    const verdicts = judgeNarrowQueries(
      cases,
      others.flatMap(([q, a]) => answeredQuery(q, a) ?? []),
      env.known.complete,
    );
    for (const f of verdicts.fail) checks.fail(f.reason, f.evidence);
    for (const w of verdicts.warn) checks.warn(w.reason, w.evidence);
    const [proof] = verdicts.pass;
    if (proof === undefined) {
      if (verdicts.fail.length === 0 && verdicts.warn.length === 0)
        checks.skip("no narrow query was answered or refused with 413 (see the filter requirements)");
      return;
    }
    const answered = cases.filter((c) => c.outcome.kind === "answered").length;
    checks.pass(
      `${answered} of ${cases.length} narrow queries answered; ${verdicts.pass.map((p) => p.note).join("; ")}`,
      proof.evidence,
    );
  },
);
