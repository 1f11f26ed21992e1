// Spec 1: commodity modules add no endpoint, parameter or header; they constrain what an event payload must
// contain, through JSON Schema. Each selected module's schema is applied to every event the target serves (the
// schema itself says which events it concerns); core is always on. The spec shows no schema: the one applied is
// the definition's, so a breach is a warning against tracecheck's own and a failure against one given with
// --definition (the requirements' definitionLevel).
import { moduleProblem } from "../../src/harness/assertions/core-events.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { eventIdentity } from "../../src/model/index.ts";
import { moduleValidators, selectedModules } from "./support/definition.ts";
import { checkEvery } from "./support/served.ts";

const MODULE_REQUIREMENTS: readonly [module: string, id: string, title: string][] = [
  ["core", "CORE-MODULE-CORE", "Events meet the core module schema"],
  ["seafood", "CORE-MODULE-SEAFOOD", "Events meet the seafood module schema"],
  ["wildcatch", "CORE-MODULE-WILDCATCH", "Events meet the wild-catch module schema"],
  ["aquaculture", "CORE-MODULE-AQUACULTURE", "Events meet the aquaculture module schema"],
];

for (const [module, id, title] of MODULE_REQUIREMENTS) {
  requirementTest(id, title, async (checks, ctx) => {
    if (!selectedModules(ctx).includes(module)) {
      checks.skip("module not selected with --modules");
      return;
    }
    const { validators, borrowed } = await moduleValidators(ctx);
    if (!validators.modules.includes(module)) {
      checks.skip(`no schema for the ${module} module is declared in x-modules of ${ctx.definitionFile}`);
      return;
    }
    const lent = borrowed.includes(module);
    const source = lent
      ? `; the run's definition declares no ${module} module, so tracecheck's own schema was applied`
      : ctx.definitionGiven === true
        ? ""
        : "; the schema is tracecheck's own (pass --definition to judge against yours)";
    await checkEvery(checks, ctx, {
      rule: (event) => moduleProblem(module, event, validators.validateModule(module, event)),
      summary: (n, total) => `${n} of ${total} events do not meet the ${module} module schema`,
      shown: (event) => `event ${eventIdentity(event)} meets the ${module} module schema`,
      source,
      // A schema tracecheck lent to a definition that lacks it is not the target's own rule: a warning only.
      as: lent ? "warn" : "fail",
    });
  });
}
