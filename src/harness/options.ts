// Options of `tracecheck run`, from the command line, a config file and the environment; flags win over the
// file, the file over the environment (CONTRACT.md). Validation here gives one sentence per mistake.
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type YAML from "yaml";
import { type ConformanceClass, SENDER_CLASSES } from "../engine/types.ts";
import { DEFAULT_PAGE_BUDGET } from "../http/pages.ts";
import type { Dataset } from "../model/index.ts";
import { REFERENCE_CONFIGURATION_NAMES } from "../reference/configurations.ts";

/** The classes `tracecheck run` checks: a sender's; a receiver is judged by `tracecheck receiver`. */
export const ALL_CLASSES: readonly ConformanceClass[] = SENDER_CLASSES;
export const ALL_MODULES = ["core", "seafood", "wildcatch", "aquaculture"];

export interface RunOptions {
  target?: string;
  resolver?: string;
  apiKey?: string;
  party?: string;
  gln?: string;
  startFrom?: string;
  dataset?: string;
  /** "capture": send the dataset to the target's EPCIS capture interface first, then judge against it. */
  load?: "capture";
  suites: ConformanceClass[];
  modules: string[];
  seed: number;
  runs: number;
  definition?: string;
  schemaMirror?: string;
  reportDir: string;
  baseline?: string;
  timeoutMs: number;
  concurrency: number;
  rate: number;
  /** Milliseconds the whole run may spend waiting on Retry-After before a 429 or 503 is taken as it stands. */
  retryBudgetMs: number;
  /** Pages one answer may take (--max-pages); past it the answer is cut and fails as paging that never ends. */
  maxPages: number;
  /** Body bytes one answer may take over all its pages (--max-answer-bytes). */
  maxAnswerBytes: number;
  allowOrigins: string[];
  /** Events the embedded reference generates without --target; with --load capture, the events to load. */
  embeddedEvents: number;
  /** Faults switched on in the embedded reference (for proving the harness). */
  embeddedFaults: string[];
  /** A named configuration of the embedded reference (src/reference/configurations.ts). */
  referenceConfig?: string;
  quiet: boolean;
  /**
   * Proving runs only: check just the suite files that record these requirements (within the selected
   * classes). Not a command-line option; the others of the classes are skipped as not checked.
   */
  onlyRequirements?: string[];
}

export class UsageError extends Error {}

/**
 * The dataset a --dataset option names, read and checked where the option is taken, before any target is
 * contacted; a file that is not one (truncated, not JSON, not an EPCIS document) is a usage mistake told in one
 * sentence. The reader is loaded only here, so that --help and other mistakes answer at once.
 */
export async function readDatasetOption(file: string): Promise<Dataset> {
  const { readDatasetFile } = await import("../generate/dataset-file.ts");
  try {
    return await readDatasetFile(file);
  } catch (err) {
    const first = ((err as Error).message.split("\n")[0] ?? "").replace(/\.$/, "");
    throw new UsageError(
      `--dataset ${file} is not a dataset tracecheck can read: ${first.charAt(0).toLowerCase()}${first.slice(1)}.`,
    );
  }
}

export const DEFAULT_RUNS = 25;

type Raw = Record<string, string | boolean | string[] | undefined>;

function list(v: unknown): string[] {
  if (v === undefined || v === false) return [];
  const parts = Array.isArray(v) ? v : [v];
  return parts
    .flatMap((p) => String(p).split(","))
    .map((s) => s.trim())
    .filter(Boolean);
}

function positiveInt(name: string, v: unknown, fallback: number, allowZero = false): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1)) {
    throw new UsageError(
      `--${name} must be a whole number${allowZero ? "" : " above 0"}, got "${String(v)}".`,
    );
  }
  return n;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function url(name: string, v: unknown): string | undefined {
  if (v === undefined) return undefined;
  const s = String(v).replace(/\/+$/, "");
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new UsageError(`--${name} must be an absolute http(s) URL, got "${String(v)}".`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new UsageError(`--${name} must be an http or https URL, got "${String(v)}".`);
  }
  return s;
}

/** Reads tracecheck.config.yaml (or the --config file): keys are the long option names. */
export function readConfigFile(file: string | undefined, cwd: string): Raw {
  const chosen = file ?? path.join(cwd, "tracecheck.config.yaml");
  if (!existsSync(chosen)) {
    if (file) throw new UsageError(`config file ${file} does not exist.`);
    return {};
  }
  let parsed: unknown;
  try {
    // yaml is loaded only for a run that has a config file.
    const { parse } = createRequire(import.meta.url)("yaml") as typeof YAML;
    parsed = parse(readFileSync(chosen, "utf8"));
  } catch (err) {
    // The YAML library follows its first line with a code frame; one line is enough to find the mistake.
    const first = ((err as Error).message.split("\n")[0] ?? "").replace(/:$/, "");
    throw new UsageError(`config file ${chosen} is not valid YAML (${first}); fix the file.`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new UsageError(`config file ${chosen} must be a mapping of option names to values.`);
  }
  const out: Raw = {};
  for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
    out[k] = Array.isArray(v)
      ? v.map(String)
      : typeof v === "boolean"
        ? v
        : v === null
          ? undefined
          : String(v);
  }
  return out;
}

const KNOWN = new Set([
  "target",
  "resolver",
  "api-key",
  "party",
  "gln",
  "start-from",
  "dataset",
  "load",
  "suite",
  "modules",
  "seed",
  "runs",
  "definition",
  "schema-mirror",
  "report-dir",
  "baseline",
  "timeout",
  "concurrency",
  "rate",
  "retry-budget",
  "max-pages",
  "max-answer-bytes",
  "allow-origin",
  "events",
  "faults",
  "reference-config",
  "quiet",
]);

export function resolveRunOptions(flags: Raw, config: Raw, env: NodeJS.ProcessEnv): RunOptions {
  for (const k of Object.keys(config)) {
    if (!KNOWN.has(k)) throw new UsageError(`config file: unknown option "${k}"; see tracecheck run --help.`);
  }
  const get = (k: string) => (flags[k] !== undefined ? flags[k] : config[k]);
  const suites = list(get("suite"));
  // An empty list is a mistake (a variable that expanded to nothing), not a request for every class.
  if (get("suite") !== undefined && suites.length === 0) {
    throw new UsageError(
      `--suite names no conformance class; name one or more of ${ALL_CLASSES.join(", ")}, or leave it out to run all.`,
    );
  }
  for (const s of suites) {
    if (s === "receiver") {
      throw new UsageError(
        "--suite receiver: tracecheck run checks a sender; check a receiver with tracecheck receiver.",
      );
    }
    if (!ALL_CLASSES.includes(s as ConformanceClass)) {
      throw new UsageError(`--suite: unknown conformance class "${s}"; known: ${ALL_CLASSES.join(", ")}.`);
    }
  }
  const modules = list(get("modules"));
  for (const m of modules) {
    if (!ALL_MODULES.includes(m)) {
      throw new UsageError(`--modules: unknown module "${m}"; known: ${ALL_MODULES.join(", ")}.`);
    }
  }
  const seedRaw = get("seed");
  const seed =
    seedRaw === undefined ? Math.floor(Math.random() * 2 ** 31) : positiveInt("seed", seedRaw, 0, true);
  const target = url("target", get("target"));
  const opts: RunOptions = {
    target,
    resolver: url("resolver", get("resolver")) ?? target,
    apiKey: (get("api-key") as string | undefined) ?? env.TRACECHECK_API_KEY ?? undefined,
    party: get("party") as string | undefined,
    gln: get("gln") as string | undefined,
    startFrom: get("start-from") as string | undefined,
    dataset: get("dataset") as string | undefined,
    suites: suites.length > 0 ? (suites as ConformanceClass[]) : [...ALL_CLASSES],
    modules: ["core", ...modules.filter((m) => m !== "core")],
    seed,
    runs: positiveInt("runs", get("runs"), DEFAULT_RUNS),
    definition: get("definition") as string | undefined,
    schemaMirror: (get("schema-mirror") as string | undefined) ?? env.TRACECHECK_SCHEMA_MIRROR ?? undefined,
    reportDir: (get("report-dir") as string | undefined) ?? "reports",
    baseline: get("baseline") as string | undefined,
    timeoutMs: positiveInt("timeout", get("timeout"), 10_000),
    concurrency: positiveInt("concurrency", get("concurrency"), 8),
    rate: positiveInt("rate", get("rate"), 0, true),
    retryBudgetMs: positiveInt("retry-budget", get("retry-budget"), 120, true) * 1000,
    maxPages: positiveInt("max-pages", get("max-pages"), DEFAULT_PAGE_BUDGET.maxPages),
    maxAnswerBytes: positiveInt("max-answer-bytes", get("max-answer-bytes"), DEFAULT_PAGE_BUDGET.maxBytes),
    allowOrigins: list(get("allow-origin")).map((o) => new URL(url("allow-origin", o)!).origin),
    embeddedEvents: positiveInt("events", get("events"), 200),
    embeddedFaults: list(get("faults")),
    referenceConfig: get("reference-config") as string | undefined,
    quiet: get("quiet") === true || get("quiet") === "true",
  };
  if (opts.apiKey === "") opts.apiKey = undefined;
  const load = get("load");
  if (load !== undefined) {
    if (load !== "capture")
      throw new UsageError(`--load: unknown way to load "${String(load)}"; the one known is capture.`);
    if (!opts.target)
      throw new UsageError(
        "--load capture needs --target: the embedded reference holds its dataset already.",
      );
    if (opts.dataset !== undefined && flags.events !== undefined) {
      throw new UsageError("--load capture sends either --dataset or --events generated ones, not both.");
    }
    opts.load = "capture";
  }
  if (!opts.target && flags.resolver !== undefined) {
    throw new UsageError("--resolver needs --target: without --target the embedded reference serves both.");
  }
  if (opts.target && opts.embeddedFaults.length > 0) {
    throw new UsageError("--faults needs the embedded reference: leave out --target to use it.");
  }
  if (opts.target && flags.events !== undefined && opts.load === undefined) {
    throw new UsageError("--events needs the embedded reference: leave out --target to use it.");
  }
  if (opts.referenceConfig !== undefined) {
    if (opts.target) {
      throw new UsageError("--reference-config needs the embedded reference: leave out --target to use it.");
    }
    if (!REFERENCE_CONFIGURATION_NAMES.includes(opts.referenceConfig)) {
      throw new UsageError(
        `--reference-config: unknown configuration "${opts.referenceConfig}"; known: ${REFERENCE_CONFIGURATION_NAMES.join(", ")}.`,
      );
    }
  }
  if (opts.dataset !== undefined && get("events") !== undefined) {
    throw new UsageError("give either --dataset or --events, not both: --events sizes a generated dataset.");
  }
  for (const f of ["dataset", "definition", "baseline"] as const) {
    const v = opts[f];
    if (v !== undefined && !existsSync(v)) throw new UsageError(`--${f} ${v}: no such file.`);
  }
  if (opts.schemaMirror !== undefined && !isDirectory(opts.schemaMirror)) {
    const named = get("schema-mirror") !== undefined ? "--schema-mirror" : "TRACECHECK_SCHEMA_MIRROR";
    throw new UsageError(`${named} ${opts.schemaMirror}: no such folder.`);
  }
  return opts;
}
