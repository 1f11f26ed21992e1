// The run context handed to every check (engine.ts): plain data only. Suites never parse flags or environment
// variables themselves.
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
}
