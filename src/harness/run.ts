// `tracecheck run`: definition → target → baseline → suites → verdicts → reports (ARCHITECTURE.md). Exit status
// 0, 1 or 2 exactly as CONTRACT.md says.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { assertSchemaAvailable, loadDefinition, SchemaUnavailableError } from "../definition/index.ts";
import type { RunContext } from "../engine/context.ts";
import { type EngineResult, preloadSuites, runSuites, whenAborted } from "../engine/engine.ts";
import { exchangeEvidence } from "../engine/evidence.ts";
import { loadRegistry, type Registry } from "../engine/registry.ts";
import { DEFAULT_DEFINITION, REPO_ROOT, toolVersion } from "../engine/repo.ts";
import {
  type ConformanceClass,
  type Evidence,
  type Report,
  type RequirementResult,
  type RunOptionsRecord,
  SENDER_CLASSES,
} from "../engine/types.ts";
import { aggregate, effectiveLevel } from "../engine/verdicts.ts";
import { generateDataset } from "../generate/index.ts";
import { Handover, HttpClient, HttpError, type HttpResult } from "../http/index.ts";
import type { Dataset } from "../model/index.ts";
import {
  formatDiff,
  formatSummary,
  type ReportDiff,
  RunProgress,
  useColor,
  validateReport,
  writeReports,
} from "../report/index.ts";
import { type DiscoveredBaseline, discoverBaseline } from "../target/baseline.ts";
import { writeBaselineFile } from "../target/baseline-file.ts";
import { loadForRun } from "../target/capture.ts";
import {
  type EmbeddedReference,
  type EmbeddedThread,
  embeddedKey,
  startEmbeddedHere,
  startEmbeddedThread,
} from "./embedded.ts";
import { type RunOptions, readDatasetOption, UsageError } from "./options.ts";
import { type FinishedRun, finishRun, reportDirProblem, sha256Of, summarise } from "./run-files.ts";

export const EPCIS_SCHEMA_URL = "https://ref.gs1.org/standards/epcis/2.0.1/epcis-json-schema.json";

export interface RunIo {
  out: (line: string) => void;
  err: (line: string) => void;
  color: boolean;
  /** A terminal to draw progress bars on; without one progress is plain lines through err. */
  terminal?: NodeJS.WritableStream;
}

export function defaultIo(): RunIo {
  return {
    out: (l) => process.stdout.write(`${l}\n`),
    err: (l) => process.stderr.write(`${l}\n`),
    color: useColor(process.stdout, process.env),
    // Bars redraw lines in place: only on a terminal that can move the cursor.
    ...(process.stderr.isTTY && process.env["TERM"] !== "dumb" ? { terminal: process.stderr } : {}),
  };
}

export interface RunOutcome {
  /** 130 and 143: SIGINT and SIGTERM ended the run (the shell's convention for those signals). */
  exitCode: 0 | 1 | 2 | 130 | 143;
  report?: Report;
  /** Why a run that wrote no report could not start, in one sentence. */
  reason?: string;
}

function signalExit(signal: AbortSignal): 130 | 143 {
  return signal.reason === "SIGTERM" ? 143 : 130;
}

/** The classes whose checks draw on the events the target holds: all but auth and definition. */
const CLASSES_READING_EVENTS: readonly ConformanceClass[] = [
  "events",
  "resolver",
  "masterdata",
  "core-events",
  "workflow",
];

/**
 * Why a run that knows no event of the target stops, or undefined when it goes on. Without events, the classes
 * that read them could pass only on nothing; a target is not certified that way, so the run is incomplete and
 * says how to give it data. --dataset names what the target was loaded with, so its run goes on and judges that.
 */
function noEventsReason(baseline: DiscoveredBaseline, opts: RunOptions): string | undefined {
  if (baseline.events.length > 0 || opts.dataset !== undefined || opts.load !== undefined) return undefined;
  if (!opts.suites.some((c) => CLASSES_READING_EVENTS.includes(c))) return undefined;
  const load =
    "load events into it (tracecheck fixtures --out dataset.json writes a dataset to load) and run again with --dataset dataset.json";
  return baseline.complete
    ? `the target holds no events, so nothing it serves can be checked and it is not certified; ${load}.`
    : `no event of the target could be found (${baseline.note}), so nothing it serves can be checked and it is not certified; if it refuses broad queries, pass --start-from with a product's Digital Link URI, else ${load}.`;
}

/** An earlier report.json for --baseline, read and checked before the run starts, or a sentence saying why not. */
async function readBaselineReport(file: string): Promise<Report | string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (err) {
    return `--baseline ${file} is not a readable JSON file (${(err as Error).message.split("\n")[0]}); pass the report.json of an earlier run.`;
  }
  const check = validateReport(parsed);
  if (!check.valid) {
    return `--baseline ${file} is not a tracecheck report (${check.errors.slice(0, 2).join("; ")}); pass the report.json of an earlier run.`;
  }
  return parsed as Report;
}

function optionsRecord(opts: RunOptions, definitionFile: string, sha256: string): RunOptionsRecord {
  const record: RunOptionsRecord = {
    suites: [...opts.suites],
    modules: [...opts.modules],
    faults: [...opts.embeddedFaults],
    definition: { file: definitionFile, sha256, given: opts.definition !== undefined },
    timeoutMs: opts.timeoutMs,
    concurrency: opts.concurrency,
    rate: opts.rate,
    retryBudgetSeconds: opts.retryBudgetMs / 1000,
    maxPages: opts.maxPages,
    maxAnswerBytes: opts.maxAnswerBytes,
  };
  if (opts.referenceConfig !== undefined) record.referenceConfig = opts.referenceConfig;
  if (opts.dataset !== undefined) record.dataset = path.resolve(opts.dataset);
  if (opts.load !== undefined) record.load = opts.load;
  if (opts.startFrom !== undefined) record.startFrom = opts.startFrom;
  if (opts.party !== undefined) record.party = opts.party;
  if (opts.gln !== undefined) record.gln = opts.gln;
  return record;
}

/**
 * Why a run that would pass judged no link set of the resolver, or undefined: its class selected in full, every
 * path requirement skipped, and no --party or --gln to say which identifiers are the sender's own. The skips
 * are fair (a sender may decline identifiers that are not its own), but a resolver that answered nothing is not
 * certified by them, as a target holding no events is not.
 */
function resolverUnjudged(report: Report, opts: RunOptions): string | undefined {
  if (!opts.suites.includes("resolver") || opts.onlyRequirements !== undefined) return undefined;
  if (opts.party !== undefined || opts.gln !== undefined) return undefined;
  // The path requirements judge whether identifiers are answered with a link set; all skipped, none was.
  const paths = report.requirements.filter((r) => r.id.startsWith("RES-PATH-"));
  if (paths.length === 0 || paths.some((r) => r.status !== "skip")) return undefined;
  return `the resolver at ${report.target.resolver} answered none of the identifiers the target's events name with a link set, and without --party or --gln nothing says which of them are the sender's own to resolve, so none of its link sets, master data or workflow could be judged; pass the party and location the sender exchanges at setup with --party and --gln.`;
}

/** What every step of a run shares: its options, and what was read and checked before anything is written. */
interface RunSetup {
  opts: RunOptions;
  /** When the run started (ms since the epoch): its duration and the deadline of its retry budget count from it. */
  started: number;
  /** The sender's requirements: the receiver class is judged by `tracecheck receiver` (src/harness/receiver). */
  registry: Registry;
  reportDir: string;
  /** The earlier report --baseline names, and its file, to compare this one with. */
  previous?: { report: Report; file: string };
  definitionFile: string;
  /** The options as the report records them. */
  options: RunOptionsRecord;
  /** Why the run cannot start although its report directory takes reports: it ends incomplete at once. */
  problem?: string;
  /** The dataset --dataset names, read before the target is contacted. */
  dataset?: Dataset;
}

/** Where the run's requests go, as its report names them. */
type TargetNames = Report["target"];

/** The target made ready: where its interfaces are, the key to send, and the embedded reference if one started. */
interface PreparedTarget {
  eventsBase: string;
  resolverBase: string;
  apiKey?: string;
  /** The embedded reference this run started, closed when it ends. */
  reference?: EmbeddedReference;
}

/** The events the checks are held to, and the file that hands them to the suites. */
interface ObtainedBaseline {
  baseline: DiscoveredBaseline;
  baselineFile: string;
}

/** Why the run stops before its checks, with the exchange that shows it. */
interface Stop {
  reason: string;
  evidence: Evidence[];
}

/**
 * Why a 2xx first answer of GET /events shows the URL is not an EPCIS query interface, or undefined: an answer
 * that is not JSON at all (a web page, plain text, nothing), so that a --target that names a portal or a login page
 * is told as such rather than judged, or reported as a target holding no events. JSON under another media type is
 * left to the checks, which judge the media type.
 */
function notAnInterface(first: HttpResult, eventsBase: string): string | undefined {
  const type = (first.headers["content-type"] ?? "").split(";")[0]!.trim();
  if (/json/i.test(type)) return undefined;
  const start = first.body
    .subarray(0, 256)
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart()[0];
  if (start === "{" || start === "[") return undefined;
  const answered = type === "" ? "a body without a content type" : type;
  return `GET ${eventsBase}/events answered ${answered}, not JSON: is --target the base of the EPCIS query interface?`;
}

/** How a signal ended the run: the reason its report gives, and the exit status. */
interface Interruption {
  reason: string;
  exitCode: 130 | 143;
}

function stoppedReason(signal: AbortSignal | undefined): string {
  return `interrupted by ${String(signal?.reason)} before the run finished`;
}

/** How the signal ended the run, or undefined while it has not aborted. */
function interruption(signal: AbortSignal | undefined): Interruption | undefined {
  if (signal?.aborted !== true) return undefined;
  return { reason: stoppedReason(signal), exitCode: signalExit(signal) };
}

/**
 * A run as its steps, each a function below: resolve the options, check the definition, prepare the target (the
 * embedded reference when none is given), obtain the baseline, run the suites, judge, settle the exit status and
 * publish the reports. A step that finds the run cannot go on gives the reason, and the run ends incomplete with
 * its reports written.
 *
 * `signal`, when it aborts (its reason the signal's name, SIGINT or SIGTERM), stops the run promptly: the reports of what finished are
 * written, marked interrupted, temporary files are removed, and the exit status is 130 or 143.
 */
export async function runTracecheck(
  opts: RunOptions,
  io: RunIo = defaultIo(),
  signal?: AbortSignal,
  embedded?: EmbeddedThread,
): Promise<RunOutcome> {
  const setup = await resolveRun(opts, Date.now());
  if (typeof setup === "string") {
    io.err(`tracecheck: ${setup}`);
    return { exitCode: 2, reason: setup };
  }
  const incomplete = (target: TargetNames, reason: string, evidence: Evidence[] = []) =>
    reportIncomplete(setup, target, reason, io, signal, evidence);
  // A report directory that takes reports gets one, so that an earlier run's pass is never left standing there.
  if (setup.problem !== undefined) return await incomplete(namedTarget(opts), setup.problem);
  const unusable = await definitionProblem(setup);
  if (unusable !== undefined) return await incomplete(namedTarget(opts), unusable);
  preload(opts);
  const prepared = await prepareTarget(opts, setup.dataset, embedded);
  if (typeof prepared === "string") return await incomplete(namedTarget(opts), prepared);
  const target = { events: prepared.eventsBase, resolver: prepared.resolverBase };
  const tmp = await mkdtemp(path.join(os.tmpdir(), "tracecheck-"));
  const client = openClient(setup, prepared);
  try {
    const obtained = await obtainBaseline(client, setup, prepared, tmp, io, signal);
    if (typeof obtained === "string") return await incomplete(target, obtained);
    if ("reason" in obtained) return await incomplete(target, obtained.reason, obtained.evidence);
    if (signal?.aborted) return await incomplete(target, stoppedReason(signal));
    const engine = await runChecks(runContext(setup, prepared, obtained.baselineFile), setup, io, signal);
    const stopped = interruption(signal);
    const { exitCode, report, diff } = await judge(setup, target, obtained.baseline, engine, stopped, io);
    publish(report, diff, setup.reportDir, io);
    return { exitCode, report };
  } catch (err) {
    // Whatever went wrong in the harness, the run leaves its reports behind, saying so.
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    io.err(`tracecheck: harness error: ${client.redactSecret(message)}`);
    return await incomplete(
      target,
      `a harness error stopped the run: ${client.redactSecret(err instanceof Error ? err.message : String(err))}`,
    );
  } finally {
    await (signal?.aborted ? client.destroy() : client.close());
    await prepared.reference?.close();
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Resolves what the run needs before anything is written: the sender's requirements, the report directory, the
 * --baseline report and the definition file; or, as a sentence, why the run cannot start: with no report when
 * the report directory cannot take one, else as the setup's problem, which the run reports as incomplete.
 */
async function resolveRun(opts: RunOptions, started: number): Promise<RunSetup | string> {
  const full = await loadRegistry();
  const registry = {
    ...full,
    requirements: full.requirements.filter((r) => SENDER_CLASSES.includes(r.class)),
  };
  const reportDir = path.resolve(opts.reportDir);
  const dirProblem = await reportDirProblem(reportDir);
  if (dirProblem !== undefined) return dirProblem;
  const definitionFile = path.resolve(opts.definition ?? DEFAULT_DEFINITION);
  const options = optionsRecord(opts, definitionFile, await sha256Of(definitionFile));
  const setup: RunSetup = { opts, started, registry, reportDir, definitionFile, options };
  // Read before anything is written: the default report directory may hold the very report named here.
  if (opts.baseline) {
    const read = await readBaselineReport(opts.baseline);
    if (typeof read === "string") setup.problem = read;
    else setup.previous = { report: read, file: opts.baseline };
  }
  // Read before the target is asked anything: a file that is not a dataset is the user's mistake, not the target's.
  if (opts.dataset !== undefined && setup.problem === undefined) {
    try {
      setup.dataset = await readDatasetOption(opts.dataset);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      setup.problem = err.message;
    }
  }
  return setup;
}

/** The target as the report names it before an embedded reference has started. */
function namedTarget(opts: RunOptions): TargetNames {
  return {
    events: opts.target ?? "(embedded reference)",
    resolver: opts.resolver ?? opts.target ?? "(embedded reference)",
  };
}

/** Why the definition or the EPCIS schema cannot be used, or undefined when both can. */
async function definitionProblem(setup: RunSetup): Promise<string | undefined> {
  try {
    await loadDefinition(setup.definitionFile);
  } catch (err) {
    return (err as Error).message;
  }
  try {
    await assertSchemaAvailable(EPCIS_SCHEMA_URL, { mirror: setup.opts.schemaMirror, network: true });
  } catch (err) {
    if (err instanceof SchemaUnavailableError) return `error: schema unavailable. ${err.message}`;
    throw err;
  }
  return undefined;
}

/** The suite files load while the reference starts and the target's events are discovered. */
function preload(opts: RunOptions): void {
  preloadSuites(
    { classes: opts.suites, ...(opts.onlyRequirements ? { onlyRequirements: opts.onlyRequirements } : {}) },
    REPO_ROOT,
  );
}

/**
 * The target given with --target, or the embedded reference started: a generated dataset and a key of its own, so
 * that every class has something to check, on its thread (the command's, if it started one already), else here.
 * A reference that fails to start gives the sentence saying why.
 */
async function prepareTarget(
  opts: RunOptions,
  dataset: Dataset | undefined,
  embedded?: EmbeddedThread,
): Promise<PreparedTarget | string> {
  if (opts.target) {
    return { eventsBase: opts.target, resolverBase: opts.resolver ?? opts.target, apiKey: opts.apiKey };
  }
  const thread = embedded ?? startEmbeddedThread(opts);
  const apiKey = thread?.apiKey ?? embeddedKey(opts);
  const starting =
    thread !== undefined
      ? thread.ready.then((at) => ({ ...at, close: thread.close }))
      : startEmbeddedHere(
          opts,
          apiKey,
          dataset ?? generateDataset({ seed: opts.seed, events: opts.embeddedEvents }),
        );
  let reference: EmbeddedReference;
  try {
    reference = await starting;
  } catch (err) {
    return (err as Error).message;
  }
  return { eventsBase: reference.eventsBase, resolverBase: reference.resolverBase, apiKey, reference };
}

/** The one reader of the target, its key kept to the target's origins and those --allow-origin adds. */
function openClient(setup: RunSetup, prepared: PreparedTarget): HttpClient {
  const { opts } = setup;
  return new HttpClient({
    timeoutMs: opts.timeoutMs,
    concurrency: opts.concurrency,
    ratePerSecond: opts.rate,
    apiKey: prepared.apiKey,
    allowedOrigins: [
      new URL(prepared.eventsBase).origin,
      new URL(prepared.resolverBase).origin,
      ...opts.allowOrigins,
    ],
    retryDeadline: setup.started + opts.retryBudgetMs,
  });
}

/**
 * The events the target holds, known before any check: the first answer of GET /events (a refused key, a standing
 * 429 or an unreachable target ends the run here), the --load capture, then discovery, written to a file in `tmp`
 * for the suites. Gives the sentence saying why the run is incomplete when it cannot go on.
 */
async function obtainBaseline(
  client: HttpClient,
  setup: RunSetup,
  prepared: PreparedTarget,
  tmp: string,
  io: RunIo,
  signal: AbortSignal | undefined,
): Promise<ObtainedBaseline | Stop | string> {
  const { opts } = setup;
  const { eventsBase, resolverBase, apiKey } = prepared;
  let first: HttpResult | undefined;
  try {
    first = await client.get(`${eventsBase}/events`);
    // A refused key is the user's to fix, not the vendor's failure: nothing can be checked with it.
    if (first.status === 401 || first.status === 403) {
      return apiKey === undefined
        ? `the target refused GET ${eventsBase}/events without a key (status ${first.status}); pass the key it issued with --api-key or TRACECHECK_API_KEY.`
        : `the target refused the API key (GET ${eventsBase}/events answered ${first.status}); check --api-key or TRACECHECK_API_KEY.`;
    }
    if (first.status === 429) {
      return `the target kept answering GET ${eventsBase}/events with 429 Too Many Requests within the retry budget of ${opts.retryBudgetMs / 1000} s; lower --rate, or raise --retry-budget.`;
    }
    const wrongUrl =
      first.status >= 200 && first.status <= 299 ? notAnInterface(first, eventsBase) : undefined;
    if (wrongUrl !== undefined) return { reason: wrongUrl, evidence: [exchangeEvidence(first.exchange)] };
  } catch (err) {
    if (err instanceof HttpError) {
      return `the target ${eventsBase} is unreachable (${err.message}); check --target and that it is running.`;
    }
    throw err;
  }
  if (signal?.aborted) return stoppedReason(signal);
  // --load capture: the dataset goes in through the target's capture interface, then is what it was loaded with.
  const loaded =
    opts.load === "capture"
      ? await loadForRun(client, opts, { eventsBase, resolverBase, note: io.err, signal })
      : undefined;
  if (typeof loaded === "string") return loaded;
  // A 2xx first answer is the unfiltered query's first page, unless a load has changed what the target holds
  // since; any other is asked again, as a target may have answered it in passing. Handed over, it is held no
  // longer here: a page may be large.
  const unfilteredAnswer =
    loaded === undefined && first.status >= 200 && first.status <= 299 ? new Handover(first) : undefined;
  first = undefined;
  if (!opts.quiet) io.err(`tracecheck: discovering the events ${eventsBase} holds…`);
  const discovered = await Promise.race([
    discoverBaseline(client, {
      eventsBase,
      resolverBase,
      startFrom: opts.startFrom,
      budget: { maxPages: opts.maxPages, maxBytes: opts.maxAnswerBytes },
      spool: { dir: tmp },
      ...(unfilteredAnswer === undefined ? {} : { unfilteredAnswer }),
    }),
    whenAborted(signal),
  ]);
  if (discovered === "aborted") return stoppedReason(signal);
  const baseline = discovered;
  if (loaded !== undefined) baseline.datasetEvents = loaded;
  else if (setup.dataset !== undefined) baseline.datasetEvents = setup.dataset.events;
  const baselineFile = path.join(tmp, "baseline.ndjson");
  await writeBaselineFile(baselineFile, baseline);
  if (!opts.quiet) io.err(`tracecheck: baseline: ${baseline.events.length} events (${baseline.note})`);
  const empty = noEventsReason(baseline, opts);
  if (empty !== undefined) return empty;
  return { baseline, baselineFile };
}

/** What the suites are told of the run. */
function runContext(setup: RunSetup, prepared: PreparedTarget, baselineFile: string): RunContext {
  const { opts } = setup;
  const ctx: RunContext = {
    eventsBase: prepared.eventsBase,
    resolverBase: prepared.resolverBase,
    classes: opts.suites,
    modules: opts.modules,
    seed: opts.seed,
    runs: opts.runs,
    definitionFile: setup.definitionFile,
    timeoutMs: opts.timeoutMs,
    concurrency: opts.concurrency,
    ratePerSecond: opts.rate,
    allowOrigins: opts.allowOrigins,
    retryDeadline: setup.started + opts.retryBudgetMs,
    maxPages: opts.maxPages,
    maxAnswerBytes: opts.maxAnswerBytes,
    baselineFile,
    embedded: prepared.reference !== undefined,
    definitionGiven: opts.definition !== undefined,
  };
  if (prepared.apiKey !== undefined) ctx.apiKey = prepared.apiKey;
  if (opts.party !== undefined) ctx.party = opts.party;
  if (opts.gln !== undefined) ctx.gln = opts.gln;
  if (opts.startFrom !== undefined) ctx.startFrom = opts.startFrom;
  if (opts.schemaMirror !== undefined) ctx.schemaMirror = opts.schemaMirror;
  if (opts.onlyRequirements !== undefined) ctx.onlyRequirements = opts.onlyRequirements;
  return ctx;
}

/** Runs the selected suites, their progress drawn unless --quiet. */
async function runChecks(
  ctx: RunContext,
  setup: RunSetup,
  io: RunIo,
  signal: AbortSignal | undefined,
): Promise<EngineResult> {
  const { opts, registry } = setup;
  const chosen = registry.requirements.filter(
    (r) => opts.suites.includes(r.class) && (opts.onlyRequirements?.includes(r.id) ?? true),
  );
  const progress = opts.quiet
    ? undefined
    : new RunProgress({
        requirements: chosen.map((r) => ({
          id: r.id,
          class: r.class,
          level: effectiveLevel(r, opts.definition !== undefined),
        })),
        write: io.err,
        color: io.color,
        ...(io.terminal === undefined ? {} : { terminal: io.terminal }),
      });
  return await runSuites(ctx, REPO_ROOT, (p) => progress?.record(p), signal).finally(() => progress?.stop());
}

/**
 * Judges each requirement of the registry on the checks' verdicts, settles the exit status (CONTRACT.md) and
 * writes the reports, by the end a receiver session shares (run-files.ts). Beyond the verdicts, a run stopped by
 * a signal ends with its signal's status, and one that would pass without judging any link set of the resolver
 * is incomplete.
 */
function judge(
  setup: RunSetup,
  target: TargetNames,
  baseline: DiscoveredBaseline,
  engine: EngineResult,
  stopped: Interruption | undefined,
  io: RunIo,
): Promise<FinishedRun> {
  const { opts } = setup;
  return finishRun({
    requirements: setup.registry.requirements,
    engine,
    excused: (req) =>
      !opts.suites.includes(req.class)
        ? `class ${req.class} not selected with --suite`
        : opts.onlyRequirements !== undefined && !opts.onlyRequirements.includes(req.id)
          ? "not among the requirements this proving run checks"
          : stopped !== undefined
            ? `not checked: ${stopped.reason}`
            : undefined,
    // A requirement may weigh differently against a vendor's own definition (its definitionLevel).
    definitionGiven: opts.definition !== undefined,
    started: setup.started,
    header: {
      options: setup.options,
      target,
      seed: opts.seed,
      runs: opts.runs,
      baseline: {
        method: baseline.method,
        events: baseline.events.length,
        complete: baseline.complete,
        note: baseline.note,
      },
    },
    ...(setup.previous === undefined ? {} : { previous: setup.previous }),
    ending: (report) => {
      if (stopped !== undefined)
        return { exitCode: stopped.exitCode, reason: stopped.reason, interrupted: true };
      const unjudged = report.exitCode === 0 ? resolverUnjudged(report, opts) : undefined;
      return unjudged === undefined ? undefined : { exitCode: 2, reason: unjudged };
    },
    reportDir: setup.reportDir,
    note: io.err,
  });
}

/** Prints the summary of the written reports, with what changed since --baseline's report when one was given. */
function publish(report: Report, diff: ReportDiff | undefined, reportDir: string, io: RunIo): void {
  if (diff !== undefined) io.out(formatDiff(diff, { color: io.color }));
  io.out(formatSummary(report, diff ? { color: io.color, diff } : { color: io.color }));
  if (report.incompleteReason !== undefined) io.err(`tracecheck: incomplete: ${report.incompleteReason}`);
  io.out(`reports written to ${reportDir} (report.json, junit.xml, report.html)`);
}

/**
 * A run that cannot be completed still leaves its reports, so that a CI job always has an artefact: every
 * selected requirement not decided is an error with the reason (skipped, when a signal ended the run).
 */
async function reportIncomplete(
  setup: RunSetup,
  target: TargetNames,
  reason: string,
  io: RunIo,
  signal: AbortSignal | undefined,
  evidence: Evidence[] = [],
): Promise<RunOutcome> {
  const { opts, registry, reportDir } = setup;
  io.err(`tracecheck: ${reason}`);
  const interrupted = signal?.aborted === true;
  const exitCode = interrupted ? signalExit(signal) : 2;
  const requirements: RequirementResult[] = registry.requirements.map((req) =>
    aggregate(
      req,
      opts.suites.includes(req.class)
        ? [interrupted ? { id: req.id, status: "skip", reason } : { id: req.id, status: "error", reason }]
        : [],
      `class ${req.class} not selected with --suite`,
      { definitionGiven: opts.definition !== undefined },
    ),
  );
  const report: Report = {
    tool: { name: "tracecheck", version: toolVersion() },
    verdict: "incomplete",
    exitCode,
    incompleteReason: reason,
    ...(evidence.length === 0 ? {} : { incompleteEvidence: evidence }),
    ...(interrupted ? { interrupted: true } : {}),
    options: setup.options,
    target,
    seed: opts.seed,
    runs: opts.runs,
    startedAt: new Date(setup.started).toISOString(),
    durationMs: Date.now() - setup.started,
    summary: summarise(requirements),
    requirements,
  };
  try {
    await writeReports(report, reportDir);
    io.out(`reports written to ${reportDir} (report.json, junit.xml, report.html)`);
  } catch (err) {
    io.err(`tracecheck: the reports could not be written: ${(err as Error).message}`);
  }
  return { exitCode, report };
}
