// What is wrong with a master data document a receiver reached through a masterData link (RES-MASTERDATA-LINK);
// the documents themselves are read in src/target/documents.ts.

import {
  identifierProblem,
  type MasterDataReadOptions,
  masterDataTypeProblem,
} from "../../../src/assertions/master-data.ts";
import type { Evidence } from "../../../src/engine/types.ts";
import type { ReachedDocument } from "../../../src/target/documents.ts";

/**
 * What is wrong with the document a masterData link reached (RES-MASTERDATA-LINK), or undefined: no document, no
 * node of the type the identifier calls for, or that node named as another identifier. The node judged is the one of
 * that type, wherever the document's graph lists it: an Organization's document may describe its Place too.
 */
export async function reachedDocumentProblem(
  d: ReachedDocument,
  options?: MasterDataReadOptions,
): Promise<Evidence | undefined> {
  if (d.problem !== undefined) return { message: d.problem, expected: d.expected };
  return (
    (await masterDataTypeProblem(d.doc, d.expected, options)) ??
    (await identifierProblem(d.doc, d.uri, { ...options, expected: d.expected }))
  );
}
