// Spec 2.2: "The permitted values of productClassification and locationClassification are listed in the vendor
// extension x-std-values. They are not declared as an enum, because both lists are extensible … A server must
// not reject a value merely because it is absent from the list." A classification is a code of the kind the list
// holds (a string, as the definition declares it); a value outside the list is never a failure, only named in a
// note. Whether a server rejects a value is not observable through master data a receiver only reads, so it is
// listed as untested in suites/requirements.yaml.
import type { ClassificationFinding } from "../../src/assertions/master-data.ts";
import { classificationFindings } from "../../src/assertions/master-data.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { runDefinition } from "../../src/engine/run-definition.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import type { ExchangeRecord } from "../../src/http/record.ts";
import { readDocuments, shapeFor } from "./support/documents.ts";

type Found = ClassificationFinding & { href: string; exchange?: ExchangeRecord };

const NONE =
  "no master data document reached carries a property with x-std-values (productClassification, locationClassification)";

requirementTest(
  "MD-CLASSIFICATION-LISTED",
  "Classification values are codes of the kind x-std-values lists",
  async (checks, ctx) => {
    const definition = await runDefinition(ctx);
    const found: Found[] = [];
    for (const d of await readDocuments(ctx)) {
      const type = definition.masterDataTypes.find((t) => t.type === d.expected);
      if (type === undefined) continue;
      const shape = await shapeFor(checks, d, d.expected);
      if (shape === undefined) continue;
      found.push(
        ...classificationFindings(shape, type).map((f) => ({ ...f, href: d.href, exchange: d.exchange })),
      );
    }
    if (found.length === 0) return checks.skip(NONE);
    const wrong = found.filter((f) => f.status === "not-a-string");
    for (const f of wrong) {
      checks.fail(
        `${f.href}: ${f.property} is ${JSON.stringify(f.value)}, not a string code`,
        exchangeEvidence(f.exchange, { expected: "a non-empty string code", actual: f.value }),
      );
    }
    if (wrong.length > 0) return;
    const outside = [
      ...new Set(found.filter((f) => f.status === "unlisted").map((f) => `${f.property}=${String(f.value)}`)),
    ];
    const shown = found[0]!;
    checks.pass(
      outside.length === 0
        ? `every classification value served is in x-std-values (${found.length} values)`
        : `values outside x-std-values, allowed since the lists are extensible (spec 2.2): ${outside.join(", ")}`,
      exchangeEvidence(shown.exchange, {
        message: `${shown.href}: ${shown.property} is ${JSON.stringify(shown.value)}, a string code`,
        actual: shown.value,
      }),
    );
  },
);
