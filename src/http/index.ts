export { HttpClient } from "./client.ts";
export { type Clock, systemClock } from "./clock.ts";
export { curlFor, KEY_PLACEHOLDER, shellQuote } from "./curl.ts";
export { HttpError, type HttpErrorCode, JsonBodyError } from "./errors.ts";
export { type LinkValue, parseLinkHeader } from "./link-header.ts";
export type { GetOptions, HttpClientOptions, PostOptions } from "./options.ts";
export {
  DEFAULT_PAGE_BUDGET,
  type FollowPagesOptions,
  followPages,
  Handover,
  type PageBudget,
  type PageClient,
  type PageProblem,
  type PageProblemKind,
  type PagesRead,
  type PagesResult,
  readPages,
} from "./pages.ts";
export { RateLimiter } from "./rate-limiter.ts";
export type { ExchangeRecord } from "./record.ts";
export { REDACTED, redact } from "./redact.ts";
export type { BodyParser, HttpResult, PageResult } from "./result.ts";
export { parseRetryAfter } from "./retry-after.ts";
export { Semaphore } from "./semaphore.ts";
