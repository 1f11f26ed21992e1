// The run's interface definition (--definition) and the validators compiled from it, once per suite worker:
// every class reads the same definition, and the workers of a run share their module instances (engine.ts
// runs the suites with isolate off), so one load and one compile serve every suite file.
import { createValidators, type Definition, loadDefinition, type Validators } from "../definition/index.ts";
import type { RunContext } from "./context.ts";

let validators: Promise<Validators> | undefined;

/**
 * The run's definition. run.ts refused the run before any suite started unless the file passed the OpenAPI 3.1
 * check, so the workers do not compile the OpenAPI schema to check it again; loadDefinition keeps what it read.
 */
export function runDefinition(ctx: RunContext): Promise<Definition> {
  return loadDefinition(ctx.definitionFile, { alreadyValidated: true });
}

/**
 * The run's validators: the EPCIS schema (from --schema-mirror when given) and the definition's own schemas. A
 * suite worker serves one run (vitest replaces its workers after each), so one compile per worker is right.
 */
export function runValidators(ctx: RunContext): Promise<Validators> {
  validators ??= runDefinition(ctx).then((definition) =>
    createValidators(
      ctx.schemaMirror === undefined ? { definition } : { definition, mirror: ctx.schemaMirror },
    ),
  );
  return validators;
}
