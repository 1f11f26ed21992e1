export interface HttpClientOptions {
  /** Per request, covering connection, headers and the whole body. Default 10000. */
  timeoutMs?: number;
  /** A longer body is cut here and marked truncated. Default 16 MiB. */
  maxBodyBytes?: number;
  /** Requests in flight at once. Default 8. */
  concurrency?: number;
  /** Requests started per second; 0 means unlimited. Default 0. */
  ratePerSecond?: number;
  /** Sent as X-API-Key, only to allowedOrigins. */
  apiKey?: string;
  /** Origins the key may go to, e.g. "http://127.0.0.1:1234"; a path after the origin is ignored. */
  allowedOrigins: string[];
  /** Extra attempts after a network error (not after a timeout or an HTTP status). Default 2. */
  retries?: number;
  /** Longest wait a Retry-After header can impose. Default 30000. */
  maxRetryAfterMs?: number;
  /**
   * Epoch milliseconds past which no wait on Retry-After may end: a 429 or 503 whose wait would cross it is
   * returned as it is. Default: none.
   */
  retryDeadline?: number;
  userAgent?: string;
}

export interface GetOptions {
  headers?: Record<string, string>;
  /** Send the key, when the URL's origin is allowed. Default true. */
  withKey?: boolean;
  /** The header the key goes in; lets the auth suite vary the casing. Default "X-API-Key". */
  keyHeaderName?: string;
  /** "manual" returns a 3xx as it is. Default "manual". */
  redirect?: "manual" | "follow";
  /** Redirects followed before giving up. Default 5. */
  maxRedirects?: number;
  accept?: string;
  /**
   * Reads at most this many bytes of the body, where that is below the client's own cap: a caller that would
   * refuse a larger body stops reading it there (the result is truncated), so it never holds what it would refuse.
   */
  maxBodyBytes?: number;
}

export interface PostOptions extends Omit<GetOptions, "redirect" | "maxRedirects"> {
  /** The body's media type. Default "application/json". */
  contentType?: string;
}

export interface ClientSettings {
  timeoutMs: number;
  maxBodyBytes: number;
  concurrency: number;
  ratePerSecond: number;
  apiKey: string | undefined;
  allowedOrigins: Set<string>;
  retries: number;
  maxRetryAfterMs: number;
  retryDeadline: number;
  userAgent: string;
}

export type GetSettings = Required<Omit<GetOptions, "headers" | "accept" | "maxBodyBytes">> &
  Pick<GetOptions, "headers" | "accept" | "maxBodyBytes">;

function positive(name: string, value: number, example: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(
      `${name} is ${value} but must be a positive number; pass a value such as ${example}.`,
    );
  }
  return value;
}

function count(name: string, value: number, least: number): number {
  if (!Number.isInteger(value) || value < least) {
    throw new RangeError(`${name} is ${value} but must be a whole number of at least ${least}.`);
  }
  return value;
}

function originOf(allowed: string): string {
  let url: URL;
  try {
    url = new URL(allowed);
  } catch {
    throw new RangeError(
      `The allowed origin "${allowed}" is not an absolute URL; write it as scheme://host:port.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new RangeError(
      `The allowed origin "${allowed}" is not http or https; write it as scheme://host:port.`,
    );
  }
  return url.origin;
}

export function clientSettings(options: HttpClientOptions): ClientSettings {
  const ratePerSecond = options.ratePerSecond ?? 0;
  if (!Number.isFinite(ratePerSecond) || ratePerSecond < 0) {
    throw new RangeError(
      `ratePerSecond is ${ratePerSecond} but must be a positive number, or 0 for no limit.`,
    );
  }
  return {
    timeoutMs: positive("timeoutMs", options.timeoutMs ?? 10_000, 10_000),
    maxBodyBytes: count("maxBodyBytes", options.maxBodyBytes ?? 16 * 1024 * 1024, 1),
    concurrency: count("concurrency", options.concurrency ?? 8, 1),
    ratePerSecond,
    apiKey: options.apiKey === "" ? undefined : options.apiKey,
    allowedOrigins: new Set(options.allowedOrigins.map(originOf)),
    retries: count("retries", options.retries ?? 2, 0),
    maxRetryAfterMs: count("maxRetryAfterMs", options.maxRetryAfterMs ?? 30_000, 0),
    retryDeadline: options.retryDeadline ?? Number.POSITIVE_INFINITY,
    userAgent: options.userAgent ?? "tracecheck",
  };
}

export function getSettings(options: GetOptions): GetSettings {
  return {
    headers: options.headers,
    accept: options.accept,
    withKey: options.withKey ?? true,
    keyHeaderName: options.keyHeaderName ?? "X-API-Key",
    redirect: options.redirect ?? "manual",
    maxRedirects: count("maxRedirects", options.maxRedirects ?? 5, 0),
    maxBodyBytes:
      options.maxBodyBytes === undefined ? undefined : count("maxBodyBytes", options.maxBodyBytes, 1),
  };
}
