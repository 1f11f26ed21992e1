// Verdicts about events of the baseline, each shown with an exchange that serves the event again: a narrow query
// on one of its identifiers, so that the curl line in the report reproduces what was judged, for a pass as for a
// failure. A pass is a claim and carries the answer that serves the judged event: when no identifier selects it,
// or the narrow query does not serve it again, the window of its own eventTime and then the unfiltered query (the
// baseline's own first query) are asked for it.

import type { RunContext } from "../../../src/engine/context.ts";
import { exchangeEvidence } from "../../../src/engine/evidence.ts";
import { perRun } from "../../../src/engine/run-scope.ts";
import type { Checks } from "../../../src/engine/suite.ts";
import type { Evidence } from "../../../src/engine/types.ts";
import {
  addUnits,
  type EpcisEvent,
  type EventQuery,
  eventIdentity,
  formatInstant,
  fractionDigitsOf,
  parseInstant,
} from "../../../src/model/index.ts";
import { identifiersOf } from "../../../src/target/baseline.ts";
import { eventsUrl, loadBaseline } from "../../../src/target/client.ts";
import { exchangeOf, queryEvents } from "../../../src/target/events.ts";

/** How many failing events are shown with their own exchange; the rest are counted in the reason. */
const SHOWN_EVENTS = 5;

export interface EventProblem {
  event: EpcisEvent;
  problem: Evidence;
}

/** A query that selects the event among few others: one of its EPCs, else a class, else its transformation. */
function narrowQueryFor(event: EpcisEvent): EventQuery | undefined {
  const { epcs, classes } = identifiersOf(event);
  const epc = epcs[0];
  if (epc !== undefined) return { MATCH_anyEPC: [epc] };
  const cls = classes[0];
  if (cls !== undefined) return { MATCH_anyEPCClass: [cls] };
  if (typeof event.transformationID === "string") return { EQ_transformationID: [event.transformationID] };
  return undefined;
}

/**
 * The window of the event's own eventTime, one unit of its written precision wide (spec 4.1: GE_eventTime and
 * LT_eventTime), in UTC; undefined when the event has no eventTime the harness can read.
 */
function timeQueryFor(event: EpcisEvent): EventQuery | undefined {
  const written = event.eventTime;
  if (typeof written !== "string") return undefined;
  try {
    const at = parseInstant(written);
    const digits = fractionDigitsOf(written);
    return {
      GE_eventTime: formatInstant(at, { fractionDigits: digits }),
      LT_eventTime: formatInstant(addUnits(at, 1n, digits), { fractionDigits: digits }),
    };
  } catch {
    return undefined;
  }
}

/** The answers of queries a run has asked, by URL: the checks of the class often show the same event. */
const asked = perRun(() => new Map<string, ReturnType<typeof queryEvents>>());

/** The target's answer to `query`, asked once per run. */
function askOnce(ctx: RunContext, query: EventQuery): ReturnType<typeof queryEvents> {
  const url = eventsUrl(ctx, query);
  const answers = asked(ctx);
  let answer = answers.get(url);
  if (answer === undefined) {
    answer = queryEvents(ctx, query);
    answers.set(url, answer);
  }
  return answer;
}

/** The answer of the target to the narrow query for the event, asked once per run. */
function servedAgain(ctx: RunContext, event: EpcisEvent): ReturnType<typeof queryEvents> | undefined {
  const query = narrowQueryFor(event);
  return query === undefined ? undefined : askOnce(ctx, query);
}

async function servedEvidence(ctx: RunContext, found: EventProblem): Promise<Evidence> {
  const answer = servedAgain(ctx, found.event);
  if (answer === undefined) return found.problem;
  const exchange = exchangeOf(await answer);
  // The event was judged as the baseline holds it; an exchange that fails now only loses the curl line.
  return exchange?.response === undefined ? found.problem : exchangeEvidence(exchange, found.problem);
}

/** The queries that may serve the event, narrowest first; the unfiltered query, last, serves every event. */
function queriesFor(event: EpcisEvent): EventQuery[] {
  return [narrowQueryFor(event), timeQueryFor(event), {}].filter((q): q is EventQuery => q !== undefined);
}

/**
 * The GET /events answer that serves a judged event again, for a pass: the exchange whose content the verdict
 * rests on, with `message` saying what it shows. The narrowest query that serves the event is shown; undefined
 * when none of them did (each was refused, broke, or answered without the event).
 */
export async function passEvidence(
  ctx: RunContext,
  event: EpcisEvent,
  message: string,
): Promise<Evidence | undefined> {
  const id = eventIdentity(event);
  // Asked one after another: a wider query is asked only when the narrower did not serve the event.
  for (const query of queriesFor(event)) {
    const answer = await askOnce(ctx, query);
    if (answer.kind !== "events") continue;
    const served = answer.events.find((e) => eventIdentity(e) === id);
    const exchange = exchangeOf(answer);
    if (served !== undefined && exchange?.response !== undefined) {
      return exchangeEvidence(exchange, { message, actual: served });
    }
  }
  return undefined;
}

/**
 * One fail per event shown (the first reason counts them all), each with the exchange that serves it, so that
 * a requirement's reason names the extent and its evidence the first cases. `as: "warn"` records warnings
 * instead, where the rule is not the target's own (a schema or rows tracecheck lent to its definition).
 */
export async function failEvents(
  checks: Checks,
  ctx: RunContext,
  found: readonly EventProblem[],
  summary: string,
  as: "fail" | "warn" = "fail",
): Promise<void> {
  const shown = found.slice(0, SHOWN_EVENTS);
  const evidence = await Promise.all(shown.map((f) => servedEvidence(ctx, f)));
  shown.forEach((f, i) => {
    const message = f.problem.message ?? "the event breaks the rule";
    checks[as](i === 0 ? `${summary}; first: ${message}` : message, evidence[i]);
  });
}

/** The note that says how far a verdict over the baseline reaches. */
export function coverageNote(checked: number, complete: boolean, note: string): string {
  return complete
    ? `${checked} events checked, every event the target holds`
    : `${checked} events checked, those the harness could reach (${note})`;
}

export interface EveryEvent {
  /** Evidence of what the event breaks, or undefined when it holds. */
  rule: (event: EpcisEvent) => Evidence | undefined;
  /** The failure's summary, from the count of events that break the rule and the count judged. */
  summary: (count: number, total: number) => string;
  /**
   * What a pass shows of an event the rule judged, or undefined for one it does not concern: the first event that
   * says something is the one served again as the pass's evidence (else the first event).
   */
  shown: (event: EpcisEvent) => string | undefined;
  /** Set when the rule concerns some events only: the pass's note when it concerns none of them. */
  none?: string;
  /** Where the rule comes from, appended to every verdict's reason. */
  source?: string;
  as?: "fail" | "warn";
}

/**
 * Judges every event of the baseline by `rule`: the events that break it fail (or warn), with the exchanges that
 * serve them; else one pass with the answer that serves an event it judged.
 */
export async function checkEvery(checks: Checks, ctx: RunContext, every: EveryEvent): Promise<void> {
  const source = every.source ?? "";
  const baseline = loadBaseline(ctx);
  const events = baseline.events;
  if (events.length === 0) {
    checks.skip(`the harness holds no events of the target to judge: ${baseline.note}`);
    return;
  }
  const found: EventProblem[] = events.flatMap((event) => {
    const problem = every.rule(event);
    return problem === undefined ? [] : [{ event, problem }];
  });
  if (found.length > 0) {
    await failEvents(checks, ctx, found, every.summary(found.length, events.length) + source, every.as);
    return;
  }
  let shown: { event: EpcisEvent; message: string } | undefined;
  for (const event of events) {
    const message = every.shown(event);
    if (message !== undefined) {
      shown = { event, message };
      break;
    }
  }
  const event = shown?.event ?? events[0]!;
  const none = shown === undefined && every.none !== undefined ? `; ${every.none}` : "";
  const evidence = await passEvidence(
    ctx,
    event,
    shown?.message ?? `event ${eventIdentity(event)} as served${none === "" ? "" : `: ${every.none}`}`,
  );
  // Only a target that served the event to discovery and now serves it to none of these queries leaves a pass
  // without its exchange; the note says so, as the verdict rests on the baseline alone then.
  const unshown =
    evidence === undefined
      ? `; no query served ${eventIdentity(event)} again (its identifiers, its eventTime, unfiltered), so no exchange shows it`
      : "";
  checks.pass(
    `${coverageNote(events.length, baseline.complete, baseline.note)}${none}${source}${unshown}`,
    evidence,
  );
}
