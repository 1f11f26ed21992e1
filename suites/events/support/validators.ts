// The definition's validators, compiled once per worker: compiling the published EPCIS schema is the slow part.
import { createValidators, loadDefinition, type Validators } from "../../../src/definition/index.ts";
import type { RunContext } from "../../../src/harness/context.ts";

let validators: Promise<Validators> | undefined;

export function definitionValidators(ctx: RunContext): Promise<Validators> {
  if (validators === undefined) {
    validators = loadDefinition(ctx.definitionFile).then((definition) =>
      createValidators(
        ctx.schemaMirror === undefined ? { definition } : { definition, mirror: ctx.schemaMirror },
      ),
    );
  }
  return validators;
}
