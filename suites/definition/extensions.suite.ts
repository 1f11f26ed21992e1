// Spec 9: the definition carries four vendor extension families. x-std-core-events declares the seven core
// events (spec 6), every master data property carries x-kde-name (spec 2.2), the classification lists are
// x-std-values and not enums (spec 2.2), and the list parameters carry x-style: pipeDelimited with x-explode:
// false (spec 4.1 rule 2).
import { checkExtensions, type ExtensionFamily } from "../../src/definition/index.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { extensionEvidence, readRunDefinition } from "./support/read.ts";

const FAMILIES: readonly [family: ExtensionFamily, id: string, title: string, holds: string][] = [
  [
    "core-events",
    "DEF-CORE-EVENTS",
    "x-std-core-events declares the seven core events",
    "x-std-core-events declares the seven core events with their fixed columns",
  ],
  [
    "kde-name",
    "DEF-KDE-NAME",
    "Every master data property carries x-kde-name",
    "every property of gs1:Organization, gs1:Place and gs1:Product carries x-kde-name",
  ],
  [
    "std-values",
    "DEF-STD-VALUES",
    "Classification lists are x-std-values, not enums",
    "productClassification and locationClassification list their values in x-std-values, not as enums",
  ],
  [
    "style-explode",
    "DEF-STYLE-EXPLODE",
    "List parameters carry x-style pipeDelimited and x-explode false",
    "the five list parameters of GET /events carry x-style: pipeDelimited and x-explode: false",
  ],
];

for (const [family, id, title, holds] of FAMILIES) {
  requirementTest(id, title, async (checks, ctx) => {
    const read = await readRunDefinition(ctx.definitionFile);
    if (!read.ok) {
      checks.fail(`the definition's extensions cannot be read: ${read.problem}`, { message: read.problem });
      return;
    }
    const problems = checkExtensions(read.raw).filter((p) => p.family === family);
    if (problems.length === 0) {
      checks.pass(`${holds} (${ctx.definitionFile})`);
      return;
    }
    problems.forEach((problem, i) => {
      const more = i === 0 && problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : "";
      checks.fail(problem.message + more, extensionEvidence(ctx.definitionFile, read.raw, problem));
    });
  });
}
