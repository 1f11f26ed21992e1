// Spec 2.2: "Three master data payload types exist, as GS1 Web Vocabulary JSON-LD: gs1:Organization, gs1:Place
// and gs1:Product." Each document reached through a link set is read as JSON-LD, validated against the
// definition's schema for the type its identifier calls for, and its declared properties against theirs.
import type { MasterDataTypeName } from "../../src/definition/index.ts";
import { createPropertyChecker, jsonLdProblem } from "../../src/harness/assertions/master-data.ts";
import { runDefinition, runValidators } from "../../src/harness/run-definition.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { exchangeEvidence } from "../../src/harness/target.ts";
import { NO_DOCUMENT, readDocuments } from "./support/documents.ts";

requirementTest("MD-JSONLD", "Master data is GS1 Web Vocabulary JSON-LD", async (checks, ctx) => {
  const documents = await readDocuments(ctx);
  if (documents.length === 0) return checks.skip(NO_DOCUMENT);
  for (const d of documents) {
    const problem = jsonLdProblem(d.doc);
    if (problem) checks.fail(`${d.href}: ${problem.message}`, exchangeEvidence(d.exchange, problem));
    else checks.pass();
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
      const result = validators.validateMasterData(type, d.doc);
      if (result.valid) {
        checks.pass();
        continue;
      }
      const shown = result.errors.slice(0, 5).join("; ");
      checks.fail(
        `${d.href} (reached from ${d.uri}) does not match the ${type} schema: ${shown}`,
        exchangeEvidence(d.exchange, {
          expected: `a document valid against the ${type} schema`,
          actual: result.errors,
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
    const problems = check(d.expected, d.doc);
    if (problems.length === 0) {
      checks.pass();
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
