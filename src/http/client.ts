import { setTimeout as delay } from "node:timers/promises";
import { type BodySoFar, bodyBuffer, CappedExchange, emptyBody, type ResponseHead } from "./body.ts";
import { decodeBody } from "./content-coding.ts";
import { curlFor } from "./curl.ts";
import { HttpError } from "./errors.ts";
import {
  type ClientSettings,
  clientSettings,
  type GetOptions,
  type GetSettings,
  getSettings,
  type HttpClientOptions,
  type PostOptions,
} from "./options.ts";
import { RateLimiter } from "./rate-limiter.ts";
import type { ExchangeRecord } from "./record.ts";
import { carriesSecret, excerptSourceBytes, redact, redactedBodyExcerpt } from "./redact.ts";
import { planHeaders } from "./request-headers.ts";
import { type HttpResult, httpResult, type ResponseParts } from "./result.ts";
import { parseRetryAfter } from "./retry-after.ts";
import { Semaphore } from "./semaphore.ts";
import { Agent } from "./undici.ts";

const LOG_LIMIT = 10_000;
const EXCERPT_CHARS = 2000;
/** Statuses by which a server asks to be asked again later (RFC 6585 4, RFC 9110 15.6.4). */
const RETRY_LATER = new Set([429, 503]);
const RETRY_LATER_LIMIT = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NETWORK_BACKOFF_MS = 100;
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

/**
 * What one request sends beyond a GET's settings: its method and body. A POST is not sent again after a network
 * error, since the server may have acted on it; post and options never follow a redirect, which would drop or
 * resend a body.
 */
type RequestSettings = GetSettings & { method: string; body?: Buffer };

interface StatusLine {
  status: number;
  headers: Record<string, string>;
}

/** The status and the headers of an answer, a repeated header's values joined as one. */
function statusLine(head: ResponseHead | undefined): StatusLine {
  // The dispatcher ends an exchange only after its head, but a head it never gave is a failed exchange.
  if (head === undefined) throw new Error("The server ended the exchange without an answer.");
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(head.headers)) {
    // undici gives the names in lower case.
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return { status: head.status, headers: flat };
}

// The functions an exchange keeps are made here, outside the method that sends it: a function made within that
// method would hold everything the method's other functions hold, the exchange's body among them, for as long as
// the exchange is kept, which for the exchanges of a run's answers is the whole run.

/** The curl line of a request, written when it is asked for, from what it is written from alone. */
function curlLine(
  client: HttpClient,
  method: string,
  href: string,
  headers: Record<string, string>,
  keySent: boolean,
  keyHeaderName?: string,
): () => string {
  return () => client.redactSecret(curlFor(method, href, headers, keySent, keyHeaderName));
}

/** Ends the exchange at its deadline, unless the returned timer is cleared first; it keeps no process alive. */
function deadlineFor(sent: CappedExchange, timeoutMs: number): NodeJS.Timeout {
  const timer = setTimeout(
    () => sent.abort(new DOMException("The exchange took longer than its timeout.", "TimeoutError")),
    timeoutMs,
  );
  timer.unref();
  return timer;
}

/**
 * An exchange as the evidence keeps it, its members in the order reports write them. Its curl line is written when
 * it is first read, which for most exchanges is never: a run keeps the exchanges of its answers to the end.
 */
function exchangeRecord(
  request: ExchangeRecord["request"],
  curl: () => string,
  rest: Omit<ExchangeRecord, "request" | "curl">,
): ExchangeRecord {
  let line: string | undefined;
  return {
    request,
    get curl(): string {
      line ??= curl();
      return line;
    },
    ...rest,
  };
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = errorCode(error);
  return code !== undefined && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * The harness's only HTTP client: bounded in time, size, concurrency and rate, guarding the key by origin, and
 * recording every exchange as redacted evidence.
 */
export class HttpClient {
  /** Every exchange made, oldest first, bounded to the last 10,000. */
  readonly log: ExchangeRecord[] = [];
  readonly #settings: ClientSettings;
  readonly #agent: Agent;
  readonly #slots: Semaphore;
  readonly #pace: RateLimiter;
  #requestCount = 0;
  #closed = false;
  readonly #redactText = (text: string): string => this.redactSecret(text);

  constructor(options: HttpClientOptions) {
    this.#settings = clientSettings(options);
    this.#slots = new Semaphore(this.#settings.concurrency);
    this.#pace = new RateLimiter(this.#settings.ratePerSecond);
    this.#agent = new Agent({
      connections: this.#settings.concurrency,
      connect: { timeout: this.#settings.timeoutMs },
    });
  }

  /** Requests sent, counting each retry and each redirect hop. */
  get requestCount(): number {
    return this.#requestCount;
  }

  /** The text with this client's key redacted, for messages built from URLs or bodies. */
  redactSecret(text: string): string {
    return redact(text, this.#settings.apiKey);
  }

  async get(url: string, options: GetOptions = {}): Promise<HttpResult> {
    return this.#request(url, { ...getSettings(options), method: "GET" });
  }

  /** POST `body` to `url` (an EPCIS capture, for one), with the same guards and evidence as a GET; never redirected. */
  async post(url: string, body: string | Buffer, options: PostOptions = {}): Promise<HttpResult> {
    const { contentType, ...rest } = options;
    const headers = { "Content-Type": contentType ?? "application/json", ...rest.headers };
    const settings = getSettings({ ...rest, headers, redirect: "manual" });
    return this.#request(url, { ...settings, method: "POST", body: Buffer.from(body) });
  }

  /** OPTIONS on `url`: what a resource announces of itself (an EPCIS capture interface's limits, for one). */
  async options(url: string, options: GetOptions = {}): Promise<HttpResult> {
    return this.#request(url, { ...getSettings({ ...options, redirect: "manual" }), method: "OPTIONS" });
  }

  async #request(url: string, settings: RequestSettings): Promise<HttpResult> {
    if (this.#closed) {
      throw new Error("This HTTP client has been closed; create a new HttpClient to make further requests.");
    }
    const exchanges: ExchangeRecord[] = [];
    let current = this.#parseUrl(url, undefined, exchanges, settings.method);
    const visited = new Set([current.href]);
    for (;;) {
      const parts = await this.#hop(current, settings, exchanges);
      exchanges.push(parts.exchange);
      const location = parts.headers["location"];
      if (settings.redirect === "manual" || !REDIRECTS.has(parts.status) || location === undefined) {
        return httpResult(parts, exchanges);
      }
      const next = this.#parseUrl(location, current, exchanges, "GET");
      if (visited.has(next.href)) {
        const message = this.redactSecret(
          `${current.href} redirects back to ${next.href}, which was already visited; the server's redirects form a loop.`,
        );
        throw new HttpError("redirect-loop", message, parts.exchange, exchanges);
      }
      if (exchanges.length > settings.maxRedirects) {
        const message = this.redactSecret(
          `${url} was still redirecting after ${settings.maxRedirects} redirects; check the server's Location headers or allow more redirects.`,
        );
        throw new HttpError("too-many-redirects", message, parts.exchange, exchanges);
      }
      visited.add(next.href);
      current = next;
    }
  }

  /** Closes the connections; requests still in flight finish first. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#agent.close();
  }

  /** Closes the connections at once; requests still in flight fail. For a run that is being stopped. */
  async destroy(): Promise<void> {
    this.#closed = true;
    await this.#agent.destroy();
  }

  #parseUrl(raw: string, base: URL | undefined, previous: ExchangeRecord[], method: string): URL {
    let url: URL | undefined;
    try {
      url = new URL(raw, base);
    } catch {
      url = undefined;
    }
    if (url !== undefined && (url.protocol === "http:" || url.protocol === "https:")) {
      // The fragment is never sent, so two URLs differing only there are the same request.
      url.hash = "";
      return url;
    }
    const shown = this.redactSecret(raw);
    const message = `"${shown}" is not an http or https URL, so no request was made; check where this URL came from.`;
    const exchange = this.#keep(
      exchangeRecord({ method, url: shown, headers: {} }, curlLine(this, method, raw, {}, false), {
        error: message,
        durationMs: 0,
      }),
    );
    throw new HttpError("invalid-url", message, exchange, [...previous, exchange]);
  }

  /** One hop: asked again, up to three times, while the server answers 429 or 503 with a Retry-After. */
  async #hop(url: URL, settings: RequestSettings, previous: ExchangeRecord[]): Promise<ResponseParts> {
    for (let waits = 0; ; waits++) {
      const parts = await this.#attempt(url, settings, previous);
      const wait = RETRY_LATER.has(parts.status) ? parseRetryAfter(parts.headers["retry-after"]) : undefined;
      if (wait === undefined || waits >= RETRY_LATER_LIMIT) return parts;
      const waitMs = Math.min(wait, this.#settings.maxRetryAfterMs);
      // The run's budget for waiting is spent: the refusal stands, and what it leaves undecided is reported so.
      if (Date.now() + waitMs > this.#settings.retryDeadline) return parts;
      await delay(waitMs);
    }
  }

  /** One request, sent again after a network error; a timeout is not retried, since the server did answer the connection. */
  async #attempt(url: URL, settings: RequestSettings, previous: ExchangeRecord[]): Promise<ResponseParts> {
    const retries = settings.method === "POST" ? 0 : this.#settings.retries;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#send(url, settings, previous);
      } catch (error) {
        if (!(error instanceof HttpError) || error.code !== "network" || attempt >= retries) {
          throw error;
        }
        await delay(NETWORK_BACKOFF_MS * 2 ** attempt);
      }
    }
  }

  /**
   * The origin guard for the URL itself: a request whose path, query or user info carries the key goes only to an
   * allowed origin. Headers are guarded in planHeaders; a URL cannot be stripped of the key without changing what
   * it asks, so such a request, a redirect or a link included, is not sent at all.
   */
  #guardUrl(url: URL, previous: ExchangeRecord[], method: string): void {
    const { apiKey } = this.#settings;
    if (this.#settings.allowedOrigins.has(url.origin) || !carriesSecret(url.href, apiKey)) return;
    const shown = this.redactSecret(url.href);
    const message = `${method} ${shown} was not sent: its URL carries the API key and ${url.origin} is not an origin the key may go to (the target's, the resolver's or --allow-origin).`;
    const exchange = this.#keep(
      exchangeRecord({ method, url: shown, headers: {} }, curlLine(this, method, url.href, {}, false), {
        error: message,
        durationMs: 0,
        keyWithheld: true,
      }),
    );
    throw new HttpError("key-in-url", message, exchange, [...previous, exchange]);
  }

  #send(url: URL, settings: RequestSettings, previous: ExchangeRecord[]): Promise<ResponseParts> {
    const { method } = settings;
    this.#guardUrl(url, previous, method);
    return this.#slots.run(async () => {
      await this.#pace.take();
      const { apiKey, timeoutMs, maxBodyBytes } = this.#settings;
      const plan = planHeaders({
        userAgent: this.#settings.userAgent,
        accept: settings.accept,
        headers: settings.headers,
        apiKey,
        withKey: settings.withKey,
        keyHeaderName: settings.keyHeaderName,
        originAllowed: this.#settings.allowedOrigins.has(url.origin),
      });
      const shownUrl = this.redactSecret(url.href);
      const request = { method, url: shownUrl, headers: plan.record };
      const curl = curlLine(this, method, url.href, request.headers, plan.keySent, settings.keyHeaderName);
      const withheld = plan.keyWithheld ? { keyWithheld: true } : {};
      this.#requestCount++;
      const started = performance.now();
      // The dispatcher's timeouts bound each wait for bytes; the deadline bounds the whole exchange, trickle
      // included. A timer of its own, cleared when the exchange ends, rather than AbortSignal.timeout: that one's
      // timer is held weakly and outlives the exchange, which costs a run of hundreds of requests more than the
      // exchange.
      const body = emptyBody();
      const cap = Math.min(maxBodyBytes, settings.maxBodyBytes ?? maxBodyBytes);
      const sent = new CappedExchange(body, cap);
      const timer = deadlineFor(sent, timeoutMs);
      let line: StatusLine | undefined;
      try {
        sent.send(this.#agent, url, {
          method,
          headers: plan.send,
          ...(settings.body !== undefined ? { body: settings.body } : {}),
          waitMs: timeoutMs,
        });
        await sent.done;
        line = statusLine(sent.head);
        decodeBody(body, line.headers["content-encoding"], cap);
      } catch (error) {
        line = sent.head === undefined ? undefined : statusLine(sent.head);
        const timedOut = sent.aborted || TIMEOUT_CODES.has(errorCode(error) ?? "");
        const message = this.redactSecret(
          timedOut
            ? `${method} ${shownUrl} got no complete answer within ${timeoutMs} ms; check that the target is up, or raise the timeout.`
            : `${method} ${shownUrl} failed (${describeError(error)}); check that the target is running and reachable.`,
        );
        const exchange = this.#keep(
          exchangeRecord(request, curl, {
            ...withheld,
            ...(line ? { response: this.#responseRecord(line, body, bodyBuffer(body), true) } : {}),
            error: message,
            durationMs: Math.round(performance.now() - started),
          }),
        );
        throw new HttpError(timedOut ? "timeout" : "network", message, exchange, [...previous, exchange]);
      } finally {
        clearTimeout(timer);
      }
      const buffer = bodyBuffer(body);
      const exchange = this.#keep(
        exchangeRecord(request, curl, {
          ...withheld,
          response: this.#responseRecord(line, body, buffer, body.truncated),
          durationMs: Math.round(performance.now() - started),
        }),
      );
      return {
        ...line,
        body: buffer,
        truncated: body.truncated,
        url: url.href,
        shownUrl,
        exchange,
        redactText: this.#redactText,
      };
    });
  }

  #responseRecord(
    line: StatusLine,
    body: BodySoFar,
    bytes: Buffer,
    truncated: boolean,
  ): NonNullable<ExchangeRecord["response"]> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(line.headers)) headers[name] = this.redactSecret(value);
    const { apiKey } = this.#settings;
    // The excerpt is made when it is first read, which for most exchanges is never: from a copy of the bytes it
    // needs, so that the record does not hold the body itself.
    let source: Buffer | undefined = Buffer.from(
      bytes.subarray(0, excerptSourceBytes(apiKey, EXCERPT_CHARS)),
    );
    let excerpt: string | undefined;
    return {
      status: line.status,
      headers,
      get bodyExcerpt(): string {
        if (excerpt === undefined) {
          excerpt = redactedBodyExcerpt(source ?? Buffer.alloc(0), apiKey, EXCERPT_CHARS);
          source = undefined;
        }
        return excerpt;
      },
      bodyBytes: body.bytes,
      truncated,
    };
  }

  #keep(exchange: ExchangeRecord): ExchangeRecord {
    this.log.push(exchange);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
    return exchange;
  }
}
