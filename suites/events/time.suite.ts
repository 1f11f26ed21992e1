// Spec 4.1 LT_ and GE_ on recordTime and eventTime: "strictly less than" and "greater than or equal to" an "ISO
// date-time in UTC (xsd:dateTimeStamp)". Bounds are taken at the instants of the target's events, written in UTC
// with the event's own fractional digits, and one unit of that precision to either side, so that an inclusive LT,
// an exclusive GE, a comparison cut to milliseconds or one blind to offsets (the events carry theirs) shows. GE t
// and LT t must split the events between them. Now and then a bound is a probe (support/probes.ts): another
// offset or more fractional digits; a sender may refuse those (EVT-TIME-PROBES), and must answer right what it
// accepts.
import fc from "fast-check";
import { distinct, unionOf } from "../../src/assertions/event-sets.ts";
import { answerProblem } from "../../src/assertions/query-answer.ts";
import type { RunContext } from "../../src/engine/context.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { type Checks, requirementTest } from "../../src/engine/suite.ts";
import {
  addUnits,
  compareInstants,
  encodeQuery,
  formatInstant,
  fractionDigitsOf,
  parseInstant,
} from "../../src/model/index.ts";
import type { EventQuery, TimeParameter } from "../../src/model/types.ts";
import { exchangeOf } from "./support/answers.ts";
import { eventsOrVerdict, failWith, held, judgeNarrowed, narrowingFor, undecided } from "./support/cases.ts";
import { type CaseResult, suiteEnv } from "./support/env.ts";
import { Findings } from "./support/findings.ts";
import { partialNote, settled, skipWithoutEvents } from "./support/known.ts";
import { blamePaging } from "./support/paging.ts";
import { probeOf } from "./support/probes.ts";
import { checkAll, checkProperty } from "./support/property.ts";

/** Offsets of the probes: UTC written otherwise, half-hour and extreme offsets on both sides. */
const OFFSETS = ["+00:00", "-00:00", "+09:30", "-03:00", "+05:45", "-10:00", "+14:00", "-12:00"] as const;
type Variant = "at the instant" | "one unit before" | "one unit after" | "other offset" | "extra zeros";

/**
 * The bounds every sender must take (UTC, the data's precision) four times in five, probes the fifth; drawn with
 * constantFrom, which spreads a few draws over the list as it stands.
 */
const VARIANTS: readonly Variant[] = [
  "at the instant",
  "one unit before",
  "one unit after",
  "at the instant",
  "other offset",
  "at the instant",
  "one unit before",
  "one unit after",
  "at the instant",
  "extra zeros",
];

interface TimeCase {
  /** The event's instant as the event writes it. */
  at: string;
  variant: Variant;
  offset: (typeof OFFSETS)[number];
  zeros: number;
}

function bound(c: TimeCase): string {
  const instant = parseInstant(c.at);
  const digits = fractionDigitsOf(c.at);
  switch (c.variant) {
    case "at the instant":
      return formatInstant(instant, { fractionDigits: digits });
    case "one unit before":
      return formatInstant(addUnits(instant, -1n, digits), { fractionDigits: digits });
    case "one unit after":
      return formatInstant(addUnits(instant, 1n, digits), { fractionDigits: digits });
    case "other offset":
      return formatInstant(instant, { offset: c.offset, fractionDigits: digits });
    case "extra zeros":
      return formatInstant(instant, { fractionDigits: digits + c.zeros });
  }
}

const COMPLEMENT: Record<TimeParameter, TimeParameter> = {
  LT_recordTime: "GE_recordTime",
  GE_recordTime: "LT_recordTime",
  LT_eventTime: "GE_eventTime",
  GE_eventTime: "LT_eventTime",
};

async function checkBound(checks: Checks, ctx: RunContext, parameter: TimeParameter): Promise<void> {
  const env = suiteEnv(ctx);
  if (skipWithoutEvents(checks, env.known)) return;
  const field = parameter.endsWith("recordTime") ? "recordTime" : "eventTime";
  const times = field === "recordTime" ? env.known.pools.recordTimes : env.known.pools.eventTimes;
  if (times.length === 0) {
    checks.skip(`no event the harness knows has a ${field} that is an xsd:dateTimeStamp`);
    return;
  }
  await checkProperty(checks, ctx, new Findings(), {
    subject: `${parameter} at the instants of the known events`,
    note: `; each bound also checked with ${COMPLEMENT[parameter]} splitting the events${partialNote(env.known)}`,
    arbitrary: fc.record({
      at: fc.constantFrom(...times),
      variant: fc.constantFrom(...VARIANTS),
      offset: fc.constantFrom(...OFFSETS),
      zeros: fc.integer({ min: 1, max: 3 }),
    }),
    isProbe: (c) => probeOf(env.known, { [parameter]: bound(c) }) !== undefined,
    // An event exactly at the bound is where a strict and an inclusive comparison part.
    decisive: (c) => c.variant === "at the instant",
    evaluate: async (c, findings): Promise<CaseResult> => {
      const value = bound(c);
      const query: EventQuery = { [parameter]: value };
      const [own, other] = await Promise.all([
        env.answers.get(query),
        env.answers.get({ [COMPLEMENT[parameter]]: value }),
      ]);
      if (own.kind === "refused") {
        // Too broad to answer (spec 7): the bound among the events around the event it was taken from.
        const holder = env.known.events.find((e) => e[field] === c.at);
        const narrowing = holder === undefined ? undefined : narrowingFor(holder);
        if (narrowing !== undefined) return judgeNarrowed(env, findings, query, narrowing);
      }
      const answered = eventsOrVerdict(env, findings, query, own);
      if (!Array.isArray(answered)) return answered;
      // The complement's events join the known ones: an event that both bounds answer, or neither, breaks the
      // split, and the side whose bound it meets (or fails) is the one at fault. Each once: the known events carry
      // the copies the repository holds, and a repeat in the complement's answer is no copy held.
      const known = unionOf(
        env.known.events,
        other.kind === "events" ? distinct(settled(env.known, other.events)) : [],
      );
      const problem = answerProblem({ query, answered, known });
      if (problem === undefined) {
        const split =
          other.kind === "events" ? `, and ${COMPLEMENT[parameter]} the other ${other.events.length}` : "";
        return held(
          own,
          () =>
            `${c.variant} of ${c.at}: GET /events?${encodeQuery(query)} answered the ${answered.length} event(s) whose ${field} meets the bound${split}`,
        );
      }
      const result = failWith(
        `${problem.reason} (bound: ${c.variant} of ${c.at})`,
        exchangeEvidence(exchangeOf(own), problem.evidence),
      );
      return blamePaging(env, findings, result, [[query, own]]);
    },
  });
}

requirementTest(
  "EVT-TIME-LT-RECORD",
  "LT_recordTime keeps recordTime strictly before the bound",
  (checks, ctx) => checkBound(checks, ctx, "LT_recordTime"),
);
requirementTest("EVT-TIME-GE-RECORD", "GE_recordTime keeps recordTime at or after the bound", (checks, ctx) =>
  checkBound(checks, ctx, "GE_recordTime"),
);
requirementTest(
  "EVT-TIME-LT-EVENT",
  "LT_eventTime keeps eventTime strictly before the bound",
  (checks, ctx) => checkBound(checks, ctx, "LT_eventTime"),
);
requirementTest("EVT-TIME-GE-EVENT", "GE_eventTime keeps eventTime at or after the bound", (checks, ctx) =>
  checkBound(checks, ctx, "GE_eventTime"),
);

const REQUIREMENT: Record<TimeParameter, string> = {
  LT_recordTime: "EVT-TIME-LT-RECORD",
  GE_recordTime: "EVT-TIME-GE-RECORD",
  LT_eventTime: "EVT-TIME-LT-EVENT",
  GE_eventTime: "EVT-TIME-GE-EVENT",
};

/** The offsets every run probes, so that a sender refusing them is told so in every run. */
const PROBED_OFFSETS = ["+00:00", "-00:00", "+09:30", "-10:00"] as const;
/** The first and last second of xsd:dateTimeStamp with a four-digit year: instants far outside any data. */
const FAR = ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"] as const;

/** The probes of one parameter, each with what it probes: other offsets, more digits, far instants. */
function timeProbes(at: string, maxDigits: number): { value: string; what: string }[] {
  const instant = parseInstant(at);
  const digits = fractionDigitsOf(at);
  return [
    ...PROBED_OFFSETS.map((offset) => ({
      value: formatInstant(instant, { offset, fractionDigits: digits }),
      what: `offset ${offset}`,
    })),
    {
      value: formatInstant(instant, { fractionDigits: maxDigits + 3 }),
      what: `${maxDigits + 3} fractional digits, more than the data has`,
    },
    ...FAR.map((value) => ({ value, what: "an instant far outside the data" })),
  ];
}

requirementTest(
  "EVT-TIME-PROBES",
  "Time bounds at other offsets, with more digits or far outside the data are accepted",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    if (skipWithoutEvents(checks, env.known)) return;
    const parameters: TimeParameter[] = ["LT_recordTime", "GE_recordTime", "LT_eventTime", "GE_eventTime"];
    const cases = parameters.flatMap((parameter) => {
      const times = parameter.endsWith("recordTime")
        ? env.known.pools.recordTimes
        : env.known.pools.eventTimes;
      const sorted = [...times].sort((a, b) => compareInstants(parseInstant(a), parseInstant(b)));
      const at = sorted[Math.floor(sorted.length / 2)];
      if (at === undefined) return [];
      const maxDigits = Math.max(...times.map(fractionDigitsOf));
      return timeProbes(at, maxDigits).map(({ value, what }) => async (findings: Findings) => {
        const query: EventQuery = { [parameter]: value };
        const answer = await env.answers.get(query);
        if (answer.kind === "rejected" || (answer.kind === "broken" && answer.paging === undefined)) {
          const how = answer.kind === "rejected" ? `status ${answer.result.status}` : answer.message;
          return failWith(
            `${encodeQuery(query)} (${what}) was refused (${how}); spec 4.1 types the bound as an xsd:dateTimeStamp, which allows it`,
            exchangeEvidence(exchangeOf(answer)),
          );
        }
        const answered = eventsOrVerdict(env, findings, query, answer);
        if (!Array.isArray(answered)) return answered;
        // Accepted, it is a bound like any other: a wrong answer fails the parameter's own requirement, unless
        // its pages lost the events (EVT-PAGING).
        const problem = answerProblem({ query, answered, known: env.known.events });
        if (problem !== undefined) {
          const wrong = failWith(
            `${problem.reason} (a bound with ${what}, which the target accepted)`,
            exchangeEvidence(exchangeOf(answer), problem.evidence),
          );
          const result = await blamePaging(env, findings, wrong, [[query, answer]]);
          if (result.status === "fail") findings.note(REQUIREMENT[parameter], result);
        }
        return held(answer, `${encodeQuery(query)} (${what}) was accepted`);
      });
    });
    if (cases.length === 0) {
      checks.skip("no event the harness knows has an eventTime or recordTime that is an xsd:dateTimeStamp");
      return;
    }
    await checkAll(checks, new Findings(), "time bounds the harness invented", cases);
  },
);

/** Values that are not xsd:dateTimeStamp, built around a known instant where there is one. */
function invalidTimes(sample: string | undefined): string[] {
  const at = sample ?? "2025-06-06T07:41:33.452Z";
  const local = at.replace(/(Z|[+-]\d{2}:\d{2})$/, "");
  return [local, local.slice(0, 10), `${local.slice(0, 19)}+25:00`, "2025-02-30T10:00:00Z", "not-a-time"];
}

requirementTest(
  "EVT-TIME-FORMAT",
  "A time bound that is not a dateTimeStamp is refused",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    const values = invalidTimes(env.known.pools.eventTimes[0]);
    const parameters: TimeParameter[] = ["LT_recordTime", "GE_recordTime", "LT_eventTime", "GE_eventTime"];
    const cases = parameters.flatMap((p) =>
      values.map((value) => async (): Promise<CaseResult> => {
        const answer = await env.answers.get(`${p}=${encodeURIComponent(value)}`);
        const evidence = exchangeEvidence(exchangeOf(answer), {
          expected: "a 4xx refusal",
          actual: answer.kind,
        });
        switch (answer.kind) {
          case "refused":
          case "rejected":
            // The refusal is the proof: spec 4.1 types the bound as an xsd:dateTimeStamp, which this is not.
            return held(
              answer,
              `${p}=${value}, not an xsd:dateTimeStamp, was refused with ${answer.result.status}`,
            );
          case "events":
            return failWith(
              `${p}=${value} was answered with ${answer.events.length} events instead of being refused with a 4xx`,
              evidence,
            );
          case "broken":
            return failWith(`${p}=${value} was not refused with a 4xx: ${answer.message}`, evidence);
          case "throttled":
            return undecided(answer);
        }
      }),
    );
    await checkAll(checks, new Findings(), "time bounds that are not xsd:dateTimeStamp", cases);
  },
);
