// Spec 1: commodity modules add no endpoint, parameter or header; they constrain what an event payload must
// contain, through JSON Schema. Each selected module's schema is applied to every event the target serves (the
// schema itself says which events it concerns); core is always on. The spec shows no schema: the one applied is
// the definition's, so a breach is a warning against tracecheck's own and a failure against one given with
// --definition (the requirements' definitionLevel). A commodity module may repeat a rule of the core module (the
// seafood module requires the party members the core module constrains): an event that breaks the commodity
// module only where it breaks the core module is CORE-MODULE-CORE's failure, and blocks the commodity module's
// where CORE-MODULE-CORE failed; where it only warned, the commodity module's finding is a verdict of its own.

import { moduleProblem } from "../../src/assertions/core-events.ts";
import type { ValidationResult, Validators } from "../../src/definition/index.ts";
import type { RunContext } from "../../src/engine/context.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import type { Evidence } from "../../src/engine/types.ts";
import { type EpcisEvent, eventIdentity } from "../../src/model/index.ts";
import { loadBaseline } from "../../src/target/client.ts";
import { moduleValidators, selectedModules } from "./support/definition.ts";
import { checkEvery, passEvidence } from "./support/served.ts";

const MODULE_REQUIREMENTS: readonly [module: string, id: string, title: string][] = [
  ["core", "CORE-MODULE-CORE", "Events meet the core module schema"],
  ["seafood", "CORE-MODULE-SEAFOOD", "Events meet the seafood module schema"],
  ["wildcatch", "CORE-MODULE-WILDCATCH", "Events meet the wild-catch module schema"],
  ["aquaculture", "CORE-MODULE-AQUACULTURE", "Events meet the aquaculture module schema"],
];

const CORE_MODULE = "CORE-MODULE-CORE";

/**
 * Whether the run judges CORE-MODULE-CORE with the run's own core schema, so that an event breaking it fails
 * there (a schema tracecheck lent only warns, which blocks nothing).
 */
function coreJudged(ctx: RunContext, validators: Validators, borrowed: readonly string[]): boolean {
  const selected = ctx.onlyRequirements === undefined || ctx.onlyRequirements.includes(CORE_MODULE);
  return selected && !borrowed.includes("core") && validators.modules.includes("core");
}

/** Every error the module's schema finds in the event, the core module's schema finds too. */
function onlyCoreErrors(validators: Validators, mine: ValidationResult, event: EpcisEvent): boolean {
  const core = validators.validateModule("core", event);
  return !core.valid && mine.errors.every((e) => core.errors.includes(e));
}

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
    // Each event that breaks the module, and whether it breaks it only where it breaks the core module.
    const byCore = module !== "core" && coreJudged(ctx, validators, borrowed);
    const broken = new Map<EpcisEvent, { problem: Evidence; core: boolean }>();
    for (const event of loadBaseline(ctx).events) {
      const result = validators.validateModule(module, event);
      const problem = moduleProblem(module, event, result);
      if (problem !== undefined) {
        broken.set(event, { problem, core: byCore && onlyCoreErrors(validators, result, event) });
      }
    }
    const blocked = [...broken].filter(([, b]) => b.core);
    if (blocked.length > 0) {
      // Blocked where CORE-MODULE-CORE failed; where it only warned (a schema tracecheck lent, which blocks
      // nothing), the finding is this module's own verdict, shown with the answer that serves the first event.
      const [event, { problem }] = blocked[0]!;
      const served = await passEvidence(ctx, event, problem.message ?? `event ${eventIdentity(event)}`);
      checks.failUnlessBlocked(
        CORE_MODULE,
        `${blocked.length} events break the ${module} module schema only where they break the core module's; first: ${problem.message}${source}`,
        served === undefined ? problem : { ...served, ...problem },
      );
      // Nothing else breaks the module: no other failure is left to record, and no pass is claimed over those events.
      if (blocked.length === broken.size) return;
    }
    await checkEvery(checks, ctx, {
      rule: (event) => {
        const b = broken.get(event);
        return b === undefined || b.core ? undefined : b.problem;
      },
      summary: (n, total) => `${n} of ${total} events do not meet the ${module} module schema`,
      shown: (event) => `event ${eventIdentity(event)} meets the ${module} module schema`,
      source,
      // A schema tracecheck lent to a definition that lacks it is not the target's own rule: a warning only.
      as: lent ? "warn" : "fail",
    });
  });
}
