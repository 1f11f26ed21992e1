export { HttpClient } from "./client.ts";
export { type Clock, systemClock } from "./clock.ts";
export { curlFor, KEY_PLACEHOLDER, shellQuote } from "./curl.ts";
export { HttpError, type HttpErrorCode, JsonBodyError } from "./errors.ts";
export { type LinkValue, parseLinkHeader } from "./link-header.ts";
export type { GetOptions, HttpClientOptions, PostOptions } from "./options.ts";
export {
  type FollowPagesOptions,
  followPages,
  type PageClient,
  type PageProblem,
  type PageProblemKind,
  type PagesResult,
} from "./pages.ts";
export { RateLimiter } from "./rate-limiter.ts";
export { REDACTED, redact } from "./redact.ts";
export type { HttpResult } from "./result.ts";
export { parseRetryAfter } from "./retry-after.ts";
export { Semaphore } from "./semaphore.ts";
