// What suites use to talk to the target: one client per worker, the baseline, and GET /events with every page
// read before a set is judged (ARCHITECTURE.md "Pages are followed").
import {
  type FollowPagesOptions,
  followPages,
  HttpClient,
  type HttpResult,
  type PageResult,
} from "../http/index.ts";
import { encodeQuery } from "../model/index.ts";
import type { EpcisEvent, EventQuery } from "../model/types.ts";
import type { Baseline } from "./baseline.ts";
import { eventsOf } from "./baseline.ts";
import { readBaselineFile } from "./baseline-file.ts";
import type { RunContext } from "./context.ts";
import type { Evidence, ExchangeRecord } from "./types.ts";

let client: HttpClient | undefined;
let baseline: Baseline | undefined;

export function targetClient(ctx: RunContext): HttpClient {
  if (!client) {
    const opts: ConstructorParameters<typeof HttpClient>[0] = {
      timeoutMs: ctx.timeoutMs,
      concurrency: ctx.concurrency,
      ratePerSecond: ctx.ratePerSecond,
      allowedOrigins: [new URL(ctx.eventsBase).origin, new URL(ctx.resolverBase).origin, ...ctx.allowOrigins],
    };
    if (ctx.apiKey !== undefined) opts.apiKey = ctx.apiKey;
    if (ctx.retryDeadline !== undefined) opts.retryDeadline = ctx.retryDeadline;
    client = new HttpClient(opts);
  }
  return client;
}

/** The worker's client if a check has made one, without making one: checks that send nothing need none. */
export function existingClient(): HttpClient | undefined {
  return client;
}

export function loadBaseline(ctx: RunContext): Baseline {
  if (!baseline) baseline = readBaselineFile(ctx.baselineFile);
  return baseline;
}

/** What one answer may cost, as the run was told (--max-pages, --max-answer-bytes): pass it to followPages. */
export function pageBudget(ctx: RunContext): FollowPagesOptions {
  return { maxPages: ctx.maxPages, maxBytes: ctx.maxAnswerBytes };
}

export type QueryOutcome =
  | { kind: "events"; events: EpcisEvent[]; pages: PageResult[]; first: PageResult }
  | { kind: "refused"; first: HttpResult }
  | { kind: "rejected"; first: HttpResult }
  | { kind: "broken"; message: string; first?: HttpResult | PageResult; exchange?: ExchangeRecord };

export function eventsUrl(ctx: RunContext, q: EventQuery | string): string {
  const qs = typeof q === "string" ? q : encodeQuery(q);
  return `${ctx.eventsBase}/events${qs ? `?${qs}` : ""}`;
}

/**
 * GET /events with the query, every page followed. "refused" is a 413 (spec 7); "rejected" any other 4xx;
 * "broken" a 5xx, a body that is not a query document, or paging that loops or fails.
 */
export async function queryEvents(ctx: RunContext, q: EventQuery | string): Promise<QueryOutcome> {
  const { pages, problem } = await followPages(targetClient(ctx), eventsUrl(ctx, q), pageBudget(ctx));
  // A first answer that is not a 2xx is not among the pages; it is the problem's result.
  const refusal = pages.length === 0 ? problem?.result : undefined;
  if (refusal && refusal.status === 413) return { kind: "refused", first: refusal };
  if (refusal && refusal.status >= 400 && refusal.status < 500) return { kind: "rejected", first: refusal };
  const first = pages[0] ?? problem?.result;
  if (problem) return { kind: "broken", message: problem.message, first, exchange: problem.exchange };
  const events: EpcisEvent[] = [];
  for (const page of pages) {
    if (page.status < 200 || page.status > 299) {
      return {
        kind: "broken",
        message: `${page.url} answered ${page.status}`,
        first,
        exchange: page.exchange,
      };
    }
    let list: EpcisEvent[] | undefined;
    try {
      list = eventsOf(page.json());
    } catch {
      list = undefined;
    }
    if (!list) {
      return {
        kind: "broken",
        message: `${page.url} did not answer an EPCIS query document with an eventList`,
        first,
        exchange: page.exchange,
      };
    }
    events.push(...list);
  }
  return { kind: "events", events, pages, first: pages[0]! };
}

/** Evidence from one exchange: request, response excerpt and the curl line (the key never in it). */
export function exchangeEvidence(x: ExchangeRecord | undefined, extra: Partial<Evidence> = {}): Evidence {
  if (!x) return { ...extra };
  const ev: Evidence = { request: x.request, curl: x.curl, ...extra };
  if (x.response) ev.response = x.response;
  return ev;
}
