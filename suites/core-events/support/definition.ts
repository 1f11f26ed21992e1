// The definition the core-events class reads its rows and module schemas from: the one of the run
// (--definition), with tracecheck's own standing in for an extension or a module it does not declare.

import { type CoreRow, coreRowsOf } from "../../../src/assertions/core-events.ts";
import {
  type CoreEventSignature,
  createValidators,
  DEFAULT_DEFINITION_FILE,
  loadDefinition,
  type Validators,
} from "../../../src/definition/index.ts";
import type { RunContext } from "../../../src/engine/context.ts";
import { runDefinition, runValidators } from "../../../src/engine/run-definition.ts";
import { perRun } from "../../../src/engine/run-scope.ts";

/** The modules whose schemas apply: core always (spec 1), then those chosen with --modules. */
export function selectedModules(ctx: RunContext): string[] {
  return [...new Set(["core", ...ctx.modules])];
}

/**
 * The core event rows of the run's definition; when it declares none that fixes a bizStep, tracecheck's own, since
 * spec 6 makes the signatures immutable (DEF-CORE-EVENTS reports what the definition lacks).
 */
async function coreRows(ctx: RunContext): Promise<{ rows: CoreEventSignature[]; borrowed: boolean }> {
  const own = await runDefinition(ctx);
  if (own.coreEvents.length > 0 || own.file === DEFAULT_DEFINITION_FILE) {
    return { rows: own.coreEvents, borrowed: false };
  }
  return { rows: (await loadDefinition(DEFAULT_DEFINITION_FILE)).coreEvents, borrowed: true };
}

export interface CoreEventRows {
  rows: CoreRow[];
  /** The run's definition fixes no row, so tracecheck's own stand in: what they find is a warning only. */
  borrowed: boolean;
  /** Whose rows they are, appended to every verdict's reason. */
  source: string;
}

/** The rows that say which events are core events in this run, and whose they are. */
export const coreEventRows = perRun(async (ctx: RunContext): Promise<CoreEventRows> => {
  const { rows, borrowed } = await coreRows(ctx);
  const source = borrowed
    ? `; ${ctx.definitionFile} declares no x-std-core-events row that fixes a bizStep, so tracecheck's own rows were used`
    : ctx.definitionGiven === true
      ? `; the rows of x-std-core-events in ${ctx.definitionFile}`
      : "; the rows are those of tracecheck's own x-std-core-events, whose further columns the spec does not show (pass --definition to judge against yours)";
  return { rows: coreRowsOf(rows), borrowed, source };
});

async function build(ctx: RunContext): Promise<{ validators: Validators; borrowed: string[] }> {
  const own = await runDefinition(ctx);
  const declared = new Set(own.modules.map((m) => m.name));
  const missing = selectedModules(ctx).filter((m) => !declared.has(m));
  if (missing.length === 0 || own.file === DEFAULT_DEFINITION_FILE) {
    return { validators: await runValidators(ctx), borrowed: [] };
  }
  // The run's definition lacks some selected modules: compile its schemas with ours for those added.
  const ours = await loadDefinition(DEFAULT_DEFINITION_FILE);
  const modules = [...own.modules, ...ours.modules.filter((m) => missing.includes(m.name))];
  const opts: Parameters<typeof createValidators>[0] = { definition: { ...own, modules } };
  if (ctx.schemaMirror !== undefined) opts.mirror = ctx.schemaMirror;
  const borrowed = modules.filter((m) => !declared.has(m.name)).map((m) => m.name);
  return { validators: await createValidators(opts), borrowed };
}

/**
 * Validators for the run's modules, and the modules whose schema was taken from tracecheck's own definition
 * because the run's definition declares none for them.
 */
export const moduleValidators = perRun(build);
