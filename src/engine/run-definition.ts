// The run's interface definition (--definition) and the validators compiled from it, once per run: every class
// reads the same definition, so one load and one compile serve every suite file.
import { createValidators, type Definition, loadDefinition, type Validators } from "../definition/index.ts";
import type { RunContext } from "./context.ts";
import { perRun } from "./run-scope.ts";

/**
 * The run's definition. run.ts refused the run before any suite started unless the file passed the OpenAPI 3.1
 * check, so the suites do not compile the OpenAPI schema to check it again; loadDefinition keeps what it read.
 */
export function runDefinition(ctx: RunContext): Promise<Definition> {
  return loadDefinition(ctx.definitionFile, { alreadyValidated: true });
}

/** The run's validators: the EPCIS schema (from --schema-mirror when given) and the definition's own schemas. */
export const runValidators = perRun(
  (ctx: RunContext): Promise<Validators> =>
    runDefinition(ctx).then((definition) =>
      createValidators(
        ctx.schemaMirror === undefined ? { definition } : { definition, mirror: ctx.schemaMirror },
      ),
    ),
);
