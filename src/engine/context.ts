// The run context handed to every check (engine.ts): plain data only. Suites never parse flags or environment
// variables themselves.
import type { RecordedExchange } from "../http/recorded.ts";
import type { EpcisEvent } from "../model/index.ts";
import type { ConformanceClass } from "./types.ts";

export interface RunContext {
  eventsBase: string;
  resolverBase: string;
  /** The key for X-API-Key; absent for a public target. Never written to a report. */
  apiKey?: string;
  party?: string;
  gln?: string;
  startFrom?: string;
  classes: ConformanceClass[];
  modules: string[];
  seed: number;
  runs: number;
  definitionFile: string;
  schemaMirror?: string;
  timeoutMs: number;
  concurrency: number;
  ratePerSecond: number;
  allowOrigins: string[];
  /**
   * Epoch milliseconds after which no request waits on Retry-After any more (--retry-budget from the run's start),
   * shared by every check so that a rate-limited run ends in bounded time.
   */
  retryDeadline?: number;
  /** What one answer may cost (--max-pages, --max-answer-bytes); src/http's defaults where absent. */
  maxPages?: number;
  maxAnswerBytes?: number;
  /** A JSON file holding the baseline events (see baseline.ts). */
  baselineFile: string;
  /** True when the embedded reference is the target: its configuration is known. */
  embedded: boolean;
  /**
   * True when the user named the interface definition with --definition: the definition class judges it then,
   * and only then, since without it the file is tracecheck's own and not the target's.
   */
  definitionGiven?: boolean;
  /** When set, only the suite files that record one of these requirements run (RunOptions.onlyRequirements). */
  onlyRequirements?: string[];
  /**
   * What a receiver session recorded (src/harness/receiver/session.ts), which the receiver class's checks judge;
   * absent from a sender's run. The key given to the receiver is `apiKey`, the sender's bases `eventsBase` and
   * `resolverBase`.
   */
  receiver?: ReceiverRecording;
}

/** A receiver's session as the reference sender recorded it. */
export interface ReceiverRecording {
  /** The requests the receiver sent, each with the sender's answer. */
  exchanges: readonly RecordedExchange[];
  /** The product identifier the receiver was given to trace (spec 1, step 2), a Digital Link URI. */
  task: string;
  /** The events the sender holds, as loaded. */
  events: readonly EpcisEvent[];
  /**
   * Where the sender refuses a request without the key: its query interface, its resolver and master data. Spec
   * 4.2 asks the key of resolver requests only "where authentication is used", and spec 5.6 lets a query
   * interface need none.
   */
  keyRequired: { events: boolean; resolver: boolean };
}
