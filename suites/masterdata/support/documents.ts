// The master data documents under check: those the resolver's masterData links lead to (spec 4.2: a client
// uses the href the link set returns), with the definition's validators compiled once per suite file.
import { createValidators, type Validators } from "../../../src/definition/index.ts";
import type { RunContext } from "../../../src/harness/context.ts";
import { definitionOf } from "../../resolver/support/definition.ts";
import { type ReachedDocument, reachedDocuments } from "../../resolver/support/documents.ts";

export type ReadDocument = ReachedDocument & { doc: unknown };

/** Documents that were read; a link that answered none is RES-MASTERDATA-LINK's failure, not theirs. */
export async function readDocuments(ctx: RunContext): Promise<ReadDocument[]> {
  return (await reachedDocuments(ctx)).filter((d): d is ReadDocument => d.problem === undefined);
}

export const NO_DOCUMENT =
  "no master data document was reached: no /01, /414 or /417 link set answered a masterData link that answered JSON";

let validators: Promise<Validators> | undefined;

export function validatorsOf(ctx: RunContext): Promise<Validators> {
  validators ??= (async () => {
    const definition = await definitionOf(ctx);
    return createValidators(
      ctx.schemaMirror === undefined ? { definition } : { definition, mirror: ctx.schemaMirror },
    );
  })();
  return validators;
}
