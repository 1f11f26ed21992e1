// Spec 9: the definition carries four vendor extension families. x-std-core-events declares the seven core
// events (spec 6) with the event type and action spec 6 gives them, in every row that names one, wherever and in
// whatever shape the definition writes it (neither is shown; its further columns, and rows that name no core
// event, are the definition's own); every master data property carries x-kde-name (spec 2.2; JSON-LD keywords
// such as @context and @type are not properties); the classification lists are x-std-values and not enums (spec
// 2.2); and the list parameters carry x-style: pipeDelimited with x-explode: false (spec 4.1 rule 2). Judged for a
// definition the user gives with --definition; without one the checks are skipped with the reason. Where the
// schema of a master data type cannot be found (the spec shows neither where it sits nor its name), that type is
// not judged, and the verdict says so: a skip when none is found, else a note beside the pass.
import { coreEventsBeyondTheSeven, masterDataNotJudged } from "../../src/definition/check-extensions.ts";
import { checkExtensions, type ExtensionFamily, findCoreEvents } from "../../src/definition/index.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { extensionEvidence, notJudgedReason, readRunDefinition } from "./support/read.ts";

const FAMILIES: readonly [family: ExtensionFamily, id: string, title: string, holds: string][] = [
  [
    "core-events",
    "DEF-CORE-EVENTS",
    "x-std-core-events declares the seven core events",
    "x-std-core-events declares the seven core events with the event type and action spec 6 gives them",
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

/**
 * Where the definition declares x-std-core-events, for the pass (the spec does not show where it sits), with what
 * it holds beyond one row per core event: those rows are the definition's own, but the user sees what was judged.
 */
function placeOf(family: ExtensionFamily, raw: unknown): string {
  if (family !== "core-events" || typeof raw !== "object" || raw === null || Array.isArray(raw)) return "";
  const doc = raw as Record<string, unknown>;
  const found = findCoreEvents(doc);
  if (!found.found) return "";
  const beyond = coreEventsBeyondTheSeven(doc);
  return beyond === undefined ? `#${found.at}` : `#${found.at}; ${beyond}`;
}

for (const [family, id, title, holds] of FAMILIES) {
  requirementTest(id, title, async (checks, ctx) => {
    const notJudged = notJudgedReason(ctx);
    if (notJudged !== undefined) return checks.skip(notJudged);
    const read = await readRunDefinition(ctx);
    if (!read.ok) {
      checks.fail(`the definition's extensions cannot be read: ${read.problem}`, { message: read.problem });
      return;
    }
    const problems = checkExtensions(read.raw).filter((p) => p.family === family);
    // A master data type whose schema the harness cannot find is not judged, which the verdict says.
    const unjudged = masterDataNotJudged(read.raw, family);
    if (problems.length === 0 && unjudged?.none === true) {
      return checks.skip(
        `the master data schemas cannot be found in ${ctx.definitionFile}: ${unjudged.note}`,
      );
    }
    if (problems.length === 0) {
      const where = `${ctx.definitionFile}${placeOf(family, read.raw)}`;
      const judged =
        unjudged === undefined ? holds : `${holds}, of the types whose schema was found; ${unjudged.note}`;
      checks.pass(`${judged} (${where})`, { message: `${judged}: ${where}` });
      return;
    }
    problems.forEach((problem, i) => {
      const more = i === 0 && problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : "";
      checks.fail(problem.message + more, extensionEvidence(ctx.definitionFile, read.raw, problem));
    });
  });
}
