// Drives the proving runs through the pool and judges them: the kill matrix, and the runs that must be clean.
import type { Registry } from "../engine/registry.ts";
import type { Fault } from "../reference/types.ts";
import type { Effort } from "./effort.ts";
import {
  type CleanRow,
  classesOf,
  cleanRun,
  configurationFor,
  faultRun,
  judgeClean,
  judgeFault,
  type KillMatrix,
  needsDefinition,
} from "./kill-matrix.ts";
import { configurationRuns, shapeRuns } from "./no-false-verdicts.ts";
import type { TracecheckOutcome, TracecheckRun } from "./outcome.ts";
import { type DocumentRow, judgeDocument, realDocumentRuns, realDocumentsFor } from "./real-documents.ts";
import { RunPool } from "./run-pool.ts";

export interface ProveOptions {
  effort: Effort;
  concurrency: number;
  /** Report directories and datasets go here, one folder per run. */
  workDir: string;
  /** Bound on one run; a run still going then is stopped and counted as broken. */
  runTimeoutMs: number;
  onRun?: (outcome: TracecheckOutcome) => void;
  /**
   * Runs go through this pool, which stays open for the caller's further runs, instead of a pool of their own:
   * its workers have paid their start-up already. Its size, bound and folder then stand for the options above.
   */
  pool?: RunPool;
}

export interface CleanRunRow extends CleanRow {
  label: string;
  args: string[];
}

export interface NoFalseVerdicts {
  generatedAt: string;
  effort: Effort["name"];
  wallMs: number;
  rows: CleanRunRow[];
  clean: number;
  total: number;
}

async function runAll(runs: TracecheckRun[], opts: ProveOptions): Promise<TracecheckOutcome[]> {
  if (opts.pool !== undefined) return opts.pool.runAll(runs, opts.onRun);
  const pool = new RunPool({
    size: opts.concurrency,
    workDir: opts.workDir,
    runTimeoutMs: opts.runTimeoutMs,
  });
  try {
    return await pool.runAll(runs, opts.onRun);
  } finally {
    pool.close();
  }
}

/**
 * What sets a fault's run apart from another's: each conformance class it is checked in, the named configuration
 * it runs under, whether it is judged with --definition, whether it fails the run (exit 1) or is caught by a
 * warning (exit 0), and whether it spans several classes.
 */
export function faultTraits(fault: Fault, registry: Registry): string[] {
  const classes = classesOf(fault, registry);
  const failsRun = fault.violates.some((id) => {
    const req = registry.byId.get(id);
    return req?.level === "MUST" || req?.definitionLevel === "MUST";
  });
  const config = configurationFor(fault);
  return [
    ...classes.map((c) => `class ${c}`),
    ...(config === undefined ? [] : [`configuration ${config}`]),
    ...(needsDefinition(fault, registry) ? ["judged with --definition"] : []),
    failsRun ? "exit 1" : "exit 0, caught by a warning",
    ...(classes.length > 1 ? ["several classes"] : []),
  ];
}

/**
 * The kill matrix of `npm test`: in catalogue order, each fault that brings a trait (faultTraits) no fault before
 * it in the sample has, so that the sample reaches every class and every way of running and judging a fault that
 * the catalogue holds. `npm run prove` runs every fault.
 */
export function faultSample(faults: readonly Fault[], registry: Registry): Fault[] {
  const covered = new Set<string>();
  const sample: Fault[] = [];
  for (const fault of faults) {
    const traits = faultTraits(fault, registry);
    if (traits.every((t) => covered.has(t))) continue;
    for (const t of traits) covered.add(t);
    sample.push(fault);
  }
  return sample;
}

export async function runKillMatrix(
  faults: readonly Fault[],
  registry: Registry,
  opts: ProveOptions,
): Promise<KillMatrix> {
  const started = Date.now();
  const runs = [cleanRun(opts.effort), ...faults.map((f) => faultRun(f, registry, opts.effort))];
  const [clean, ...outcomes] = await runAll(runs, opts);
  const rows = faults.map((f, n) => judgeFault(f, classesOf(f, registry), outcomes[n]!));
  return {
    generatedAt: new Date(started).toISOString(),
    effort: opts.effort.name,
    seed: opts.effort.seed,
    concurrency: opts.concurrency,
    wallMs: Date.now() - started,
    clean: judgeClean(clean!),
    rows,
    caught: rows.filter((r) => r.verdict === "caught").length,
    alsoFailed: rows.filter((r) => r.alsoFailed.length > 0).length,
    total: rows.length,
  };
}

export async function runNoFalseVerdicts(opts: ProveOptions): Promise<NoFalseVerdicts> {
  const started = Date.now();
  const runs = [
    ...(await shapeRuns(opts.effort, opts.workDir)),
    ...(await configurationRuns(opts.effort, opts.workDir)),
  ];
  const outcomes = await runAll(runs, opts);
  const expected = new Map(runs.map((r) => [r.label, r.expectedWarnings ?? []]));
  const rows = outcomes.map((o) => ({
    label: o.label,
    args: o.args,
    ...judgeClean(o, expected.get(o.label)),
  }));
  return {
    generatedAt: new Date(started).toISOString(),
    effort: opts.effort.name,
    wallMs: Date.now() - started,
    rows,
    clean: rows.filter((r) => r.ok).length,
    total: rows.length,
  };
}

export interface RealDocuments {
  generatedAt: string;
  effort: Effort["name"];
  wallMs: number;
  rows: DocumentRow[];
  /** Documents whose verdicts are exactly the table's. */
  ok: number;
  total: number;
}

/** The reference loaded with each real document in turn (all of them at full effort, a sample at quick). */
export async function runRealDocuments(opts: ProveOptions): Promise<RealDocuments> {
  const started = Date.now();
  const documents = realDocumentsFor(opts.effort);
  const outcomes = await runAll(realDocumentRuns(documents), opts);
  const rows = documents.map((doc, n) => judgeDocument(doc, outcomes[n]!));
  return {
    generatedAt: new Date(started).toISOString(),
    effort: opts.effort.name,
    wallMs: Date.now() - started,
    rows,
    ok: rows.filter((r) => r.ok).length,
    total: rows.length,
  };
}
