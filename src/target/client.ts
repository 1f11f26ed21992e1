// What suites use to talk to the target: one client per run, the baseline, the budgets of an answer and the
// evidence of an exchange. GET /events itself is read in events.ts.

import type { RunContext } from "../engine/context.ts";
import { perRun, scopeOf } from "../engine/run-scope.ts";
import { type FollowPagesOptions, HttpClient } from "../http/index.ts";
import { encodeQuery, eventIdentity } from "../model/index.ts";
import type { EpcisEvent, EventQuery } from "../model/types.ts";
import type { Baseline } from "./baseline-file.ts";
import { readBaselineFile } from "./baseline-file.ts";

/** The run's one client, made on first use (run-scope.ts): every check of the run asks the target through it. */
export function targetClient(ctx: RunContext): HttpClient {
  const scope = scopeOf(ctx);
  if (!scope.client) {
    const opts: ConstructorParameters<typeof HttpClient>[0] = {
      timeoutMs: ctx.timeoutMs,
      concurrency: ctx.concurrency,
      ratePerSecond: ctx.ratePerSecond,
      allowedOrigins: [new URL(ctx.eventsBase).origin, new URL(ctx.resolverBase).origin, ...ctx.allowOrigins],
    };
    if (ctx.apiKey !== undefined) opts.apiKey = ctx.apiKey;
    if (ctx.retryDeadline !== undefined) opts.retryDeadline = ctx.retryDeadline;
    scope.client = new HttpClient(opts);
  }
  return scope.client;
}

/** The run's baseline, read from its file once per run. */
export const loadBaseline = perRun((ctx: RunContext): Baseline => readBaselineFile(ctx.baselineFile));

/** The baseline's events by identity, once per run. */
export const baselineById = perRun(
  (ctx: RunContext): ReadonlyMap<string, EpcisEvent> =>
    new Map(loadBaseline(ctx).events.map((e) => [eventIdentity(e), e])),
);

/** What one answer may cost, as the run was told (--max-pages, --max-answer-bytes): pass it to readPages. */
export function pageBudget(ctx: RunContext): FollowPagesOptions {
  return { maxPages: ctx.maxPages, maxBytes: ctx.maxAnswerBytes };
}

/** The query interface's URL for a query (or a raw query string, for requests the model would never write). */
export function eventsUrl(ctx: RunContext, q: EventQuery | string): string {
  const qs = typeof q === "string" ? q : encodeQuery(q);
  return `${ctx.eventsBase}/events${qs ? `?${qs}` : ""}`;
}
