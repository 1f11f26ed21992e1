// What a run and a receiver session share before and after their work: a report directory found writable
// before anything is sent, the hash of the definition that shaped the verdicts, and the end itself: the verdicts
// their checks recorded aggregated per requirement, the exit status, and the reports written.
import { createHash } from "node:crypto";
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { EngineResult } from "../engine/engine.ts";
import { toolVersion } from "../engine/repo.ts";
import type { Report, Requirement, RequirementResult, Summary } from "../engine/types.ts";
import { aggregate, effectiveLevel } from "../engine/verdicts.ts";
import { diffReports, exitCodeFor, type ReportDiff, writeReports } from "../report/index.ts";

/**
 * Creates the directory and the missing ones above it, one level at a time: node's recursive mkdir never returns
 * for a path under /proc, where every level reports ENOENT.
 */
async function makeDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir);
    return;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    const parent = path.dirname(dir);
    if (code !== "ENOENT" || parent === dir) throw err;
    await makeDirectory(parent);
  }
  try {
    await mkdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
}

/** Why the report directory cannot take the reports, in one sentence, or undefined when it can. */
export async function reportDirProblem(dir: string): Promise<string | undefined> {
  const probe = path.join(dir, `.tracecheck-write-check-${process.pid}`);
  try {
    await makeDirectory(dir);
    await writeFile(probe, "");
    await unlink(probe);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return `the report directory ${dir} cannot be written (${code}); pass --report-dir with a directory you can write to.`;
  }
}

/** The sha-256 of the file's bytes, hex; of no bytes when it cannot be read. */
export async function sha256Of(file: string): Promise<string> {
  try {
    return createHash("sha256")
      .update(await readFile(file))
      .digest("hex");
  } catch {
    return createHash("sha256").update("").digest("hex");
  }
}

/** Counts of each status over the requirements. */
export function summarise(requirements: readonly RequirementResult[]): Summary {
  const summary: Summary = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
  for (const r of requirements) summary[r.status] += 1;
  return summary;
}

/** What a run's report says besides its verdicts. */
export type ReportHeader = Pick<Report, "options" | "target" | "seed" | "runs" | "baseline">;

/** An end the verdicts alone do not decide: a run stopped by a signal, or one that judged nothing it should. */
export interface RunEnding {
  exitCode: NonNullable<Report["exitCode"]>;
  reason: string;
  interrupted?: boolean;
}

/** A run whose checks have run (engine.ts), to be judged and reported. */
export interface FinishingRun {
  /** The requirements the report lists, in the registry's order; a verdict for any other is a harness fault. */
  requirements: readonly Requirement[];
  engine: EngineResult;
  /** Why a requirement was not to be judged in this run (its class not selected, the run stopped), if it was not. */
  excused?: (req: Requirement) => string | undefined;
  /** The user passed --definition: requirements with a definitionLevel weigh at it (aggregate). */
  definitionGiven: boolean;
  /** Exchanges a pass carries at most (aggregate). */
  proofs?: number;
  /** Epoch milliseconds the run started at. */
  started: number;
  header: ReportHeader;
  /** An earlier report (--baseline) and its file: a requirement that now fails fails the run. */
  previous?: { report: Report; file: string };
  /** Decides the end where the verdicts alone do not, given the report as they leave it. */
  ending?: (report: Report) => RunEnding | undefined;
  reportDir: string;
  /** Where the harness's own faults are told, one line each. */
  note: (line: string) => void;
}

export interface FinishedRun {
  exitCode: NonNullable<Report["exitCode"]>;
  report: Report;
  diff?: ReportDiff;
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
 * The one end of `tracecheck run` and `tracecheck receiver`: each requirement's verdict aggregated from what its
 * checks recorded, the exit status of CONTRACT.md (a MUST failed, or a requirement worse than in `previous`: 1; a
 * MUST undecided or a harness fault: 2; else 0, unless `ending` decides otherwise), and the reports written.
 */
export async function finishRun(run: FinishingRun): Promise<FinishedRun> {
  const { engine } = run;
  const known = new Set(run.requirements.map((r) => r.id));
  const unknown = [...new Set(engine.verdicts.filter((v) => !known.has(v.id)).map((v) => v.id))];
  for (const id of unknown)
    run.note(`tracecheck: a suite checked "${id}", which is not in suites/requirements.yaml.`);
  for (const e of engine.errors) run.note(`tracecheck: suite error: ${e}`);
  const levels = new Map(run.requirements.map((r) => [r.id, effectiveLevel(r, run.definitionGiven)]));
  const requirements = run.requirements.map((req) => {
    const excused = run.excused?.(req);
    return aggregate(
      req,
      engine.verdicts,
      // A requirement that no check judged, in a run that was to judge it, is the harness's fault (its suite file
      // missing or recording nothing), never a pass of the run.
      excused ??
        "no check ran for this requirement: a harness fault (its suite file was not found, or recorded nothing)",
      {
        definitionGiven: run.definitionGiven,
        levelOf: (id) => levels.get(id),
        noCheckStatus: excused === undefined ? "error" : "skip",
        ...(run.proofs === undefined ? {} : { proofs: run.proofs }),
      },
    );
  });
  // The diff the run prints is recorded too, so that a report read later says what it was compared with.
  const changes =
    run.previous === undefined
      ? undefined
      : { baseline: path.resolve(run.previous.file), ...diffReports(run.previous.report, { requirements }) };
  const report: Report = {
    tool: { name: "tracecheck", version: toolVersion() },
    ...(run.header.options === undefined ? {} : { options: run.header.options }),
    target: run.header.target,
    seed: run.header.seed,
    runs: run.header.runs,
    startedAt: new Date(run.started).toISOString(),
    durationMs: Date.now() - run.started,
    summary: summarise(requirements),
    ...(run.header.baseline === undefined ? {} : { baseline: run.header.baseline }),
    ...(changes === undefined ? {} : { changes }),
    requirements,
  };
  const harnessFault = engine.errors.length > 0 || unknown.length > 0;
  const judged = exitCodeFor(report, changes);
  // A harness fault leaves the run incomplete, unless a MUST failed all the same.
  report.exitCode = harnessFault && judged !== 1 ? 2 : judged;
  const ending = run.ending?.(report);
  if (ending !== undefined) report.exitCode = ending.exitCode;
  const exitCode = report.exitCode;
  report.verdict = exitCode === 0 ? "pass" : exitCode === 1 ? "fail" : "incomplete";
  if (ending?.interrupted === true) report.interrupted = true;
  if (ending !== undefined) report.incompleteReason = ending.reason;
  else if (exitCode === 2) {
    report.incompleteReason = harnessFault
      ? `a harness error stopped part of the run: ${engine.errors[0] ?? `unknown requirement ${unknown[0]}`}`
      : undecidedReason(report);
  }
  await writeReports(report, run.reportDir);
  return { exitCode, report, ...(changes === undefined ? {} : { diff: changes }) };
}
