// `tracecheck run`: definition → target → baseline → suites → verdicts → reports (ARCHITECTURE.md). Exit status
// 0, 1 or 2 exactly as CONTRACT.md says.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { assertSchemaAvailable, loadDefinition, SchemaUnavailableError } from "../definition/index.ts";
import { generateDataset, readDatasetFile } from "../generate/index.ts";
import { Handover, HttpClient, HttpError, type HttpResult } from "../http/index.ts";
import { type DiscoveredBaseline, discoverBaseline } from "./baseline.ts";
import { writeBaselineFile } from "./baseline-file.ts";
import { loadForRun } from "./capture.ts";
import type { RunContext } from "./context.ts";
import {
  type EmbeddedReference,
  type EmbeddedThread,
  embeddedKey,
  startEmbeddedHere,
  startEmbeddedThread,
} from "./embedded.ts";
import { preloadSuites, runSuites, whenAborted } from "./engine.ts";
import type { RunOptions } from "./options.ts";
import { loadRegistry } from "./registry.ts";
import { DEFAULT_DEFINITION, REPO_ROOT, toolVersion } from "./repo.ts";
import {
  diffReports,
  exitCodeFor,
  formatDiff,
  formatSummary,
  RunProgress,
  useColor,
  validateReport,
  writeReports,
} from "./report/index.ts";
import { reportDirProblem, sha256Of, summarise } from "./run-files.ts";
import {
  type ConformanceClass,
  type Report,
  type RequirementResult,
  type RunOptionsRecord,
  SENDER_CLASSES,
} from "./types.ts";
import { aggregate, effectiveLevel } from "./verdicts.ts";

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

/** Why a finished run is incomplete: the MUST requirements it could not decide, the first one named. */
function undecidedReason(report: Report): string {
  const undecided = report.requirements.filter((r) => r.level === "MUST" && r.status === "error");
  const first = undecided[0];
  if (first === undefined) return "the run could not be completed";
  const more = undecided.length > 1 ? ` and ${undecided.length - 1} more` : "";
  return `${undecided.length} MUST requirement(s) could not be decided, ${first.id}${more}: ${first.reason ?? "no reason given"}`;
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

/**
 * `signal`, when it aborts (its reason the signal's name, SIGINT or SIGTERM), stops the run promptly: the reports of what finished are
 * written, marked interrupted, temporary files are removed, and the exit status is 130 or 143.
 */
export async function runTracecheck(
  opts: RunOptions,
  io: RunIo = defaultIo(),
  signal?: AbortSignal,
  embedded?: EmbeddedThread,
): Promise<RunOutcome> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const full = await loadRegistry();
  // A run judges a sender; the receiver class is judged by `tracecheck receiver` (src/harness/receiver).
  const registry = {
    ...full,
    requirements: full.requirements.filter((r) => SENDER_CLASSES.includes(r.class)),
  };
  const reportDir = path.resolve(opts.reportDir);
  const dirProblem = await reportDirProblem(reportDir);
  if (dirProblem !== undefined) {
    io.err(`tracecheck: ${dirProblem}`);
    return { exitCode: 2 };
  }
  // Read before anything is written: the default report directory may hold the very report named here.
  let previous: Report | undefined;
  if (opts.baseline) {
    const read = await readBaselineReport(opts.baseline);
    if (typeof read === "string") {
      io.err(`tracecheck: ${read}`);
      return { exitCode: 2 };
    }
    previous = read;
  }
  const definitionFile = path.resolve(opts.definition ?? DEFAULT_DEFINITION);
  const options = optionsRecord(opts, definitionFile, await sha256Of(definitionFile));
  let target = {
    events: opts.target ?? "(embedded reference)",
    resolver: opts.resolver ?? opts.target ?? "(embedded reference)",
  };

  /**
   * A run that cannot be completed still leaves its reports, so that a CI job always has an artefact: every
   * selected requirement not decided is an error with the reason.
   */
  const incomplete = async (reason: string): Promise<RunOutcome> => {
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
      ...(interrupted ? { interrupted: true } : {}),
      options,
      target,
      seed: opts.seed,
      runs: opts.runs,
      startedAt,
      durationMs: Date.now() - started,
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
  };

  try {
    await loadDefinition(definitionFile);
  } catch (err) {
    return await incomplete((err as Error).message);
  }
  try {
    await assertSchemaAvailable(EPCIS_SCHEMA_URL, { mirror: opts.schemaMirror, network: true });
  } catch (err) {
    if (err instanceof SchemaUnavailableError) {
      return await incomplete(`error: schema unavailable. ${err.message}`);
    }
    throw err;
  }

  // The suite files load while the reference starts and the target's events are discovered.
  preloadSuites(
    { classes: opts.suites, ...(opts.onlyRequirements ? { onlyRequirements: opts.onlyRequirements } : {}) },
    REPO_ROOT,
  );

  let reference: EmbeddedReference | undefined;
  let eventsBase = opts.target;
  let resolverBase = opts.resolver;
  let apiKey = opts.apiKey;
  if (!eventsBase) {
    // The embedded reference: a generated dataset and a key of its own, so that every class has something to check;
    // on its thread (the command's, if it started one already), else here.
    const thread = embedded ?? startEmbeddedThread(opts);
    apiKey = thread?.apiKey ?? embeddedKey(opts);
    const starting =
      thread !== undefined
        ? thread.ready.then((at) => ({ ...at, close: thread.close }))
        : startEmbeddedHere(
            opts,
            apiKey,
            opts.dataset
              ? await readDatasetFile(opts.dataset)
              : generateDataset({ seed: opts.seed, events: opts.embeddedEvents }),
          );
    try {
      reference = await starting;
    } catch (err) {
      return await incomplete((err as Error).message);
    }
    eventsBase = reference.eventsBase;
    resolverBase = reference.resolverBase;
  }
  resolverBase = resolverBase ?? eventsBase;
  target = { events: eventsBase, resolver: resolverBase };
  const tmp = await mkdtemp(path.join(os.tmpdir(), "tracecheck-"));
  const client = new HttpClient({
    timeoutMs: opts.timeoutMs,
    concurrency: opts.concurrency,
    ratePerSecond: opts.rate,
    apiKey,
    allowedOrigins: [new URL(eventsBase).origin, new URL(resolverBase).origin, ...opts.allowOrigins],
    retryDeadline: started + opts.retryBudgetMs,
  });
  try {
    let first: HttpResult | undefined;
    try {
      first = await client.get(`${eventsBase}/events`);
      // A refused key is the user's to fix, not the vendor's failure: nothing can be checked with it.
      if (first.status === 401 || first.status === 403) {
        return await incomplete(
          apiKey === undefined
            ? `the target refused GET ${eventsBase}/events without a key (status ${first.status}); pass the key it issued with --api-key or TRACECHECK_API_KEY.`
            : `the target refused the API key (GET ${eventsBase}/events answered ${first.status}); check --api-key or TRACECHECK_API_KEY.`,
        );
      }
      if (first.status === 429) {
        return await incomplete(
          `the target kept answering GET ${eventsBase}/events with 429 Too Many Requests within the retry budget of ${opts.retryBudgetMs / 1000} s; lower --rate, or raise --retry-budget.`,
        );
      }
    } catch (err) {
      if (err instanceof HttpError) {
        return await incomplete(
          `the target ${eventsBase} is unreachable (${err.message}); check --target and that it is running.`,
        );
      }
      throw err;
    }
    const stopped = () => `interrupted by ${String(signal?.reason)} before the run finished`;
    if (signal?.aborted) return await incomplete(stopped());
    // --load capture: the dataset goes in through the target's capture interface, then is what it was loaded with.
    const loaded =
      opts.load === "capture"
        ? await loadForRun(client, opts, { eventsBase, resolverBase, note: io.err, signal })
        : undefined;
    if (typeof loaded === "string") return await incomplete(loaded);
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
    if (discovered === "aborted") return await incomplete(stopped());
    const baseline = discovered;
    if (loaded !== undefined) baseline.datasetEvents = loaded;
    else if (opts.dataset) baseline.datasetEvents = (await readDatasetFile(opts.dataset)).events;
    const baselineFile = path.join(tmp, "baseline.ndjson");
    await writeBaselineFile(baselineFile, baseline);
    if (!opts.quiet) io.err(`tracecheck: baseline: ${baseline.events.length} events (${baseline.note})`);
    const empty = noEventsReason(baseline, opts);
    if (empty !== undefined) return await incomplete(empty);

    const ctx: RunContext = {
      eventsBase,
      resolverBase,
      classes: opts.suites,
      modules: opts.modules,
      seed: opts.seed,
      runs: opts.runs,
      definitionFile,
      timeoutMs: opts.timeoutMs,
      concurrency: opts.concurrency,
      ratePerSecond: opts.rate,
      allowOrigins: opts.allowOrigins,
      retryDeadline: started + opts.retryBudgetMs,
      maxPages: opts.maxPages,
      maxAnswerBytes: opts.maxAnswerBytes,
      baselineFile,
      embedded: reference !== undefined,
      definitionGiven: opts.definition !== undefined,
    };
    if (apiKey !== undefined) ctx.apiKey = apiKey;
    if (opts.party !== undefined) ctx.party = opts.party;
    if (opts.gln !== undefined) ctx.gln = opts.gln;
    if (opts.startFrom !== undefined) ctx.startFrom = opts.startFrom;
    if (opts.schemaMirror !== undefined) ctx.schemaMirror = opts.schemaMirror;
    if (opts.onlyRequirements !== undefined) ctx.onlyRequirements = opts.onlyRequirements;

    if (signal?.aborted) return await incomplete(stopped());
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
    const engine = await runSuites(ctx, REPO_ROOT, (p) => progress?.record(p), signal).finally(() =>
      progress?.stop(),
    );
    const interrupted = signal?.aborted === true;
    const known = new Set(registry.requirements.map((r) => r.id));
    const unknown = [...new Set(engine.verdicts.filter((v) => !known.has(v.id)).map((v) => v.id))];
    for (const id of unknown)
      io.err(`tracecheck: a suite checked "${id}", which is not in suites/requirements.yaml.`);
    for (const e of engine.errors) io.err(`tracecheck: suite error: ${e}`);

    const requirements: RequirementResult[] = registry.requirements.map((req) => {
      const excused = !opts.suites.includes(req.class)
        ? `class ${req.class} not selected with --suite`
        : opts.onlyRequirements !== undefined && !opts.onlyRequirements.includes(req.id)
          ? "not among the requirements this proving run checks"
          : interrupted
            ? `not checked: ${stopped()}`
            : undefined;
      return aggregate(
        req,
        engine.verdicts,
        // A selected requirement that no check judged, in a run that finished, is the harness's fault (its suite
        // file missing or recording nothing), never a pass of the run.
        excused ??
          "no check ran for this requirement: a harness fault (its suite file was not found, or recorded nothing)",
        {
          // A requirement may weigh differently against a vendor's own definition (its definitionLevel).
          definitionGiven: opts.definition !== undefined,
          noCheckStatus: excused === undefined ? "error" : "skip",
        },
      );
    });
    const summary = summarise(requirements);
    const report: Report = {
      tool: { name: "tracecheck", version: toolVersion() },
      options,
      target,
      seed: opts.seed,
      runs: opts.runs,
      startedAt,
      durationMs: Date.now() - started,
      summary,
      baseline: {
        method: baseline.method,
        events: baseline.events.length,
        complete: baseline.complete,
        note: baseline.note,
      },
      requirements,
    };
    const diff = previous === undefined ? undefined : diffReports(previous, report);
    let exitCode: RunOutcome["exitCode"] = exitCodeFor(report, diff);
    if (engine.errors.length > 0 || unknown.length > 0) exitCode = exitCode === 1 ? 1 : 2;
    const unjudged = exitCode === 0 && !interrupted ? resolverUnjudged(report, opts) : undefined;
    if (unjudged !== undefined) exitCode = 2;
    if (interrupted) exitCode = signalExit(signal);
    report.exitCode = exitCode;
    report.verdict = exitCode === 0 ? "pass" : exitCode === 1 ? "fail" : "incomplete";
    if (interrupted) {
      report.interrupted = true;
      report.incompleteReason = stopped();
    } else if (unjudged !== undefined) {
      report.incompleteReason = unjudged;
    } else if (exitCode === 2) {
      report.incompleteReason =
        engine.errors.length > 0 || unknown.length > 0
          ? `a harness error stopped part of the run: ${engine.errors[0] ?? `unknown requirement ${unknown[0]}`}`
          : undecidedReason(report);
    }
    await writeReports(report, reportDir);
    if (diff !== undefined) io.out(formatDiff(diff, { color: io.color }));
    io.out(formatSummary(report, diff ? { color: io.color, diff } : { color: io.color }));
    if (report.incompleteReason !== undefined) io.err(`tracecheck: incomplete: ${report.incompleteReason}`);
    io.out(`reports written to ${reportDir} (report.json, junit.xml, report.html)`);
    return { exitCode, report };
  } catch (err) {
    // Whatever went wrong in the harness, the run leaves its reports behind, saying so.
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    io.err(`tracecheck: harness error: ${client.redactSecret(message)}`);
    return await incomplete(
      `a harness error stopped the run: ${client.redactSecret(err instanceof Error ? err.message : String(err))}`,
    );
  } finally {
    await (signal?.aborted ? client.destroy() : client.close());
    await reference?.close();
    await rm(tmp, { recursive: true, force: true });
  }
}
