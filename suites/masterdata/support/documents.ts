// The master data documents under check: those the resolver's masterData links lead to (spec 4.2: a client
// uses the href the link set returns).
import type { RunContext } from "../../../src/harness/context.ts";
import { type ReachedDocument, reachedDocuments } from "../../resolver/support/documents.ts";

export type ReadDocument = ReachedDocument & { doc: unknown };

/** Documents that were read; a link that answered none is RES-MASTERDATA-LINK's failure, not theirs. */
export async function readDocuments(ctx: RunContext): Promise<ReadDocument[]> {
  return (await reachedDocuments(ctx)).filter((d): d is ReadDocument => d.problem === undefined);
}

export const NO_DOCUMENT =
  "no master data document was reached: no /01, /414 or /417 link set answered a masterData link that answered JSON";
