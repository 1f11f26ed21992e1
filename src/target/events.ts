// The one reader of the target's query interface: every suite that asks GET /events, whether for a query of its
// own, a link set's epcis link or a trace-back hop, reads the answer here. Paging (every rel="next" page, the
// page and byte budgets, loops, off-origin pages), redirects, 429 and the body cap are handled once, and the
// answer comes back in one shape: events, a 413, another refusal, a 429 still standing, or broken with why.
//
// An answer is held in memory while it is judged, so it is also bounded by what the target showed it holds: the
// events of a filtered query are some of the repository's, and an answer that runs far past the whole discovered
// repository is stopped there instead of being read until the page budget, however large that is. A repository may
// grow while it is checked: events discovery did not find leave such an answer undecided, unless one page alone
// holds more than the whole answer may (see Beyond's `alone`).
import { statSync } from "node:fs";
import type { RunContext } from "../engine/context.ts";
import { perRun } from "../engine/run-scope.ts";
import {
  HttpError,
  type HttpResult,
  type PageProblemKind,
  type PageResult,
  readPages,
} from "../http/index.ts";
import type { ExchangeRecord } from "../http/record.ts";
import { eventIdentity } from "../model/index.ts";
import type { EpcisEvent, EventQuery } from "../model/types.ts";
import { eventsOf } from "./baseline.ts";
import { baselineById, eventsUrl, loadBaseline, pageBudget, targetClient } from "./client.ts";
import { KnownEventReader } from "./known-events.ts";

/** Why reading stopped: a problem of the pages themselves, or an answer larger than the repository. */
export type AnswerStop = PageProblemKind | "beyond-repository";

export type EventsAnswer =
  | {
      kind: "events";
      url: string;
      events: EpcisEvent[];
      pages: PageResult[];
      /**
       * Where the answer stands in the run's reading (readingOrder): `sent` taken when its request went out, `read`
       * once its last page was read. An event of an answer read before another's request was sent was in the
       * repository before that request, which a repository that grows during the run may not say of the others.
       */
      sent: number;
      read: number;
    }
  /** 413 Query Too Complex (spec 7). */
  | { kind: "refused"; url: string; result: HttpResult }
  /** Any other 4xx. */
  | { kind: "rejected"; url: string; result: HttpResult }
  /** 429 still standing after the client's retries: the target asked to be asked later, which decides nothing. */
  | { kind: "throttled"; url: string; result: HttpResult }
  /**
   * No usable answer: a 5xx, a body that is not a query document, a network failure, or broken paging (`paging`
   * says which); `status` is the status of the response that broke it, when one came.
   */
  | {
      kind: "broken";
      url: string;
      message: string;
      exchange?: ExchangeRecord;
      paging?: AnswerStop;
      status?: number;
    };

/** What an answer may hold before it is stopped as larger than the repository. */
interface HoldLimit {
  events: number;
  bytes: number;
  /** The baseline is the whole repository: an answer past the limit is wrong, not merely large. */
  complete: boolean;
  /** What discovery found, for the message. */
  discovered: { events: number; bytes: number };
}

/**
 * Twice the discovered repository's events and then some, as events and as pages, and four times its bytes as the
 * baseline file writes them compactly (an answer may be indented) and then some: an honest answer, duplicates and
 * a repository that grew since discovery included, stays far below it; pages that never end reach it after a
 * repository's worth of reading.
 */
const limitOf = perRun((ctx: RunContext): HoldLimit => {
  const baseline = loadBaseline(ctx);
  const events = Math.max(baseline.events.length, baseline.datasetEvents?.length ?? 0);
  let bytes: number;
  try {
    bytes = statSync(ctx.baselineFile).size;
  } catch {
    bytes = 0;
  }
  return {
    events: 2 * events + 1_000,
    bytes: 4 * bytes + 4 * 1024 ** 2,
    complete: baseline.complete,
    discovered: { events, bytes },
  };
});

/** The run's count of answers begun and read, in the order they were: see EventsAnswer's `sent` and `read`. */
const readingOrder = perRun((): { last: number } => ({ last: 0 }));

/**
 * Whether any of `events` is one discovery did not find: the repository may have grown since (a staging server
 * capturing while it is checked), so an answer larger than the one discovered does not show a defect.
 */
function holdsUnknown(events: readonly EpcisEvent[], byId: ReadonlyMap<string, EpcisEvent>): boolean {
  return events.some((e) => byId.get(eventIdentity(e)) === undefined);
}

function broken(
  url: string,
  message: string,
  exchange?: ExchangeRecord,
  paging?: AnswerStop,
  status?: number,
): EventsAnswer {
  const answer: EventsAnswer = { kind: "broken", url, message };
  if (exchange !== undefined) answer.exchange = exchange;
  if (paging !== undefined) answer.paging = paging;
  if (status !== undefined) answer.status = status;
  return answer;
}

/**
 * The exchange of the page where reading stopped, marked as cut short by the harness: past a repository the
 * harness could not read whole, the answer is not shown to be wrong, and a check that judges it is undecided.
 */
function cutShort(exchange: ExchangeRecord): ExchangeRecord {
  if (exchange.response === undefined) return exchange;
  const { readStopped: _decided, ...response } = exchange.response;
  return { ...exchange, response: { ...response, truncated: true } };
}

/**
 * The run's reader of answers: each served event written exactly as the baseline holds it, member for member and
 * in the same order, is the baseline's own object in the page's document (known-events.ts). Nothing can tell the
 * two apart, and an answer the run keeps (one per query, for the checks that ask it again) then holds one copy of
 * such an event rather than one per answer, which the garbage collector would copy from space to space for about
 * as long as it took to parse them. An event served otherwise stays as it was served, for the checks that compare
 * it with the baseline (EVT-SHAPE-CONTENT) to see.
 */
export const knownEventReader = perRun(
  (ctx: RunContext): KnownEventReader => new KnownEventReader(baselineById(ctx)),
);

/** The page that took an answer past what it may hold; `cut` when it was read only that far. */
interface Beyond {
  exchange: ExchangeRecord;
  status: number;
  url: string;
  bodyBytes: number;
  cut?: boolean;
  /**
   * The page by itself holds more events, or more bytes, than the whole answer may. A repository that grows while
   * an answer is paged (a staging server capturing) shows as pages that keep coming, each holding some of what was
   * captured; a page is one response, built at one moment, and one that alone holds more than twice the whole
   * discovered repository and a thousand events, or four times its bytes and 4 MiB, would need the repository to
   * have outgrown that in the moments before that one page was built. That is not growth, new events or not.
   */
  alone?: { events?: number };
}

/** GET `url` on the target, every page read, classified. Network failures are answers too ("broken"). */
export async function readEventsAnswer(ctx: RunContext, url: string): Promise<EventsAnswer> {
  const limit = limitOf(ctx);
  const reader = knownEventReader(ctx);
  const order = readingOrder(ctx);
  order.last += 1;
  const sent = order.last;
  const pages: PageResult[] = [];
  const events: EpcisEvent[] = [];
  let bytes = 0;
  let notDocument: PageResult | undefined;
  /** The page that took the answer past the limit, refused before it was parsed. */
  let beyond: Beyond | undefined;
  // A page is weighed before it is parsed: an honest answer has no more pages than events and a page at least,
  // and its bytes stay within the repository's; one that would not is not parsed or held. It is not even read
  // whole: its body is cut one byte past the room left (pageRoom), and what arrived decides.
  const admit = (response: HttpResult, read: number): boolean => {
    const arrived = response.exchange.response?.bodyBytes ?? response.body.length;
    if (read < limit.events && bytes + arrived <= limit.bytes) return true;
    const cut = response.exchange.response?.truncated === true;
    beyond = {
      exchange:
        cut && response.exchange.response !== undefined
          ? { ...response.exchange, response: { ...response.exchange.response, readStopped: true } }
          : response.exchange,
      status: response.status,
      url: response.url,
      bodyBytes: arrived,
      cut,
    };
    if (arrived > limit.bytes) beyond.alone = {};
    return false;
  };
  let read: Awaited<ReturnType<typeof readPages>>;
  try {
    read = await readPages(
      targetClient(ctx),
      url,
      (page) => {
        let list: EpcisEvent[] | undefined;
        try {
          list = eventsOf(page.json());
        } catch {
          list = undefined;
        }
        if (list === undefined) {
          notDocument = page;
          return false;
        }
        pages.push(page);
        for (const event of list) events.push(event);
        bytes += page.bodyBytes;
        if (events.length > limit.events) {
          beyond = { exchange: page.exchange, status: page.status, url: page.url, bodyBytes: page.bodyBytes };
          if (list.length > limit.events) beyond.alone = { events: list.length };
          return false;
        }
        return true;
      },
      {
        ...pageBudget(ctx),
        admit,
        pageRoom: () => limit.bytes - bytes,
        parse: (body) => reader.parse(body),
        // Spec 1: every request uses HTTP following REST, which lets a server redirect; the origin and key rules
        // hold wherever it leads.
        request: { redirect: "follow" },
      },
    );
  } catch (err) {
    if (err instanceof HttpError) return broken(url, err.message, err.exchange);
    throw err;
  }
  if (notDocument !== undefined) {
    const page: PageResult = notDocument;
    return broken(
      url,
      `${page.url} answered ${page.status} without an EPCIS query document holding an eventList`,
      page.exchange,
      undefined,
      page.status,
    );
  }
  if (beyond !== undefined) {
    const stop: Beyond = beyond;
    const { discovered } = limit;
    // Past twice the whole repository is a defect only of a repository that holds what discovery found: events it
    // did not find show one that grew, which may have grown that far, unless one page alone went past the bound.
    const whole = limit.complete && (stop.alone !== undefined || !holdsUnknown(events, baselineById(ctx)));
    const size = stop.cut === true ? `more than ${stop.bodyBytes - 1} bytes` : `${stop.bodyBytes} bytes`;
    const held = `reading stopped at ${stop.url} (${size}), after ${pages.length} page(s) holding ${events.length} events in ${bytes} bytes`;
    const repository = `the ${discovered.events} events (${discovered.bytes} bytes) discovered`;
    const open = limit.complete
      ? "which the repository may have outgrown since, as it holds events discovery did not find"
      : "which may not be the whole repository";
    if (pages.length === 0) {
      // One body past the bound before any page ended: not a paging defect, the answer itself is too large. What
      // arrived is enough to know that, cut or not, so it decides where the repository is known whole.
      const first = `the first page, at ${stop.url}, has ${size}: more than four times ${repository} and 4 MiB`;
      return whole
        ? broken(
            url,
            `${url}: ${first}, the whole repository; a filtered answer holds some of its events, so it cannot be that large.`,
            stop.exchange,
            undefined,
            stop.status,
          )
        : broken(
            url,
            `${url}: ${first}, ${open}; the answer is too large to judge.`,
            cutShort(stop.exchange),
            undefined,
            stop.status,
          );
    }
    const onePage =
      stop.alone?.events === undefined
        ? ""
        : `; that page alone holds ${stop.alone.events} events, more than the whole answer may, which a repository growing while it is paged does not explain`;
    return whole
      ? broken(
          url,
          `${url}: ${held}: more pages or events than twice ${repository}, or more bytes than four times, the whole repository${onePage}; a filtered answer holds some of its events, so its pages do not end where they should.`,
          stop.exchange,
          "beyond-repository",
          stop.status,
        )
      : broken(
          url,
          `${url}: ${held}: more pages or events than twice ${repository}, or more bytes than four times, ${open}; the answer is too large to judge.`,
          cutShort(stop.exchange),
          "beyond-repository",
          stop.status,
        );
  }
  const { problem } = read;
  if (problem === undefined) {
    order.last += 1;
    return { kind: "events", url, events, pages, sent, read: order.last };
  }
  const result = problem.result;
  if (result?.status === 429) return { kind: "throttled", url, result };
  if (pages.length === 0 && result !== undefined) {
    if (result.status === 413) return { kind: "refused", url, result };
    if (result.status >= 400 && result.status < 500) return { kind: "rejected", url, result };
  }
  return broken(
    url,
    problem.message,
    problem.exchange,
    pages.length === 0 ? undefined : problem.kind,
    result?.status,
  );
}

/** GET /events with a query (or a raw query string, for requests the model would never write). */
export function queryEvents(ctx: RunContext, q: EventQuery | string): Promise<EventsAnswer> {
  return readEventsAnswer(ctx, eventsUrl(ctx, q));
}

/** The exchange that best shows an answer: its first page, the refusal, or what broke. */
export function exchangeOf(answer: EventsAnswer): ExchangeRecord | undefined {
  switch (answer.kind) {
    case "events":
      return answer.pages[0]?.exchange;
    case "refused":
    case "rejected":
    case "throttled":
      return answer.result.exchange;
    case "broken":
      return answer.exchange;
  }
}
