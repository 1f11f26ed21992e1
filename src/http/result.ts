import { JsonBodyError } from "./errors.ts";
import type { ExchangeRecord } from "./record.ts";

export interface HttpResult {
  status: number;
  /** Response headers by lower-case name; repeated headers are joined with ", ". */
  headers: Record<string, string>;
  /** The body; of a truncated one only its start (src/http/body.ts), the exchange telling how much arrived. */
  body: Buffer;
  /** The body decoded as UTF-8, anew on each read: a result keeps its bytes once, not the bytes and a copy. */
  readonly text: string;
  /** The body was cut at maxBodyBytes. */
  truncated: boolean;
  /** The URL that answered, after any redirects followed. */
  url: string;
  /**
   * Parses the body, with `parse` if given (a parser that gives what JSON.parse would and throws as it throws);
   * throws JsonBodyError when it is not JSON or was truncated. The first parse is kept and given after.
   */
  json<T = unknown>(parse?: BodyParser): T;
  /** The exchange that produced this response. */
  exchange: ExchangeRecord;
  /** One exchange per hop, the last being `exchange`; a single one unless redirects were followed. */
  exchanges: ExchangeRecord[];
}

/**
 * A page of a paged answer as it is kept once read: its parsed JSON and its evidence, without the bytes it came
 * in. An answer of many pages would otherwise hold each page three times over (bytes, text and parsed value).
 */
export interface PageResult {
  status: number;
  headers: Record<string, string>;
  url: string;
  /** The size of the body as received. */
  bodyBytes: number;
  /** The parsed body, parsed once when the page was read. */
  json<T = unknown>(): T;
  exchange: ExchangeRecord;
  exchanges: ExchangeRecord[];
}

/** Parses a body as JSON.parse(body.toString("utf8")) would, throwing as that throws. */
export type BodyParser = (body: Buffer) => unknown;

export interface ResponseParts {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  url: string;
  /** The request URL as evidence shows it, with the key redacted, for error messages. */
  shownUrl: string;
  exchange: ExchangeRecord;
  /** Removes the key from a message, since a parser's message can quote the body. */
  redactText: (text: string) => string;
}

export function httpResult(parts: ResponseParts, exchanges: ExchangeRecord[]): HttpResult {
  // Only what is named here is kept: holding `parts` would keep its decoded text alive beside the bytes.
  const { status, headers, body, truncated, url, shownUrl, exchange, redactText } = parts;
  let parsed: { value: unknown } | undefined;
  return {
    status,
    headers,
    body,
    get text() {
      return body.toString("utf8");
    },
    truncated,
    url,
    exchange,
    exchanges,
    json<T = unknown>(parse?: BodyParser): T {
      if (truncated) {
        throw new JsonBodyError(
          `The body from ${shownUrl} was cut at ${exchange.response?.bodyBytes ?? body.length} bytes and cannot be parsed as JSON; raise the body size limit or narrow the request.`,
        );
      }
      if (parsed === undefined) {
        try {
          parsed = { value: parse === undefined ? JSON.parse(body.toString("utf8")) : parse(body) };
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          throw new JsonBodyError(
            redactText(
              `The body from ${shownUrl} (status ${status}) is not valid JSON (${detail}); see the body excerpt in the evidence.`,
            ),
          );
        }
      }
      return parsed.value as T;
    },
  };
}

/** The page a JSON response makes: parsed now (JsonBodyError when it is not JSON), its bytes left behind. */
export function pageResult(result: HttpResult, parse?: BodyParser): PageResult {
  const value = result.json(parse);
  return {
    status: result.status,
    headers: result.headers,
    url: result.url,
    bodyBytes: result.body.length,
    json: <T>() => value as T,
    exchange: result.exchange,
    exchanges: result.exchanges,
  };
}
