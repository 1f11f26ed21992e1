// The interface definition a run checks against (--definition), loaded once per suite file.
import { type Definition, loadDefinition } from "../../../src/definition/index.ts";
import type { RunContext } from "../../../src/harness/context.ts";
import type { PathForm } from "../../../src/harness/identifiers-from-baseline.ts";

let loaded: Promise<Definition> | undefined;

export function definitionOf(ctx: RunContext): Promise<Definition> {
  loaded ??= loadDefinition(ctx.definitionFile);
  return loaded;
}

/** The link types the definition's x-link-types lists for a path form (spec 4.2's table), or undefined. */
export function linkTypesFor(definition: Definition, form: PathForm): string[] | undefined {
  return definition.resolverPaths.find((p) => p.ais.join("/") === form)?.linkTypes;
}
