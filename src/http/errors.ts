import type { ExchangeRecord } from "./record.ts";

export type HttpErrorCode =
  | "timeout"
  | "network"
  | "too-many-redirects"
  | "redirect-loop"
  | "invalid-url"
  | "key-in-url";

/** A request that produced no usable HTTP response; an HTTP status, whatever it is, is never an HttpError. */
export class HttpError extends Error {
  override readonly name = "HttpError";
  readonly code: HttpErrorCode;
  /** The exchange that failed, with `error` set. */
  readonly exchange: ExchangeRecord;
  /** Every hop of the request up to and including the failed one. */
  readonly exchanges: ExchangeRecord[];

  constructor(
    code: HttpErrorCode,
    message: string,
    exchange: ExchangeRecord,
    exchanges: ExchangeRecord[] = [exchange],
  ) {
    super(message);
    this.code = code;
    this.exchange = exchange;
    this.exchanges = exchanges;
  }
}

/** A response body that was expected to be JSON and is not. */
export class JsonBodyError extends Error {
  override readonly name = "JsonBodyError";
}
