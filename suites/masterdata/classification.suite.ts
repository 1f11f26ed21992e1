// Spec 2.2: "The permitted values of productClassification and locationClassification are listed in the vendor
// extension x-std-values. They are not declared as an enum, because both lists are extensible … A server must
// not reject a value merely because it is absent from the list." A listed value passes as spelled; a value
// outside the list is never a failure, only named in a note.
import type { ClassificationFinding } from "../../src/harness/assertions/master-data.ts";
import { classificationFindings } from "../../src/harness/assertions/master-data.ts";
import type { RunContext } from "../../src/harness/context.ts";
import { runDefinition } from "../../src/harness/run-definition.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { exchangeEvidence } from "../../src/harness/target.ts";
import type { ExchangeRecord } from "../../src/harness/types.ts";
import { readDocuments } from "./support/documents.ts";

type Found = ClassificationFinding & { href: string; exchange?: ExchangeRecord };

async function findings(ctx: RunContext): Promise<Found[]> {
  const definition = await runDefinition(ctx);
  return (await readDocuments(ctx)).flatMap((d) => {
    const type = definition.masterDataTypes.find((t) => t.type === d.expected);
    if (type === undefined) return [];
    return classificationFindings(d.doc, type).map((f) => ({ ...f, href: d.href, exchange: d.exchange }));
  });
}

const NONE =
  "no master data document reached carries a property with x-std-values (productClassification, locationClassification)";

requirementTest(
  "MD-CLASSIFICATION-LISTED",
  "Listed classification values are accepted as spelled",
  async (checks, ctx) => {
    const found = await findings(ctx);
    if (found.length === 0) return checks.skip(NONE);
    for (const f of found) {
      if (f.status === "not-a-string") {
        checks.fail(
          `${f.href}: ${f.property} is ${JSON.stringify(f.value)}, not a string code`,
          exchangeEvidence(f.exchange, { expected: "a non-empty string code", actual: f.value }),
        );
      } else {
        checks.pass();
      }
    }
  },
);

requirementTest(
  "MD-CLASSIFICATION-EXTENSIBLE",
  "Classification values outside the list are not an error",
  async (checks, ctx) => {
    const found = (await findings(ctx)).filter((f) => f.status !== "not-a-string");
    if (found.length === 0) return checks.skip(NONE);
    const outside = [
      ...new Set(found.filter((f) => f.status === "unlisted").map((f) => `${f.property}=${String(f.value)}`)),
    ];
    checks.pass(
      outside.length === 0
        ? "every classification value served is in x-std-values"
        : `values outside x-std-values, allowed since the lists are extensible (spec 2.2): ${outside.join(", ")}`,
    );
  },
);
