// An answer that loses events between its pages is a paging defect (EVT-PAGING), not a filter defect. When a check
// fails, the same query is asked again in time windows narrow enough to fit a page: events the windows rightly
// answer and the answer lacks were lost on the way, since a narrower query can only answer fewer events. The
// answer need not look paged: a page that omits its rel="next" link looks like the last one.

import { unionOf } from "../../../src/assertions/event-sets.ts";
import type { Failure } from "../../../src/assertions/failure.ts";
import { exchangeEvidence } from "../../../src/engine/evidence.ts";
import { eventIdentity, matchesQuery, runOracle } from "../../../src/model/index.ts";
import type { EpcisEvent, EventQuery } from "../../../src/model/types.ts";
import { eventsOf } from "../../../src/target/baseline.ts";
import { queryEvents } from "../../../src/target/events.ts";
import type { Answer } from "./answers.ts";
import type { CaseResult, SuiteEnv } from "./env.ts";
import type { Findings } from "./findings.ts";
import { type TimeField, timeWindows } from "./windows.ts";

/** Windows asked to audit one paged answer. */
const MAX_WINDOWS = 64;

type Read = Answer & { kind: "events" };

/**
 * The time field to cut windows along: one the query does not bound, so that each window repeats the query's own
 * bounds as they are and a defect of those bounds cannot pass for a lost page.
 */
function windowField(q: EventQuery): TimeField | undefined {
  if (q.GE_eventTime === undefined && q.LT_eventTime === undefined) return "eventTime";
  if (q.GE_recordTime === undefined && q.LT_recordTime === undefined) return "recordTime";
  return undefined;
}

/**
 * Events answered on more than one page (or twice on one): more times than the repository holds them (`copies`,
 * Known: an identity it holds twice is rightly answered twice).
 */
export function answeredTwice(answer: Read, copies: ReadonlyMap<string, readonly EpcisEvent[]>): string[] {
  const seen = new Map<string, number>();
  const twice = new Set<string>();
  for (const e of answer.events) {
    const id = eventIdentity(e);
    const times = (seen.get(id) ?? 0) + 1;
    seen.set(id, times);
    if (times > (copies.get(id)?.length ?? 1)) twice.add(id);
  }
  return [...twice];
}

/**
 * Of the events an answer lacks, those the repository held when it was asked. The windows that found them were
 * asked after the answer, and a repository may grow while it is checked: an event discovery found was there
 * before, and one it did not find counts only when the query asked again, after the windows, lacks it too.
 */
async function heldBefore(env: SuiteEnv, q: EventQuery, missed: EpcisEvent[]): Promise<EpcisEvent[]> {
  const discovered = missed.filter((e) => env.known.byId.has(eventIdentity(e)));
  if (discovered.length === missed.length) return missed;
  const again = await queryEvents(env.ctx, q);
  if (again.kind !== "events") return discovered;
  const now = new Set(again.events.map(eventIdentity));
  return missed.filter((e) => env.known.byId.has(eventIdentity(e)) || !now.has(eventIdentity(e)));
}

/** The events that narrower queries answer and the pages of `answer` do not, or undefined when there are none. */
export async function pagingLoss(env: SuiteEnv, q: EventQuery, answer: Read): Promise<Failure | undefined> {
  const firstPage = eventsOf(answer.pages[0]?.json())?.length ?? 0;
  const field = windowField(q);
  if (field === undefined) return undefined;
  const events = unionOf(runOracle(env.known.candidates(q), q), answer.events);
  const windows = timeWindows(events, field, Math.floor(firstPage / 2), MAX_WINDOWS).map((w) => ({
    ...q,
    ...w,
  }));
  const narrower = await Promise.all(windows.map((w) => env.answers.get(w)));
  const answered = new Set(answer.events.map(eventIdentity));
  // Only events a window answers rightly count: a window that answers too much proves nothing about the pages.
  const missed = unionOf(
    ...narrower.map((a, i) =>
      a.kind === "events" ? a.events.filter((e) => matchesQuery(e, windows[i]!)) : [],
    ),
  ).filter((e) => !answered.has(eventIdentity(e)));
  if (missed.length === 0) return undefined;
  const lost = await heldBefore(env, q, missed);
  if (lost.length === 0) return undefined;
  const ids = lost.map(eventIdentity);
  return {
    reason: `the answer to ${answer.url}, read through ${answer.pages.length} page(s), lacks ${lost.length} event(s) that narrower queries answer, so pages were lost (${ids.slice(0, 3).join(", ")}${ids.length > 3 ? ", …" : ""})`,
    evidence: exchangeEvidence(answer.pages.at(-1)?.exchange, {
      expected: { events: answer.events.length + lost.length, from: `${windows.length} ${field} windows` },
      actual: { events: answer.events.length, pages: answer.pages.length },
      missing: ids.slice(0, 50),
    }),
  };
}

/**
 * EVT-PAGING's judgement of one answer read through its pages: events on two pages fail, and so do events that
 * narrower queries answer and the pages lost; else the case held, proven by the answer's last page, the one its
 * rel="next" links led to (on whatever origin it was: spec 4.1 states no single-origin rule).
 */
export async function pagedProblem(env: SuiteEnv, q: EventQuery, answer: Read): Promise<CaseResult> {
  const twice = answeredTwice(answer, env.known.copies);
  if (twice.length > 0) {
    return {
      status: "fail",
      reason: `the ${answer.pages.length} pages of ${answer.url} answer ${twice.length} event(s) more than once`,
      evidence: exchangeEvidence(answer.pages.at(-1)?.exchange, { extra: twice.slice(0, 50) }),
    };
  }
  const loss = await pagingLoss(env, q, answer);
  if (loss !== undefined) return { status: "fail", ...loss };
  const origins = new Set(answer.pages.map((p) => new URL(p.url).origin));
  return {
    status: "ok",
    proof: () =>
      exchangeEvidence(answer.pages.at(-1)?.exchange, {
        message: `${answer.url} read through ${answer.pages.length} page(s)${origins.size > 1 ? ` on ${origins.size} origins` : ""}: ${answer.events.length} event(s), each once, none that narrower queries answer lost; this is its last page`,
      }),
  };
}

/**
 * A failed case is first checked for lost pages: if an answer it read lost events, the finding goes to EVT-PAGING
 * and the case is inconclusive for the check that ran it.
 */
export async function blamePaging(
  env: SuiteEnv,
  findings: Findings,
  result: CaseResult,
  involved: readonly [EventQuery, Answer][],
): Promise<CaseResult> {
  if (result.status !== "fail") return result;
  for (const [q, answer] of involved) {
    if (answer.kind !== "events") continue;
    const loss = await pagingLoss(env, q, answer);
    if (loss !== undefined) {
      findings.note("EVT-PAGING", loss);
      return {
        status: "inconclusive",
        reason: "a paged answer lost events between its pages (see EVT-PAGING)",
      };
    }
  }
  return result;
}
