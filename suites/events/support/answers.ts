// GET /events as the events suite reads it: every page followed (ARCHITECTURE.md "Pages are followed"), a 413
// told apart from other refusals, and a paging defect told apart from a filter defect. Answers are kept per URL
// for the suite file, so checks that need the same query ask once.
import { eventsOf } from "../../../src/harness/baseline.ts";
import type { RunContext } from "../../../src/harness/context.ts";
import { eventsUrl, pageBudget, targetClient } from "../../../src/harness/target.ts";
import type { ExchangeRecord } from "../../../src/harness/types.ts";
import {
  followPages,
  HttpError,
  type HttpResult,
  type PageProblemKind,
  type PageResult,
} from "../../../src/http/index.ts";
import type { EpcisEvent, EventQuery } from "../../../src/model/types.ts";

export type Answer =
  | { kind: "events"; url: string; events: EpcisEvent[]; pages: PageResult[] }
  /** 413 Query Too Complex (spec 7). */
  | { kind: "refused"; url: string; result: HttpResult }
  /** Any other 4xx. */
  | { kind: "rejected"; url: string; result: HttpResult }
  /** 429 still standing after the client's retries: the target asked to be asked later, which decides nothing. */
  | { kind: "throttled"; url: string; result: HttpResult }
  /** No usable answer: a 5xx, a body that is not a query document, a network failure, or broken paging. */
  | { kind: "broken"; url: string; message: string; exchange?: ExchangeRecord; paging?: PageProblemKind };

function broken(url: string, message: string, exchange?: ExchangeRecord, paging?: PageProblemKind): Answer {
  const answer: Answer = { kind: "broken", url, message };
  if (exchange !== undefined) answer.exchange = exchange;
  if (paging !== undefined) answer.paging = paging;
  return answer;
}

/** GET /events with a query (or a raw query string, for requests the model would never write). */
async function fetchAnswer(ctx: RunContext, q: EventQuery | string): Promise<Answer> {
  const url = eventsUrl(ctx, q);
  let read: Awaited<ReturnType<typeof followPages>>;
  try {
    read = await followPages(targetClient(ctx), url, pageBudget(ctx));
  } catch (err) {
    if (err instanceof HttpError) return broken(url, err.message, err.exchange);
    throw err;
  }
  const { pages, problem } = read;
  if (problem?.result?.status === 429) return { kind: "throttled", url, result: problem.result };
  if (problem !== undefined && pages.length === 0) {
    const result = problem.result;
    if (result?.status === 413) return { kind: "refused", url, result };
    if (result !== undefined && result.status >= 400 && result.status < 500) {
      return { kind: "rejected", url, result };
    }
    return broken(url, problem.message, problem.exchange);
  }
  if (problem !== undefined) return broken(url, problem.message, problem.exchange, problem.kind);
  const events: EpcisEvent[] = [];
  for (const page of pages) {
    const list = eventsOf(page.json());
    if (list === undefined) {
      return broken(url, `${page.url} answered without an EPCIS query document event list`, page.exchange);
    }
    events.push(...list);
  }
  return { kind: "events", url, events, pages };
}

/** The exchange that best shows an answer: its first page, the refusal, or what broke. */
export function exchangeOf(answer: Answer): ExchangeRecord | undefined {
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

/** Answers by URL for one suite file: each distinct request is sent once. */
export class AnswerCache {
  readonly #answers = new Map<string, Promise<Answer>>();

  constructor(private readonly ctx: RunContext) {}

  get(q: EventQuery | string): Promise<Answer> {
    const url = eventsUrl(this.ctx, q);
    let answer = this.#answers.get(url);
    if (answer === undefined) {
      answer = fetchAnswer(this.ctx, q);
      this.#answers.set(url, answer);
    }
    return answer;
  }
}
