// Spec 2.2: "The permitted values of productClassification and locationClassification are listed in the vendor
// extension x-std-values. They are not declared as an enum, because both lists are extensible … A server must
// not reject a value merely because it is absent from the list." What is judged here is the value as a code of
// the list: one that is listed, or one outside it, which is never a failure, only named in a note. The value's
// type is the definition's (spec 2.2 shows none): where the definition declares one, MD-PROPERTY-TYPES judges it,
// and a value that fails it is blocked by that failure here, not failed again; only where the definition declares
// no type does a value that is no string code fail here, as nothing a list of codes holds. Whether a server
// rejects a value is not observable through master data a receiver only reads, so it is listed as untested in
// suites/requirements.yaml.
import type { ClassificationFinding } from "../../src/assertions/master-data.ts";
import { classificationFindings } from "../../src/assertions/master-data.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { runDefinition } from "../../src/engine/run-definition.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import type { ExchangeRecord } from "../../src/http/record.ts";
import { propertyChecker, readDocuments, shapeFor } from "./support/documents.ts";

type Found = ClassificationFinding & { href: string; exchange?: ExchangeRecord };

const NONE =
  "no master data document reached carries a property with x-std-values (productClassification, locationClassification)";

requirementTest(
  "MD-CLASSIFICATION-LISTED",
  "Classification values are codes of the kind x-std-values lists",
  async (checks, ctx) => {
    const definition = await runDefinition(ctx);
    const checkProperties = await propertyChecker(ctx);
    const found: Found[] = [];
    let blocked = 0;
    for (const d of await readDocuments(ctx)) {
      const type = definition.masterDataTypes.find((t) => t.type === d.expected);
      if (type === undefined) continue;
      const shape = await shapeFor(checks, d, d.expected);
      if (shape === undefined) continue;
      const findings = classificationFindings(shape, type);
      if (findings.length === 0) continue;
      const mistyped = new Map(checkProperties(d.expected, shape).map((p) => [p.property, p]));
      for (const f of findings) {
        if (!mistyped.has(f.property)) found.push({ ...f, href: d.href, exchange: d.exchange });
      }
      // A value MD-PROPERTY-TYPES failed is judged there, once per property: no code to look up here.
      for (const problem of mistyped.values()) {
        if (!findings.some((f) => f.property === problem.property)) continue;
        blocked += 1;
        checks.failUnlessBlocked(
          "MD-PROPERTY-TYPES",
          `${d.href}: ${problem.property} is ${JSON.stringify(problem.value)}, which the definition's schema for it does not admit (${problem.errors.join("; ")}), so there is no code to look up in x-std-values`,
          exchangeEvidence(d.exchange, {
            expected: "a value the definition's schema for the property admits",
            actual: problem.value,
          }),
        );
      }
    }
    const judged = found.filter((f) => f.status !== "not-a-code");
    for (const f of found.filter((f) => f.status === "not-a-code")) {
      if (f.typeDeclared) {
        // The definition's type admits it: not the list's to refuse, and nothing to look up.
        checks.skip(
          `${f.href}: ${f.property} holds ${JSON.stringify(f.value)}, which the definition's type admits; it is no code to look up in x-std-values`,
        );
        continue;
      }
      checks.fail(
        `${f.href}: ${f.property} holds ${JSON.stringify(f.value)}, no string code of the kind x-std-values lists (the definition declares no other type for it)`,
        exchangeEvidence(f.exchange, { expected: "a non-empty string code", actual: f.value }),
      );
    }
    if (judged.length === 0) {
      if (found.length === 0 && blocked === 0) checks.skip(NONE);
      return;
    }
    const outside = [
      ...new Set(
        judged.filter((f) => f.status === "unlisted").map((f) => `${f.property}=${String(f.value)}`),
      ),
    ];
    // The proof shows a value outside the list where there is one: the case the extensible list is about.
    const shown = judged.find((f) => f.status === "unlisted") ?? judged[0]!;
    checks.pass(
      outside.length === 0
        ? `every classification value served is in x-std-values (${judged.length} values)`
        : `values outside x-std-values, allowed since the lists are extensible (spec 2.2): ${outside.join(", ")}`,
      exchangeEvidence(shown.exchange, {
        message: `${shown.href}: ${shown.property} is ${JSON.stringify(shown.value)}, a code looked up in x-std-values${shown.status === "listed" ? " and found" : " and not found there, which the extensible list allows"}`,
        actual: shown.value,
      }),
    );
  },
);
