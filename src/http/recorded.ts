// A request as a server received it and what it answered, exactly as on the wire: what the reference sender records
// of a receiver (src/reference/recording.ts) and what the receiver class judges (suites/receiver).

/** Which listener took a request: the query interface's, the resolver's, or the one serving both. */
export type RecordedListener = "events" | "resolver" | "shared";

/** One request as the sender received it, and what the sender answered. */
export interface RecordedExchange {
  /** Order of arrival over every listener, from 0. */
  seq: number;
  /** Milliseconds since the epoch when the request arrived. */
  at: number;
  listener: RecordedListener;
  method: string;
  /** The request target exactly as sent: path and query string, percent-escapes undecoded. */
  rawUrl: string;
  /** The header lines as sent, name and value, in order; a repeated header appears once per line. */
  rawHeaders: [string, string][];
  status: number;
  responseHeaders: Record<string, string>;
  /** The body of a JSON answer (link sets, event pages, master data, problems) up to a bound; else undefined. */
  responseBody?: string;
}
