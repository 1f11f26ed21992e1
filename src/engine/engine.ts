// Runs the suites: loads the suite files of the run's classes in this process, runs the checks they declare a few
// files at a time, each file's in order, and collects the verdicts each records. Each run has a scope of its own
// (run-scope.ts) for its client and memos, so that runs in one process, one after another or at once, never see
// each other's.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CODE_FORM, pathInForm } from "../definition/locations.ts";
import type { RunContext } from "./context.ts";
import { scopeOf } from "./run-scope.ts";
import { type DeclaredCheck, declaredBy } from "./suite.ts";
import type { ConformanceClass, Status } from "./types.ts";
import type { CheckVerdict } from "./verdicts.ts";

export interface EngineProgress {
  class: string;
  done: number;
  id?: string;
  status?: Status;
}

export interface EngineResult {
  verdicts: CheckVerdict[];
  /** Errors outside any check (a suite file that failed to load, an unhandled rejection). */
  errors: string[];
}

export const CLASS_FOLDERS: Record<ConformanceClass, string> = {
  events: "events",
  resolver: "resolver",
  masterdata: "masterdata",
  auth: "auth",
  "core-events": "core-events",
  workflow: "workflow",
  definition: "definition",
  // Run over a receiver's recorded session by `tracecheck receiver` (src/harness/receiver/session.ts), never by
  // `tracecheck run`, which judges a sender.
  receiver: "receiver",
};

/**
 * Suite files run at once, each its checks one after another: a check mostly waits on the target, so while one
 * waits another computes, and the latency of a distant target overlaps. The run's one client holds the requests in
 * flight to --concurrency, so each lane is given two of them; a run held to --rate gains nothing from lanes, and
 * runs its files one after another, so that no check waits on another's share of the rate past its time limit.
 */
const MOST_LANES = 4;

export function lanesFor(ctx: Pick<RunContext, "concurrency" | "ratePerSecond">): number {
  if (ctx.ratePerSecond > 0) return 1;
  return Math.max(1, Math.min(MOST_LANES, Math.floor(ctx.concurrency / 2)));
}

/** How long a check may take unless it says otherwise: only a hang comes near it. */
export function checkTimeoutMs(ctx: RunContext): number {
  return Math.max(120_000, ctx.timeoutMs * 20);
}

/** The suite files of one class folder, in a stable order. */
function suiteFilesOf(repoRoot: string, folder: string): string[] {
  const dir = pathInForm(repoRoot, CODE_FORM, path.join("suites", folder));
  // Run from the bundle, this process loads the suites' files in it; else the sources, through the loader that runs
  // the rest of it.
  const ending = CODE_FORM === "bundle" ? ".suite.js" : ".suite.ts";
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: "utf8" });
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(ending))
    .sort()
    .map((n) => path.join(dir, n));
}

/** What each suite file declares, loaded once per process: its checks are handed their run's context. */
const declarations = new Map<string, Promise<DeclaredCheck[]>>();
let loads: Promise<unknown> = Promise.resolve();

function declarationsOf(file: string): Promise<DeclaredCheck[]> {
  let declared = declarations.get(file);
  if (declared === undefined) {
    // One file at a time: a file declares its checks while it is evaluated.
    declared = loads.then(() => declaredBy(() => import(pathToFileURL(file).href)));
    loads = declared.catch(() => undefined);
    declarations.set(file, declared);
  }
  return declared;
}

/** Whether a suite file names one of the requirements: every requirementTest and checks.for spells its id out. */
const texts = new Map<string, string>();
export function recordsRequirement(file: string, ids: readonly string[]): boolean {
  let text = texts.get(file);
  if (text === undefined) {
    text = readFileSync(file, "utf8");
    texts.set(file, text);
  }
  return ids.some((id) => text.includes(`"${id}"`));
}

/** The error lists of the runs under way in this process: a fault no run can be told from another goes to each. */
const watching = new Set<string[]>();

function reportFault(fault: unknown): void {
  const message = fault instanceof Error ? fault.message : String(fault);
  for (const errors of watching) errors.push(message);
}

/**
 * While a run is under way, a promise a check lets go of rejected, or an exception thrown where no check catches
 * it (a timer's callback), is a harness fault reported as an error of the run, and the run goes on; it cannot be
 * traced to one of several runs at once, so each is told. Once no run is under way, a rejection that comes late
 * (a check abandoned at its limit) is written to stderr rather than end the process before its reports are written.
 */
function watchFaults(errors: string[]): { end(): void } {
  if (watching.size === 0) {
    process.on("unhandledRejection", reportFault);
    process.on("uncaughtException", reportFault);
  }
  watching.add(errors);
  return {
    end: () => {
      watching.delete(errors);
      if (watching.size > 0) return;
      process.off("uncaughtException", reportFault);
      process.off("unhandledRejection", reportFault);
      if (!lateRejections) {
        lateRejections = true;
        process.on("unhandledRejection", (late: unknown) => {
          if (watching.size > 0) return;
          const message = late instanceof Error ? late.message : String(late);
          process.stderr.write(`tracecheck: a promise was left rejected after the suites ran: ${message}\n`);
        });
      }
    },
  };
}
let lateRejections = false;

/** Resolves when the signal aborts, never otherwise; for racing a long step against an interruption. */
export function whenAborted(signal: AbortSignal | undefined): Promise<"aborted"> {
  return new Promise((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) resolve("aborted");
    else signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
}

/**
 * Runs one check to its end, its time limit or the run's stop. Past its limit it is an `error` beside whatever it
 * recorded; a check stopped with the run returns undefined, since what it did not finish decides nothing.
 */
async function runChecked(
  check: DeclaredCheck,
  ctx: RunContext,
  limitMs: number,
  aborted: Promise<"aborted">,
): Promise<CheckVerdict[] | undefined> {
  const sink: CheckVerdict[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), limitMs);
  });
  try {
    const ended = await Promise.race([check.run(sink, ctx), timedOut, aborted]);
    if (ended === "aborted") return undefined;
    if (ended === "timeout") {
      // Copies: the check may still finish, and record into its own, after the run has moved on.
      return [
        ...sink.map((v) => ({ ...v })),
        {
          id: check.id,
          status: "error",
          reason: `check could not finish: it ran past its ${limitMs} ms limit`,
        },
      ];
    }
    return sink;
  } finally {
    clearTimeout(timer);
  }
}

/** The suite files a run of these classes (and, with --only, requirements) runs, with their class folders. */
function selectedFiles(
  ctx: Pick<RunContext, "classes" | "onlyRequirements">,
  repoRoot: string,
): { file: string; folder: string }[] {
  const only = ctx.onlyRequirements;
  const files: { file: string; folder: string }[] = [];
  for (const cls of ctx.classes) {
    const folder = CLASS_FOLDERS[cls];
    for (const file of suiteFilesOf(repoRoot, folder))
      if (only === undefined || recordsRequirement(file, only)) files.push({ file, folder });
  }
  return files;
}

/**
 * Starts loading the suite files a run will run, so that they load while the run waits on other things (the
 * reference starting, the target's first answers); runSuites waits for them as it would have loaded them. A file
 * that fails to load is reported by runSuites, as an error of the run.
 */
export function preloadSuites(ctx: Pick<RunContext, "classes" | "onlyRequirements">, repoRoot: string): void {
  try {
    for (const { file } of selectedFiles(ctx, repoRoot)) declarationsOf(file).catch(() => undefined);
  } catch {
    // A suite file that cannot be read is runSuites' to report, when the run reaches its suites.
  }
}

export async function runSuites(
  ctx: RunContext,
  repoRoot: string,
  onProgress?: (p: EngineProgress) => void,
  signal?: AbortSignal,
): Promise<EngineResult> {
  const result: EngineResult = { verdicts: [], errors: [] };
  const files = selectedFiles(ctx, repoRoot);
  // Selected classes without suite files have nothing to check: their requirements are skipped, not an error.
  if (files.length === 0) return result;

  // A context object of this run's own: its scope (run-scope.ts) is this run's even when a caller runs the same
  // context twice at once.
  const runCtx: RunContext = { ...ctx };
  const faults = watchFaults(result.errors);
  const aborted = whenAborted(signal);
  const limit = checkTimeoutMs(ctx);
  const stopped = () => signal?.aborted === true;
  // Each suite file's verdicts apart, so that the report lists them in the files' order however the lanes ran.
  const byFile: CheckVerdict[][] = files.map(() => []);
  let nextFile = 0;
  let halted = false;
  let done = 0;
  /** Takes the next file not yet taken and runs its checks in order, until no file is left or the run stops. */
  const lane = async (): Promise<void> => {
    for (let at = nextFile++; at < files.length; at = nextFile++) {
      if (halted || stopped()) return;
      const { file, folder } = files[at] as { file: string; folder: string };
      let checks: DeclaredCheck[];
      try {
        checks = await declarationsOf(file);
      } catch (error) {
        result.errors.push(`${file}: ${(error as Error).message ?? String(error)}`);
        continue;
      }
      for (const check of checks) {
        if (halted || stopped()) return;
        const recorded = await runChecked(check, runCtx, check.timeoutMs ?? limit, aborted);
        if (recorded === undefined) {
          halted = true;
          return;
        }
        byFile[at]?.push(...recorded);
        done += 1;
        const last = recorded.at(-1);
        onProgress?.({ class: folder, done, id: last?.id, status: last?.status });
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(lanesFor(ctx), files.length) }, lane));
    for (const verdicts of byFile) result.verdicts.push(...verdicts);
  } finally {
    // A check past its limit or stopped with the run may still be waiting on the target: its requests end here,
    // and what they leave rejected is still this run's to report.
    await scopeOf(runCtx).client?.destroy();
    // Node reports a promise left rejected once the microtasks that followed it have run: wait for that.
    await new Promise((resolve) => setImmediate(resolve));
    faults.end();
  }
  return result;
}
