// Spec 4.1 rules 1-2 and spec 7: how a query is written and when it may be refused. A repeated key "is not
// equivalent and must not be used": a sender must not read it as the pipe-joined value, and is expected to refuse
// it; a value with characters that need percent-encoding selects the events carrying the decoded value; a narrow
// query (one EPC, one lot class, one transformation id) is never too broad.
import fc from "fast-check";
import { identities } from "../../src/harness/assertions/event-sets.ts";
import { isLotClass } from "../../src/harness/assertions/narrow-query.ts";
import { problemBodyProblem } from "../../src/harness/assertions/problem-body.ts";
import { type Checks, requirementTest } from "../../src/harness/suite.ts";
import { exchangeEvidence } from "../../src/harness/target.ts";
import { runOracle } from "../../src/model/index.ts";
import type { EpcisEvent, EventQuery, ListParameter } from "../../src/model/types.ts";
import { exchangeOf } from "./support/answers.ts";
import {
  type CaseResult,
  failWith,
  judgeQuery,
  type SuiteEnv,
  suiteEnv,
  undecided,
} from "./support/cases.ts";
import { Findings } from "./support/findings.ts";
import { type Known, partialNote, skipWithoutEvents } from "./support/known.ts";
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
} from "./support/pools.ts";
import { inUtc } from "./support/probes.ts";
import { checkAll, checkProperty } from "./support/property.ts";

/** How a repeat can be read; the first is the one spec 4.1 rule 2 rules out. */
const AS_PIPE = "read as the pipe-joined value";

/** A request repeating one key, and how each way of reading it would answer. */
interface RepeatCase {
  raw: string;
  readings: { reading: string; query: EventQuery }[];
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

function readingOf(k: Known, answered: readonly EpcisEvent[], c: RepeatCase): string {
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

requirementTest(
  "EVT-REPEAT-NOT-PIPE",
  "A repeated key is not read as the pipe-joined value",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    const cases = repeatCasesOrSkip(checks, env)?.filter((c) =>
      c.readings.some((r) => r.reading === AS_PIPE),
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
      "requests repeating the key of a list parameter",
      cases.map((c) => async (): Promise<CaseResult> => {
        const answer = await env.answers.get(c.raw);
        if (answer.kind === "throttled") return undecided(answer);
        // Refused, or answered any other way: the repeat was not taken for the pipe-joined value.
        if (answer.kind !== "events" || readingOf(env.known, answer.events, c) !== AS_PIPE)
          return { status: "ok" };
        return failWith(
          `?${c.raw} was ${AS_PIPE}, which spec 4.1 rule 2 says a repeat is not`,
          exchangeEvidence(exchangeOf(answer), {
            expected: "a refusal, or anything but the answer to the pipe-joined value",
            actual: { status: answer.pages[0]?.status, events: answer.events.length },
          }),
        );
      }),
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
    const findings = new Findings();
    await checkAll(
      checks,
      findings,
      "requests repeating a key",
      cases.map((c) => async (): Promise<CaseResult> => {
        const answer = await env.answers.get(c.raw);
        const evidence = exchangeEvidence(exchangeOf(answer), { expected: "a 4xx refusal" });
        switch (answer.kind) {
          case "refused":
          case "rejected":
            return { status: "ok" };
          case "throttled":
            return undecided(answer);
          case "events":
            return failWith(
              `?${c.raw} was answered (${readingOf(env.known, answer.events, c)}) instead of refused`,
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
          ? { status: "ok" }
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
    const findings = new Findings();
    await checkProperty(checks, ctx, findings, {
      subject: "values with characters that need percent-encoding",
      note: partialNote(env.known),
      // Each kind of value as likely as the others, however many EPCs there are.
      arbitrary: fc.constantFrom(...groups).chain((g) => fc.constantFrom(...g)),
      evaluate: async (c): Promise<CaseResult> => {
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

requirementTest(
  "EVT-413-NARROW",
  "One EPC, one lot class or one transformation id is never refused as too broad",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    if (skipWithoutEvents(checks, env.known)) return;
    const { pools } = env.known;
    // Each kind as likely as the others, however many EPCs there are.
    const kinds: EventQuery[][] = [
      [...new Set(EPC_FIELDS.flatMap((f) => pools.epcs[f]))].map((v) => ({ MATCH_anyEPC: [v] })),
      [...new Set(CLASS_FIELDS.flatMap((f) => pools.classes[f]))]
        .filter(isLotClass)
        .map((v) => ({ MATCH_anyEPCClass: [v] })),
      pools.transformationIds.map((v) => ({ EQ_transformationID: [v] })),
    ].filter((k) => k.length > 0);
    if (kinds.length === 0) {
      checks.skip("no event the harness knows has an EPC, a lot class or a transformationID");
      return;
    }
    const findings = new Findings();
    await checkProperty(checks, ctx, findings, {
      subject: "queries for one EPC, one lot class or one transformation id",
      arbitrary: fc.constantFrom(...kinds).chain((k) => fc.constantFrom(...k)),
      evaluate: async (q): Promise<CaseResult> => {
        const answer = await env.answers.get(q);
        if (answer.kind === "throttled") return undecided(answer);
        if (answer.kind !== "refused") return { status: "ok" };
        return failWith(
          `the narrow query ?${new URL(answer.url).search.slice(1)} was refused with 413; spec 4.1 says every parameter must be supported, and one value of it is as narrow as it gets`,
          exchangeEvidence(answer.result.exchange),
        );
      },
    });
  },
);
