// Verdicts and the report, as CONTRACT.md fixes them. Reporters read these; suites produce them.

export type Level = "MUST" | "SHOULD" | "MAY";
export type Status = "pass" | "fail" | "warn" | "skip" | "error";
/** The conformance classes, one folder of suites/ each, in the order reports list them. */
export const CONFORMANCE_CLASSES = [
  "events",
  "resolver",
  "masterdata",
  "auth",
  "core-events",
  "workflow",
  "definition",
] as const;
export type ConformanceClass = (typeof CONFORMANCE_CLASSES)[number];

/** One entry of suites/requirements.yaml. */
export interface Requirement {
  id: string;
  section: string;
  level: Level;
  class: ConformanceClass;
  title: string;
  rule: string;
  tests?: string[];
}

/** One HTTP exchange as recorded for evidence; the X-API-Key value never appears in it. */
export interface ExchangeRecord {
  request: { method: string; url: string; headers: Record<string, string> };
  response?: {
    status: number;
    headers: Record<string, string>;
    bodyExcerpt: string;
    bodyBytes: number;
    truncated: boolean;
  };
  error?: string;
  durationMs: number;
  curl: string;
  /** Set when the key was withheld because the URL left the allowed origins. */
  keyWithheld?: boolean;
}

export interface Evidence {
  message?: string;
  request?: ExchangeRecord["request"];
  response?: ExchangeRecord["response"];
  expected?: unknown;
  actual?: unknown;
  /** For event-set comparisons: identities expected but absent, and present but not expected. */
  missing?: string[];
  extra?: string[];
  curl?: string;
  seed?: number;
  counterexample?: unknown;
}

export interface RequirementResult {
  id: string;
  level: Level;
  class: ConformanceClass;
  section: string;
  title: string;
  status: Status;
  reason?: string;
  checks: number;
  evidence: Evidence[];
}

export interface Summary {
  pass: number;
  fail: number;
  warn: number;
  skip: number;
  error: number;
}

export interface Report {
  tool: { name: "tracecheck"; version: string };
  target: { events: string; resolver: string };
  seed: number;
  runs: number;
  startedAt: string;
  durationMs: number;
  summary: Summary;
  /** How the expected events were obtained (dataset, unfiltered, windows, crawl) and how complete they are. */
  baseline?: { method: string; events: number; complete: boolean; note?: string };
  requirements: RequirementResult[];
}
