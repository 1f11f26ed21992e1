// The master data documents under check: those the resolver's masterData links lead to (spec 4.2: a client
// uses the href the link set returns), each read as JSON-LD with the run's context loader.

import {
  createPropertyChecker,
  type MasterDataReading,
  type PropertyChecker,
  readMasterData,
  schemaShape,
} from "../../../src/assertions/master-data.ts";
import { MASTER_DATA_TYPES, type MasterDataTypeName } from "../../../src/definition/index.ts";
import type { RunContext } from "../../../src/engine/context.ts";
import { exchangeEvidence } from "../../../src/engine/evidence.ts";
import { runDefinition } from "../../../src/engine/run-definition.ts";
import { perRun } from "../../../src/engine/run-scope.ts";
import type { Checks } from "../../../src/engine/suite.ts";
import { type ReachedDocument, reachedDocuments } from "../../../src/target/documents.ts";
import { runContextLoader } from "../../../src/target/jsonld/index.ts";

export type ReadDocument = ReachedDocument & { doc: unknown; reading: MasterDataReading };

/** Documents that were read; a link that answered none is RES-MASTERDATA-LINK's failure, not theirs. */
export const readDocuments = perRun(async (ctx: RunContext): Promise<ReadDocument[]> => {
  const answered = (await reachedDocuments(ctx)).filter(
    (d): d is ReachedDocument & { doc: unknown } => d.problem === undefined,
  );
  const loader = runContextLoader(ctx);
  return Promise.all(
    answered.map(async (d) => ({ ...d, reading: await readMasterData(d.doc, { loader, base: d.href }) })),
  );
});

/**
 * The check of each declared property against the definition's schema for it (MD-PROPERTY-TYPES), made once per
 * run: MD-TYPE-* and MD-CLASSIFICATION-LISTED ask it which properties that requirement fails, and leave those to it.
 */
export const propertyChecker = perRun(
  async (ctx: RunContext): Promise<PropertyChecker> => createPropertyChecker(await runDefinition(ctx)),
);

/**
 * The document in the shape the definition's schemas are written for, or undefined after recording why there is
 * none: an error when a context could not be loaded (nothing can be said), a skip when the document is not JSON-LD
 * (MD-JSONLD fails it).
 */
export async function shapeFor(
  checks: Checks,
  d: ReadDocument,
  type: MasterDataTypeName,
): Promise<Record<string, unknown> | undefined> {
  const { reading } = d;
  if (reading.kind === "unloadable") {
    checks.error(
      `${d.href}: ${reading.message}`,
      exchangeEvidence(d.exchange, { message: reading.message, actual: reading.url }),
    );
    return undefined;
  }
  if (reading.kind === "invalid") {
    checks.skip(`${d.href} is not read as JSON-LD (MD-JSONLD): ${reading.message}`);
    return undefined;
  }
  const shape = await schemaShape(reading, type);
  if (shape === undefined) {
    checks.skip(`${d.href} has no node typed ${MASTER_DATA_TYPES.join(", ")} (MD-JSONLD)`);
  }
  return shape;
}

export const NO_DOCUMENT =
  "no master data document was reached: no /01, /414 or /417 link set answered a masterData link that answered JSON";
