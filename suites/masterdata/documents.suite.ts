// Spec 2.2: "Three master data payload types exist, as GS1 Web Vocabulary JSON-LD: gs1:Organization, gs1:Place
// and gs1:Product." Each document reached through a link set is read as JSON-LD by a JSON-LD processor (any
// spelling of the same graph reads the same), then brought to the shape the definition's schemas are written for
// and validated against the schema of the type its identifier calls for, and its declared properties against
// theirs. The schemas are the definition's, not the spec's (spec 2.2 shows two properties), so those checks fail
// only against a definition the user passes (definitionLevel).

import { createPropertyChecker, typeProblem } from "../../src/assertions/master-data.ts";
import type { MasterDataTypeName } from "../../src/definition/index.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { runDefinition, runValidators } from "../../src/engine/run-definition.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { NO_DOCUMENT, readDocuments, shapeFor } from "./support/documents.ts";

requirementTest("MD-JSONLD", "Master data is GS1 Web Vocabulary JSON-LD", async (checks, ctx) => {
  const documents = await readDocuments(ctx);
  if (documents.length === 0) return checks.skip(NO_DOCUMENT);
  const namespaces = new Set<string>();
  for (const d of documents) {
    const { reading } = d;
    if (reading.kind === "unloadable") {
      checks.error(
        `${d.href}: ${reading.message}`,
        exchangeEvidence(d.exchange, { message: reading.message, actual: reading.url }),
      );
      continue;
    }
    const problem = typeProblem(reading);
    if (problem) {
      checks.fail(`${d.href}: ${problem.message}`, exchangeEvidence(d.exchange, problem));
      continue;
    }
    if (reading.kind === "read") for (const ns of reading.graph.namespaces) namespaces.add(ns);
    checks.pass(
      `${d.href} reads as GS1 Web Vocabulary JSON-LD of type ${d.expected}`,
      exchangeEvidence(d.exchange, { message: `${d.href}, reached from ${d.uri}, read as JSON-LD` }),
    );
  }
  if (namespaces.size > 1) {
    checks.pass(
      `the documents write the GS1 Web Vocabulary under ${[...namespaces].join(" and ")}, read as one`,
    );
  }
});

const TYPE_REQUIREMENTS: [MasterDataTypeName, string, string][] = [
  ["gs1:Organization", "MD-TYPE-ORGANIZATION", "A gs1:Organization document matches its schema"],
  ["gs1:Place", "MD-TYPE-PLACE", "A gs1:Place document matches its schema"],
  ["gs1:Product", "MD-TYPE-PRODUCT", "A gs1:Product document matches its schema"],
];

for (const [type, id, title] of TYPE_REQUIREMENTS) {
  requirementTest(id, title, async (checks, ctx) => {
    const documents = (await readDocuments(ctx)).filter((d) => d.expected === type);
    if (documents.length === 0) {
      return checks.skip(`no ${type} document was reached through a masterData link to validate`);
    }
    const definition = await runDefinition(ctx);
    if (!definition.masterDataTypes.some((t) => t.type === type)) {
      return checks.skip(`the definition declares no schema for ${type}`);
    }
    const validators = await runValidators(ctx);
    for (const d of documents) {
      const shape = await shapeFor(checks, d, type);
      if (shape === undefined) continue;
      const result = validators.validateMasterData(type, shape);
      if (result.valid) {
        checks.pass(
          `${d.href} (reached from ${d.uri}), read as JSON-LD, matches the definition's ${type} schema`,
          exchangeEvidence(d.exchange, { message: `the ${type} document, read as JSON-LD`, actual: shape }),
        );
        continue;
      }
      const shown = result.errors.slice(0, 5).join("; ");
      checks.fail(
        `${d.href} (reached from ${d.uri}), read as JSON-LD, does not match the definition's ${type} schema: ${shown}`,
        exchangeEvidence(d.exchange, {
          expected: `a document valid against the ${type} schema`,
          actual: { errors: result.errors, read: shape },
        }),
      );
    }
  });
}

requirementTest("MD-PROPERTY-TYPES", "Declared properties have their declared types", async (checks, ctx) => {
  const documents = await readDocuments(ctx);
  if (documents.length === 0) return checks.skip(NO_DOCUMENT);
  const check = createPropertyChecker(await runDefinition(ctx));
  for (const d of documents) {
    const shape = await shapeFor(checks, d, d.expected);
    if (shape === undefined) continue;
    const problems = check(d.expected, shape);
    if (problems.length === 0) {
      checks.pass(
        `${d.href}: every property the definition declares for ${d.expected} has its declared type`,
        exchangeEvidence(d.exchange, {
          message: `the ${d.expected} document, read as JSON-LD`,
          actual: shape,
        }),
      );
      continue;
    }
    for (const p of problems) {
      checks.fail(
        `${d.href}: ${p.property} does not have the type the definition declares (${p.errors.join("; ")})`,
        exchangeEvidence(d.exchange, { message: p.errors.join("; "), expected: p.property, actual: p.value }),
      );
    }
  }
});
