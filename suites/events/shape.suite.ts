// Spec 4.1 GET /events: "Returns all events in the repository, or only the events that match the criteria";
// the body is EPCIS 2.0 JSON-LD conforming to the published schema. The answer's shape, its completeness without
// parameters, the sameness of an event across answers, the empty answer, 413 (spec 7) and paging.

import {
  type LoadedDifferences,
  loadedDifferences,
  ServedEvents,
} from "../../src/assertions/event-content.ts";
import { compareEventSets, describeComparison, distinct, unionOf } from "../../src/assertions/event-sets.ts";
import type { Failure } from "../../src/assertions/failure.ts";
import { queryDocumentProblem } from "../../src/assertions/query-document.ts";
import { SchemaUnavailableError } from "../../src/definition/index.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { runValidators } from "../../src/engine/run-definition.ts";
import { type Checks, requirementTest } from "../../src/engine/suite.ts";
import type { Evidence } from "../../src/engine/types.ts";
import { NO_MATCH } from "../../src/generate/index.ts";
import {
  bizStepForms,
  CBV_BIZSTEPS,
  canonicalBizStep,
  compareInstants,
  encodeQuery,
  eventIdentity,
  parseInstant,
  runOracle,
} from "../../src/model/index.ts";
import type { EpcisEvent, EventQuery } from "../../src/model/types.ts";
import { queryEvents } from "../../src/target/events.ts";
import { CLASS_FIELDS, EPC_FIELDS } from "../../src/target/pools.ts";
import { type Answer, exchangeOf } from "./support/answers.ts";
import { failWith, held, INCONCLUSIVE_413, undecided } from "./support/cases.ts";
import { type CaseResult, suiteEnv } from "./support/env.ts";
import { Findings } from "./support/findings.ts";
import { closest, heldDifferences, type Known, skipWithoutEvents } from "./support/known.ts";
import { pagedProblem } from "./support/paging.ts";
import { inUtc } from "./support/probes.ts";
import { checkAll, recordResults } from "./support/property.ts";

/** The first instant of xsd:dateTimeStamp: GE it spans every event. A probe: a sender may refuse it. */
const EARLIEST = "0001-01-01T00:00:00Z";

/** The eventTime of a known event, the middle one in time: a bound the data gives, which no sender can call invented. */
function middleTime(k: Known): string | undefined {
  const time = k.pools.eventTimes[Math.floor(k.pools.eventTimes.length / 2)];
  // In UTC, as spec 4.1 types the bounds, with the event's own digits, so that the event itself meets GE and not LT.
  return time === undefined ? undefined : inUtc(time);
}

/**
 * Queries whose answers together no event can miss: any event they answer is one the unfiltered query answers too.
 * The bounds at the first instant are probes a sender may refuse; GE and LT one known event's eventTime are values
 * of the target's own, which spec 4.1 says it must support, and between them they hold every event of the repository.
 */
function spanningQueries(k: Known): EventQuery[] {
  const out: EventQuery[] = [{ GE_eventTime: EARLIEST }, { GE_recordTime: EARLIEST }];
  const time = middleTime(k);
  if (time !== undefined) out.push({ GE_eventTime: time }, { LT_eventTime: time });
  return out;
}
/** EPCs whose answers are compared for content, spread over the known ones. */
const CONTENT_EPCS = 24;

/** One query per kind of parameter, a pipe, a bound and one matching nothing: the answers whose shape is judged. */
function sampleQueries(k: Known): EventQuery[] {
  const { pools } = k;
  const epcs = EPC_FIELDS.flatMap((f) => pools.epcs[f]);
  const classes = CLASS_FIELDS.flatMap((f) => pools.classes[f]);
  const firsts: [keyof EventQuery, string | undefined][] = [
    ["MATCH_anyEPC", epcs[0]],
    ["MATCH_anyEPCClass", classes[0]],
    ["EQ_bizStep", pools.bizSteps[0]],
    ["EQ_transformationID", pools.transformationIds[0]],
    ["EQ_bizLocation", pools.locations[0]],
  ];
  const out: EventQuery[] = [{}];
  for (const [parameter, value] of firsts) if (value !== undefined) out.push({ [parameter]: [value] });
  if (pools.bizSteps.length >= 2) out.push({ EQ_bizStep: pools.bizSteps.slice(0, 2) });
  const time = middleTime(k);
  if (time !== undefined) out.push({ GE_eventTime: time });
  out.push({ MATCH_anyEPC: [NO_MATCH.epcs[1]] });
  return out;
}

requirementTest(
  "EVT-UNFILTERED",
  "No parameter returns every event the target holds",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    // The spanning queries are the evidence independent of the unfiltered answer, which discovery takes as the
    // baseline when it is answered. A refusal of one only leaves it out. They are read first: a repository may grow
    // while it is checked, and only the events of an answer read before the unfiltered request was sent are events it
    // held when it answered that request; an event captured later is in neither the comparison nor the verdict.
    const spanning = (await Promise.all(spanningQueries(env.known).map((q) => env.answers.get(q)))).filter(
      (a): a is Answer & { kind: "events" } => a.kind === "events",
    );
    let answer = await env.answers.get({});
    const lastRead = Math.max(0, ...spanning.map((a) => a.read));
    // Asked for another check before the spanning queries were answered: asked again, after them.
    if (answer.kind === "events" && answer.sent < lastRead) answer = await queryEvents(ctx, {});
    const evidence = exchangeEvidence(exchangeOf(answer));
    switch (answer.kind) {
      case "throttled": {
        const result = undecided(answer);
        if (result.status === "error") checks.error(result.reason, result.evidence);
        return;
      }
      case "refused":
        checks.pass("the unfiltered query was refused with 413 as too broad, which spec 7 allows", evidence);
        return;
      case "rejected":
        // Spec 7 names 413 for a query too broad to run and shows no other status: a refusal, with a status the
        // spec does not name.
        checks.warn(
          `the query without parameters was refused with status ${answer.result.status}; spec 7 names 413 for a query too broad to run and shows no other status`,
          evidence,
        );
        return;
      case "broken":
        if (answer.paging !== undefined) {
          checks.skip("the pages of the unfiltered answer could not be read to the end (see EVT-PAGING)");
          return;
        }
        checks.fail(`the query without parameters got no usable answer: ${answer.message}`, evidence);
        return;
      case "events":
        break;
    }
    const unfiltered = answer;
    const before = spanning.filter((a) => a.read < unfiltered.sent);
    // The known events carry the copies of an identity the repository holds more than once, and the unfiltered
    // answer may hold it as often; a spanning answer's repeats are no copies of the repository's.
    const known = unionOf(env.known.events, ...before.map((a) => distinct(a.events)));
    const comparison = compareEventSets(known, unfiltered.events);
    const missing = [...comparison.missing, ...notServed(env.known.datasetEvents ?? [], unfiltered.events)];
    if (missing.length > 0 || comparison.duplicated.length > 0) {
      const judged = {
        missing: [...new Set(missing)],
        extra: [],
        duplicated: comparison.duplicated,
        equal: false,
      };
      checks.fail(`the unfiltered answer is not every event: ${describeComparison(judged)}`, {
        ...evidence,
        expected: {
          events: known.length,
          dataset: env.known.datasetEvents?.length,
          from: "the baseline, the dataset, and the spanning queries answered before it was asked",
        },
        // Answered events the harness did not know of are the repository's later captures, not extras; what is
        // answered twice is listed as the other checks list it.
        actual: { events: unfiltered.events.length, duplicated: judged.duplicated.slice(0, 50) },
        missing: judged.missing.slice(0, 50),
      });
      return;
    }
    const late = unfiltered.events.length - known.length;
    checks.pass(
      `the unfiltered answer holds all ${known.length} events known before it was asked (the baseline${before.length > 0 ? ` and ${before.length} spanning queries` : ""})${late > 0 ? `, and ${late} more the repository may have captured since` : ""}`,
      evidence,
    );
  },
);

requirementTest(
  "EVT-SHAPE-SCHEMA",
  "Each answer is an EPCISQueryDocument valid against the published schema",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    let validators: Awaited<ReturnType<typeof runValidators>>;
    try {
      validators = await runValidators(ctx);
    } catch (err) {
      if (!(err instanceof SchemaUnavailableError)) throw err;
      checks.error(`schema unavailable: ${err.message}`);
      return;
    }
    const cases = sampleQueries(env.known).map((q) => async (): Promise<CaseResult> => {
      const answer = await env.answers.get(q);
      if (answer.kind === "throttled") return undecided(answer);
      if (answer.kind === "refused") return { status: "inconclusive", reason: INCONCLUSIVE_413 };
      // A refusal or a broken answer is for the requirement of the query to report; there is no body to judge.
      if (answer.kind !== "events") return { status: "inconclusive", reason: "no answer to validate" };
      for (const page of answer.pages) {
        const problem = queryDocumentProblem(page.json(), validators, page.exchange);
        if (problem !== undefined)
          return failWith(`${problem.reason} (answer to ${page.url})`, problem.evidence);
      }
      const pages =
        answer.pages.length === 1 ? "its answer is" : `the ${answer.pages.length} pages of its answer are`;
      return held(answer, `${pages} valid against the published EPCIS 2.0 schema`);
    });
    await checkAll(
      checks,
      new Findings(),
      "answers to the unfiltered query and one query per parameter",
      cases,
    );
  },
);

/** The identities of the loaded events that `served` lacks (ServedEvents: how a loaded event is found served). */
function notServed(loaded: readonly EpcisEvent[], served: readonly EpcisEvent[]): string[] {
  if (loaded.length === 0) return [];
  const copies = new ServedEvents(served);
  return loaded.filter((e) => copies.copyOf(e) === undefined).map(eventIdentity);
}

/** How a loaded event differs from its served copies: matching any copy of its identity is no change. */
function loadedHeldDifferences(
  k: Known,
  loaded: EpcisEvent,
  copy: EpcisEvent,
): LoadedDifferences | undefined {
  const held = k.copies.get(eventIdentity(copy));
  if (held === undefined) return loadedDifferences(loaded, copy);
  return closest(held.map((c) => loadedDifferences(loaded, c)));
}

/** The known events as loaded events are looked up in, one lookup per run's knowledge. */
const knownCopies = new WeakMap<Known, ServedEvents>();

/** The served copy of a loaded event among the known events, or undefined. */
function servedCopy(k: Known, loaded: EpcisEvent): EpcisEvent | undefined {
  let copies = knownCopies.get(k);
  if (copies === undefined) {
    copies = new ServedEvents(k.events, k.byId);
    knownCopies.set(k, copies);
  }
  return copies.copyOf(loaded);
}

requirementTest(
  "EVT-SHAPE-CONTENT",
  "An event has the same content in every answer and as loaded",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    const others = ["EVT-SHAPE-EXTENSIONS", "EVT-SHAPE-PRECISION"].map((id) => checks.for(id));
    if (skipWithoutEvents(checks, env.known)) {
      for (const other of others) skipWithoutEvents(other, env.known);
      return;
    }
    const { pools } = env.known;
    const epcs = [...new Set(EPC_FIELDS.flatMap((f) => pools.epcs[f]))];
    const spread = epcs.filter((_, i) => i % Math.max(1, Math.floor(epcs.length / CONTENT_EPCS)) === 0);
    const queries: EventQuery[] = [
      ...sampleQueries(env.known),
      ...pools.bizSteps.map((v) => ({ EQ_bizStep: [v] })),
      ...pools.transformationIds.map((v) => ({ EQ_transformationID: [v] })),
      ...spread.map((v) => ({ MATCH_anyEPC: [v] })),
    ];
    /** The requirements a difference was noted under, in the case's `findings`, which checkAll records. */
    const noted = new Set<string>();
    const note = (findings: Findings, id: string, reason: string, evidence: Evidence) => {
      noted.add(id);
      findings.note(id, { reason, evidence });
    };
    /** By query, the answers that held an event known before; the cases run at once, so they fill it in any order. */
    const comparedAnswers: ((Answer & { kind: "events" }) | undefined)[] = [];
    const served = queries.map((q, i) => async (findings: Findings): Promise<CaseResult> => {
      const answer = await env.answers.get(q);
      if (answer.kind === "throttled") return undecided(answer);
      if (answer.kind !== "events") return { status: "inconclusive", reason: "no answer to compare" };
      let compared = 0;
      /** The requirements a difference of this answer was noted under: one note each per answer. */
      const differing = new Set<string>();
      const noteOnce = (id: string, problem: Failure | undefined) => {
        if (problem === undefined || differing.has(id)) return;
        differing.add(id);
        note(
          findings,
          id,
          `${problem.reason} (answer to ${answer.url})`,
          exchangeEvidence(exchangeOf(answer), problem.evidence),
        );
      };
      for (const event of answer.events) {
        const earlier = env.known.byId.get(eventIdentity(event));
        // An event discovery did not find may have been captured since: there is nothing to compare it with.
        if (earlier === undefined) continue;
        compared += 1;
        const found = heldDifferences(env.known, event);
        noteOnce("EVT-SHAPE-CONTENT", found?.content);
        noteOnce("EVT-SHAPE-PRECISION", found?.precision);
      }
      if (compared === 0) return { status: "inconclusive", reason: "no event discovered before to compare" };
      comparedAnswers[i] = answer;
      return held(answer, `the ${compared} event(s) of its answer known before are served as before`);
    });
    const datasetEvents = env.known.datasetEvents ?? [];
    const loaded = datasetEvents.map((event) => async (findings: Findings): Promise<CaseResult> => {
      const copy = servedCopy(env.known, event);
      if (copy === undefined)
        return { status: "inconclusive", reason: "a loaded event is not served (see EVT-UNFILTERED)" };
      const found = loadedHeldDifferences(env.known, event, copy);
      if (found?.extensions !== undefined)
        note(findings, "EVT-SHAPE-EXTENSIONS", found.extensions.reason, found.extensions.evidence);
      if (found?.precision !== undefined)
        note(findings, "EVT-SHAPE-PRECISION", found.precision.reason, found.precision.evidence);
      return found?.content === undefined
        ? { status: "ok" }
        : failWith(found.content.reason, found.content.evidence);
    });
    await checkAll(
      checks,
      new Findings(),
      "answers compared event by event with the baseline (and the loaded dataset)",
      [...served, ...loaded],
    );
    // The answer holding most of the known events, the first such in the queries' order: what the passes of the
    // requirements beside this one show, the same run after run.
    let widest: (Answer & { kind: "events" }) | undefined;
    for (const answer of comparedAnswers) {
      if (answer !== undefined && (widest === undefined || answer.events.length > widest.events.length))
        widest = answer;
    }
    const shown = widest === undefined ? undefined : exchangeEvidence(exchangeOf(widest));
    const [extensions, precision] = others as [Checks, Checks];
    if (!noted.has("EVT-SHAPE-EXTENSIONS")) {
      if (loaded.length === 0) {
        extensions.skip(
          "the dataset the target was loaded with is not known, so there is nothing to compare the served extension members with (pass --dataset, or --load capture)",
        );
      } else {
        extensions.pass(`${loaded.length} loaded events compared with how they are served`, shown);
      }
    }
    if (!noted.has("EVT-SHAPE-PRECISION")) {
      if (shown === undefined) {
        precision.skip("no answer held an event known before to compare its times with");
      } else {
        const against =
          loaded.length > 0
            ? "as loaded and in every answer"
            : "in every answer (the dataset the target was loaded with is not known)";
        precision.pass(`times are served with the same digits ${against}`, shown);
      }
    }
  },
);

/** A CBV step none of the known events carries, in URN form: a value no sender can call invented. */
function absentStep(k: Known): string | undefined {
  const present = new Set(k.pools.bizSteps.map(canonicalBizStep));
  const step = CBV_BIZSTEPS.find((s) => !present.has(s));
  return step === undefined ? undefined : bizStepForms(step).urn;
}

/** LT the earliest known instant of the field, in UTC: a bound the data gives that no known event meets. */
function beforeEverything(times: readonly string[]): string | undefined {
  const sorted = [...times].sort((a, b) => compareInstants(parseInstant(a), parseInstant(b)));
  return sorted[0] === undefined ? undefined : inUtc(sorted[0]);
}

requirementTest(
  "EVT-NO-MATCH",
  "A query matching nothing answers an empty event list",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    const step = absentStep(env.known);
    const first = beforeEverything(env.known.pools.eventTimes);
    const candidates: EventQuery[] = [
      { MATCH_anyEPC: [NO_MATCH.epcs[1]] },
      { MATCH_anyEPCClass: [NO_MATCH.classes[0]] },
      { EQ_bizStep: [step ?? NO_MATCH.bizSteps[2]] },
      { EQ_transformationID: [NO_MATCH.transformationIds[0]] },
      { EQ_bizLocation: [NO_MATCH.locations[0]] },
      ...(first === undefined ? [] : [{ LT_eventTime: first }]),
    ];
    const queries = candidates.filter((q) => runOracle(env.known.candidates(q), q).length === 0);
    const cases = queries.map((q) => async (): Promise<CaseResult> => {
      const answer = await env.answers.get(q);
      const evidence = exchangeEvidence(exchangeOf(answer));
      switch (answer.kind) {
        case "throttled":
          return undecided(answer);
        case "refused":
          return { status: "inconclusive", reason: INCONCLUSIVE_413 };
        case "rejected":
          return failWith(
            `${encodeQuery(q)} matches nothing and was refused with status ${answer.result.status} instead of answered with an empty list`,
            evidence,
          );
        case "broken":
          return failWith(
            `${encodeQuery(q)} matches nothing and got no usable answer: ${answer.message}`,
            evidence,
          );
        case "events":
          return answer.events.length === 0
            ? held(answer, `${encodeQuery(q)} matches nothing and was answered with an empty event list`)
            : {
                status: "inconclusive",
                reason: "answered events the harness does not expect (see the filter's requirement)",
              };
      }
    });
    await checkAll(checks, new Findings(), "queries matching nothing", cases);
  },
);

/** GE the earliest known eventTime, in UTC: a bound the data gives that every known event with one meets. */
function spanningAll(k: Known): EventQuery | undefined {
  const first = beforeEverything(k.pools.eventTimes);
  return first === undefined ? undefined : { GE_eventTime: first };
}

requirementTest("EVT-413-BROAD", "A query too broad to run may be refused with 413", async (checks, ctx) => {
  const env = suiteEnv(ctx);
  const broad: EventQuery[] = [{}, ...[spanningAll(env.known)].filter((q) => q !== undefined)];
  const notes: string[] = [];
  // Only an answer or a 413 shows how the sender meets a broad query; anything else shows nothing here. The first
  // that shows it is the proof.
  let shown: Evidence | undefined;
  for (const q of broad) {
    const answer = await env.answers.get(q);
    const what = encodeQuery(q) === "" ? "the unfiltered query" : encodeQuery(q);
    if (shown === undefined && (answer.kind === "events" || answer.kind === "refused"))
      shown = exchangeEvidence(exchangeOf(answer));
    if (answer.kind === "events") notes.push(`${what} was answered with ${answer.events.length} events`);
    else if (answer.kind === "refused") notes.push(`${what} was refused with 413, which spec 7 allows`);
    else if (answer.kind === "throttled") notes.push(`${what} was still answered 429 after the retries`);
    else
      notes.push(
        `${what} got ${answer.kind === "rejected" ? `status ${answer.result.status}` : "no usable answer"} (see EVT-UNFILTERED)`,
      );
  }
  if (shown !== undefined) checks.pass(notes.join("; "), shown);
  else checks.skip(`no broad query was answered or refused with 413: ${notes.join("; ")}`);
});

requirementTest(
  "EVT-PAGING",
  'Following rel="next" yields every matching event once',
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    const { pools } = env.known;
    // The broadest answers are the likeliest to be paged.
    const busiest = (parameter: "EQ_bizStep" | "EQ_bizLocation", values: readonly string[]) =>
      values
        .map((v): { q: EventQuery; n: number } => {
          const q = { [parameter]: [v] };
          return { q, n: runOracle(env.known.candidates(q), q).length };
        })
        .sort((a, b) => b.n - a.n)[0]?.q;
    const candidates: (EventQuery | undefined)[] = [
      {},
      spanningAll(env.known),
      busiest("EQ_bizStep", pools.bizSteps),
      busiest("EQ_bizLocation", pools.locations),
    ];
    const queries = candidates.filter((q): q is EventQuery => q !== undefined);
    const answers = await Promise.all(queries.map((q) => env.answers.get(q)));
    const cases = queries.map((q, i) => async (): Promise<CaseResult> => {
      const answer = answers[i]!;
      if (answer.kind === "throttled") return undecided(answer);
      if (answer.kind === "broken" && answer.paging !== undefined) {
        return failWith(answer.message, exchangeEvidence(answer.exchange));
      }
      if (answer.kind !== "events") return { status: "inconclusive", reason: "no answer to read" };
      // An unfiltered answer on one page that lacks events is cut short, not paged: EVT-UNFILTERED reports it.
      if (Object.keys(q).length === 0 && answer.pages.length < 2)
        return { status: "inconclusive", reason: "not paged" };
      const problem = await pagedProblem(env, q, answer);
      if (problem.status === "ok" && answer.pages.length < 2)
        return { status: "inconclusive", reason: "not paged" };
      return problem;
    });
    const results = await Promise.all(cases.map((c) => c()));
    const notDecided = results.find((r) => r.status === "error");
    if (notDecided?.status === "error") {
      checks.error(notDecided.reason, notDecided.evidence);
      return;
    }
    if (results.every((r) => r.status === "inconclusive")) {
      checks.skip("the target did not page any answer");
      return;
    }
    recordResults(checks, new Findings(), "broad answers read through their pages", results);
  },
);
