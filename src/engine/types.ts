// Verdicts and the report, as CONTRACT.md fixes them. Reporters read these; suites produce them.
import type { ExchangeRecord } from "../http/record.ts";

export type Level = "MUST" | "SHOULD" | "MAY";
export type Status = "pass" | "fail" | "warn" | "skip" | "error";
/**
 * The conformance classes, one folder of suites/ each, in the order reports list them. All but receiver judge a
 * sender (`tracecheck run`); receiver judges the other role (`tracecheck receiver`).
 */
export const CONFORMANCE_CLASSES = [
  "events",
  "resolver",
  "masterdata",
  "auth",
  "core-events",
  "workflow",
  "definition",
  "receiver",
] as const;
export type ConformanceClass = (typeof CONFORMANCE_CLASSES)[number];

/** The classes that judge a sender: what `tracecheck run` checks and may be asked for with --suite. */
export const SENDER_CLASSES: readonly ConformanceClass[] = CONFORMANCE_CLASSES.filter(
  (c) => c !== "receiver",
);

/** One entry of suites/requirements.yaml. */
export interface Requirement {
  id: string;
  section: string;
  level: Level;
  class: ConformanceClass;
  title: string;
  rule: string;
  /**
   * The spec's own words the requirement rests on: one sentence or table row, quoted exactly, or several joined
   * by " … " (suites/requirements.yaml says how they are written and checked).
   */
  spec: string;
  /**
   * The sentence of the spec that makes the requirement MUST when the quote describes the behaviour without saying
   * so itself, e.g. spec 1's "Everything described here is mandatory for a conforming solution."
   */
  carrier?: string;
  /** The level when the user passes `--definition FILE`; without it the requirement has `level`. */
  definitionLevel?: Level;
  tests?: string[];
}

/**
 * What one event holds in the fields a query reads (spec 2.1), written as the event writes them: a time, its
 * bizStep, its EPCs, its EPC classes, its bizLocation or transformationID. A long list keeps the values that meet
 * the query first, and `more` counts, per field, the values left out.
 */
export interface EventValues {
  eventTime?: string;
  recordTime?: string;
  bizStep?: string;
  transformationID?: string;
  bizLocation?: { id: string };
  epcList?: string[];
  childEPCs?: string[];
  parentID?: string;
  inputEPCList?: string[];
  outputEPCList?: string[];
  quantityList?: { epcClass: string }[];
  childQuantityList?: { epcClass: string }[];
  inputQuantityList?: { epcClass: string }[];
  outputQuantityList?: { epcClass: string }[];
  more?: Record<string, number>;
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
  /**
   * For event-set comparisons: each listed missing and extra event's values in the fields its query reads, by
   * identity, so that a reader sees them beside the bound or value asked (its eventTime beside the bound, its
   * bizStep beside the asked forms, its EPCs beside the EPC).
   */
  eventValues?: Record<string, EventValues>;
  curl?: string;
  seed?: number;
  counterexample?: unknown;
  /** The request went to an origin the key may not go to, so it was sent without X-API-Key. */
  keyWithheld?: boolean;
}

export interface RequirementResult {
  id: string;
  level: Level;
  class: ConformanceClass;
  section: string;
  title: string;
  /** The quoted sentence of the spec the requirement rests on; absent only in reports of older versions. */
  spec?: string;
  status: Status;
  reason?: string;
  /** Of a skip: the requirement whose failure left this one without what it needs (CONTRACT.md). */
  blockedBy?: string;
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

/** What shaped a run, so that a report can be read, compared and replayed without its command line. */
export interface RunOptionsRecord {
  suites: ConformanceClass[];
  modules: string[];
  /** Named faults of the embedded reference; empty against a --target. */
  faults: string[];
  referenceConfig?: string;
  /** The interface definition the run read, and the sha-256 of its bytes. */
  definition: { file: string; sha256: string; given: boolean };
  dataset?: string;
  /** How the dataset reached the target before the run: "capture" for --load capture. */
  load?: "capture";
  startFrom?: string;
  party?: string;
  gln?: string;
  timeoutMs: number;
  concurrency: number;
  rate: number;
  retryBudgetSeconds: number;
  /** The budgets of one answer across its pages (--max-pages, --max-answer-bytes). */
  maxPages?: number;
  maxAnswerBytes?: number;
}

/** A requirement whose status differs between an earlier report and this one. */
export interface StatusChange {
  id: string;
  from: Status;
  to: Status;
}

/** What changed since the earlier report --baseline named, as the run printed it. */
export interface ReportChanges {
  /** The earlier report.json, as given to --baseline, made absolute. */
  baseline: string;
  /** Was pass, warn or skip; now fail. */
  newlyFailing: StatusChange[];
  /** Was fail or error; now pass or warn. */
  newlyPassing: StatusChange[];
  /** Any other change of status (pass to error among them: undecided, not regressed). */
  changed: StatusChange[];
  /** Requirement ids only this report lists, and ids only the earlier one did. */
  added: string[];
  removed: string[];
  /** True when anything is newly failing: the run then exits 1. */
  regressed: boolean;
}

/** pass: exit 0; fail: a MUST failed or the run regressed (exit 1); incomplete: the run could not be completed (exit 2). */
export type RunVerdict = "pass" | "fail" | "incomplete";

export interface Report {
  tool: { name: "tracecheck"; version: string };
  verdict?: RunVerdict;
  exitCode?: 0 | 1 | 2 | 130 | 143;
  /** Why the run is incomplete, in one sentence; set only when it is. */
  incompleteReason?: string;
  /** The exchanges that show why, when one does (a --target that answers a web page, not JSON). */
  incompleteEvidence?: Evidence[];
  /** True when SIGINT or SIGTERM ended the run before it finished. */
  interrupted?: boolean;
  options?: RunOptionsRecord;
  target: { events: string; resolver: string };
  seed: number;
  runs: number;
  startedAt: string;
  durationMs: number;
  summary: Summary;
  /** How the expected events were obtained (dataset, unfiltered, windows, crawl) and how complete they are. */
  baseline?: { method: string; events: number; complete: boolean; note?: string };
  /** With --baseline: what changed since that report. */
  changes?: ReportChanges;
  requirements: RequirementResult[];
}
