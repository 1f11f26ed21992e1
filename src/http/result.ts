import type { ExchangeRecord } from "../harness/types.ts";
import { JsonBodyError } from "./errors.ts";

export interface HttpResult {
  status: number;
  /** Response headers by lower-case name; repeated headers are joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The body decoded as UTF-8. */
  text: string;
  /** The body was cut at maxBodyBytes. */
  truncated: boolean;
  /** The URL that answered, after any redirects followed. */
  url: string;
  /** Parses the body; throws JsonBodyError when it is not JSON or was truncated. */
  json<T = unknown>(): T;
  /** The exchange that produced this response. */
  exchange: ExchangeRecord;
  /** One exchange per hop, the last being `exchange`; a single one unless redirects were followed. */
  exchanges: ExchangeRecord[];
}

export interface ResponseParts {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  truncated: boolean;
  url: string;
  /** The request URL as evidence shows it, with the key redacted, for error messages. */
  shownUrl: string;
  exchange: ExchangeRecord;
  /** Removes the key from a message, since a parser's message can quote the body. */
  redactText: (text: string) => string;
}

export function httpResult(parts: ResponseParts, exchanges: ExchangeRecord[]): HttpResult {
  const { text } = parts;
  let parsed: { value: unknown } | undefined;
  return {
    status: parts.status,
    headers: parts.headers,
    body: parts.body,
    text,
    truncated: parts.truncated,
    url: parts.url,
    exchange: parts.exchange,
    exchanges,
    json<T = unknown>(): T {
      if (parts.truncated) {
        throw new JsonBodyError(
          `The body from ${parts.shownUrl} was cut at ${parts.body.length} bytes and cannot be parsed as JSON; raise the body size limit or narrow the request.`,
        );
      }
      if (parsed === undefined) {
        try {
          parsed = { value: JSON.parse(text) };
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          throw new JsonBodyError(
            parts.redactText(
              `The body from ${parts.shownUrl} (status ${parts.status}) is not valid JSON (${detail}); see the body excerpt in the evidence.`,
            ),
          );
        }
      }
      return parsed.value as T;
    },
  };
}
