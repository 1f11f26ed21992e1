// Spec 2.2: "Three master data payload types exist, as GS1 Web Vocabulary JSON-LD: gs1:Organization, gs1:Place
// and gs1:Product." Each document reached through a link set is read as JSON-LD by a JSON-LD processor (any
// spelling of the same graph reads the same), then brought to the shape the definition's schemas are written for
// and validated against the schema of the type its identifier calls for, and its declared properties against
// theirs. The schemas are the definition's, not the spec's (spec 2.2 shows two properties), so those checks fail
// only against a definition the user passes (definitionLevel).

import { isUnderProperty, typeProblem } from "../../src/assertions/master-data.ts";
import type { MasterDataTypeName } from "../../src/definition/index.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { runDefinition, runValidators } from "../../src/engine/run-definition.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { NO_DOCUMENT, propertyChecker, readDocuments, shapeFor } from "./support/documents.ts";

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

// The schema of a type is judged here as a whole (its required members, @context, @type and whatever else it
// fixes), except what another requirement judges of the same document, so that one defect fails once: a declared
// property that MD-PROPERTY-TYPES fails (the errors under it are blocked by that failure), and a document of
// another type than its identifier calls for (RES-MASTERDATA-LINK's, spec 4.2).
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
    const checkProperties = await propertyChecker(ctx);
    for (const d of documents) {
      const shape = await shapeFor(checks, d, type);
      if (shape === undefined) continue;
      // A document of another master data type than its identifier calls for (spec 4.2) is RES-MASTERDATA-LINK's
      // failure: the schema of a type it is not would only fail its @type again.
      const wrongType = typeProblem(d.reading, type);
      if (wrongType !== undefined) {
        checks.failUnlessBlocked(
          "RES-MASTERDATA-LINK",
          `${d.href} (reached from ${d.uri}): ${wrongType.message}, so the definition's ${type} schema does not apply to it`,
          exchangeEvidence(d.exchange, wrongType),
        );
        continue;
      }
      const result = validators.validateMasterData(type, shape);
      if (result.valid) {
        checks.pass(
          `${d.href} (reached from ${d.uri}), read as JSON-LD, matches the definition's ${type} schema`,
          exchangeEvidence(d.exchange, { message: `the ${type} document, read as JSON-LD`, actual: shape }),
        );
        continue;
      }
      const failed = checkProperties(type, shape).map((p) => p.property);
      const theirs = result.errors.filter((e) => failed.some((p) => isUnderProperty(e, p)));
      const own = result.errors.filter((e) => !theirs.includes(e));
      if (theirs.length > 0) {
        checks.failUnlessBlocked(
          "MD-PROPERTY-TYPES",
          `${d.href}: ${failed.filter((p) => theirs.some((e) => isUnderProperty(e, p))).join(", ")} of the ${type} document does not have the type the definition declares: ${theirs.slice(0, 5).join("; ")}`,
          exchangeEvidence(d.exchange, {
            expected: `a document valid against the ${type} schema`,
            actual: { errors: theirs, read: shape },
          }),
        );
      }
      if (own.length === 0) continue;
      checks.fail(
        `${d.href} (reached from ${d.uri}), read as JSON-LD, does not match the definition's ${type} schema: ${own.slice(0, 5).join("; ")}`,
        exchangeEvidence(d.exchange, {
          expected: `a document valid against the ${type} schema`,
          actual: { errors: own, read: shape },
        }),
      );
    }
  });
}

requirementTest("MD-PROPERTY-TYPES", "Declared properties have their declared types", async (checks, ctx) => {
  const documents = await readDocuments(ctx);
  if (documents.length === 0) return checks.skip(NO_DOCUMENT);
  const check = await propertyChecker(ctx);
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
