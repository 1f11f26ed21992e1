// The kill matrix: the reference sender once per named fault and once without, each judged against the
// requirements the fault says it violates. A fault counts as caught only when the run exits 1 and one of those
// requirements failed; a failure elsewhere alone is a miss, since it would not tell a vendor what is wrong. A fault
// is one defect, and one defect fails once: a requirement it does not name that fails beside it (alsoFailed) is a
// check that should have been blocked by the one that failed first (checks.blocked), and the matrix does not hold.
import type { Registry } from "../engine/registry.ts";
import { DEFAULT_DEFINITION } from "../engine/repo.ts";
import type { ConformanceClass, Report } from "../engine/types.ts";
import type { Fault } from "../reference/types.ts";
import { type Effort, effortArgs } from "./effort.ts";
import type { TracecheckOutcome, TracecheckRun } from "./outcome.ts";

/** caught: exit 1 and a named requirement failed, or a named SHOULD or MAY requirement warned; unrelated: exit 1 on other requirements only; missed: exit 0; broken: no verdict (exit 2, stopped, no report). */
export type KillVerdict = "caught" | "unrelated" | "missed" | "broken";

export interface KillRow {
  fault: string;
  description: string;
  violates: string[];
  classes: ConformanceClass[];
  exitCode: number | null;
  /** Requirements that failed, in registry order. */
  failed: string[];
  /** The failed requirements that the fault names. */
  caughtBy: string[];
  /**
   * The failed requirements that the fault does not name: the same defect reported again. A fault that truly
   * breaks two rules names both in its violates.
   */
  alsoFailed: string[];
  verdict: KillVerdict;
  /** Why the row is not caught, in one sentence; empty when it is. */
  note: string;
  durationMs: number;
}

export interface CleanRow {
  exitCode: number | null;
  failed: string[];
  warned: string[];
  errored: string[];
  /** Exit 0 with no fail, no warn and no error. */
  ok: boolean;
  note: string;
  durationMs: number;
}

export interface KillMatrix {
  generatedAt: string;
  effort: Effort["name"];
  seed: number;
  concurrency: number;
  wallMs: number;
  clean: CleanRow;
  rows: KillRow[];
  caught: number;
  /** Rows whose fault failed a requirement it does not name. */
  alsoFailed: number;
  total: number;
}

/**
 * The matrix holds: every fault caught by a requirement it names and failing none it does not, and the reference
 * without faults clean.
 */
export function killMatrixHolds(m: KillMatrix): boolean {
  return m.caught === m.total && m.alsoFailed === 0 && m.clean.ok;
}

export const CLEAN_LABEL = "no-fault";

/** The classes whose suites check the requirements a fault names. */
export function classesOf(fault: Fault, registry: Registry): ConformanceClass[] {
  const classes = new Set<ConformanceClass>();
  for (const id of fault.violates) {
    const req = registry.byId.get(id);
    if (!req) {
      throw new Error(
        `Fault ${fault.id} names ${id}, which is not in suites/requirements.yaml; fix the fault's violates list.`,
      );
    }
    classes.add(req.class);
  }
  return [...classes];
}

/**
 * Requirements whose faults only show on a sender configured a certain way: a paging defect needs a sender that
 * pages, which the reference by default does not for datasets of a few hundred events.
 */
const CONFIGURATION_FOR: Readonly<Record<string, string>> = { "EVT-PAGING": "paged" };

/** The named configuration a fault is run under, if it needs one. */
export function configurationFor(fault: Fault): string | undefined {
  return fault.violates.map((id) => CONFIGURATION_FOR[id]).find((c) => c !== undefined);
}

/**
 * Whether a fault is judged with the bundled definition named by --definition: a requirement that only the
 * definition fixes (its definitionLevel) is a warning without it and a failure with it, and a defect of the
 * reference is to be caught where it fails.
 */
export function needsDefinition(fault: Fault, registry: Registry): boolean {
  return fault.violates.some((id) => {
    const req = registry.byId.get(id);
    return req !== undefined && req.level !== "MUST" && req.definitionLevel === "MUST";
  });
}

export function faultRun(fault: Fault, registry: Registry, effort: Effort): TracecheckRun {
  const classes = effort.namedClassesOnly ? classesOf(fault, registry) : undefined;
  const args = [...effortArgs(effort, classes), "--faults", fault.id];
  const config = configurationFor(fault);
  if (config !== undefined) args.push("--reference-config", config);
  if (needsDefinition(fault, registry)) args.push("--definition", DEFAULT_DEFINITION);
  const run: TracecheckRun = { label: `fault-${fault.id}`, args };
  if (effort.namedClassesOnly) run.onlyRequirements = [...fault.violates];
  return run;
}

export function cleanRun(effort: Effort): TracecheckRun {
  return { label: CLEAN_LABEL, args: effortArgs(effort) };
}

function idsWith(report: Report | undefined, status: string): string[] {
  return (report?.requirements ?? []).filter((r) => r.status === status).map((r) => r.id);
}

function brokenNote(outcome: TracecheckOutcome): string {
  if (outcome.timedOut) return `the run was stopped after ${outcome.durationMs} ms without finishing.`;
  const last = outcome.stderr.trim().split("\n").filter(Boolean).pop() ?? "no message";
  return `the run gave no verdict (exit ${outcome.exitCode}): ${last}`;
}

/** Named requirements below MUST that warned: a defect the spec does not make a failure is caught as a warning. */
function warnedBelowMust(fault: Fault, outcome: TracecheckOutcome): string[] {
  return (outcome.report?.requirements ?? [])
    .filter((r) => r.status === "warn" && r.level !== "MUST" && fault.violates.includes(r.id))
    .map((r) => r.id);
}

export function judgeFault(fault: Fault, classes: ConformanceClass[], outcome: TracecheckOutcome): KillRow {
  const failed = idsWith(outcome.report, "fail");
  const failedNamed = failed.filter((id) => fault.violates.includes(id));
  const alsoFailed = failed.filter((id) => !fault.violates.includes(id));
  const warnedNamed = outcome.exitCode === 0 || outcome.exitCode === 1 ? warnedBelowMust(fault, outcome) : [];
  const caughtBy = [...failedNamed, ...warnedNamed];
  let verdict: KillVerdict;
  let note = "";
  if (outcome.exitCode === 1 && outcome.report && failedNamed.length > 0) {
    verdict = "caught";
  } else if (outcome.report && warnedNamed.length > 0) {
    verdict = "caught";
  } else if (outcome.exitCode === 1 && outcome.report) {
    verdict = "unrelated";
    note = `only requirements the fault does not name failed; none of ${fault.violates.join(", ")} did.`;
  } else if (outcome.exitCode === 0) {
    verdict = "missed";
    const named = (outcome.report?.requirements ?? []).filter((r) => fault.violates.includes(r.id));
    note = `the run passed; ${named.map((r) => `${r.id} ${r.status}${r.reason ? ` (${r.reason})` : ""}`).join("; ")}.`;
  } else {
    verdict = "broken";
    note = brokenNote(outcome);
  }
  return {
    fault: fault.id,
    description: fault.description,
    violates: [...fault.violates],
    classes,
    exitCode: outcome.exitCode,
    failed,
    caughtBy,
    alsoFailed,
    verdict,
    note,
    durationMs: outcome.durationMs,
  };
}

/**
 * A run of a correct sender: exit 0, no fail, no error, and exactly the warnings it is expected to get (a named
 * configuration warns on the requirements that name its freedom, and on nothing else).
 */
export function judgeClean(outcome: TracecheckOutcome, expectedWarnings: readonly string[] = []): CleanRow {
  const failed = idsWith(outcome.report, "fail");
  const warned = idsWith(outcome.report, "warn");
  const errored = idsWith(outcome.report, "error");
  const unexpectedWarnings = warned.filter((id) => !expectedWarnings.includes(id));
  const missingWarnings = expectedWarnings.filter((id) => !warned.includes(id));
  const ok =
    outcome.exitCode === 0 &&
    outcome.report !== undefined &&
    failed.length + errored.length + unexpectedWarnings.length + missingWarnings.length === 0;
  const note = ok
    ? ""
    : outcome.report === undefined
      ? brokenNote(outcome)
      : `the reference without faults is not clean: ${[
          ...failed.map((id) => `${id} fail`),
          ...unexpectedWarnings.map((id) => `${id} warn`),
          ...missingWarnings.map((id) => `${id} expected to warn but did not`),
          ...errored.map((id) => `${id} error`),
        ].join(", ")}.`;
  return { exitCode: outcome.exitCode, failed, warned, errored, ok, note, durationMs: outcome.durationMs };
}
