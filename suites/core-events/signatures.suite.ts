// Spec 6: the seven core events. An event is taken for a core event by the CBV step that names it or by its type;
// it must then have the event type and action of the spec's table (CORE-SIGNATURE). The further columns its
// x-std-core-events row fixes (bizStep, disposition) are judged apart (CORE-COLUMNS): a warning against
// tracecheck's own definition, a failure against one the user gives with --definition, since the spec does not
// show them. An event outside the seven is reported (CORE-TYPE, a SHOULD).
import {
  coreColumnsProblem,
  coreSignatureProblem,
  coreTypeProblem,
} from "../../src/harness/assertions/core-events.ts";
import type { RunContext } from "../../src/harness/context.ts";
import type { Checks } from "../../src/harness/suite.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { loadBaseline } from "../../src/harness/target.ts";
import type { Evidence } from "../../src/harness/types.ts";
import type { EpcisEvent } from "../../src/model/index.ts";
import { coreRows } from "./support/definition.ts";
import { coverageNote, type EventProblem, failEvents } from "./support/served.ts";

type Rule = (event: EpcisEvent) => Evidence | undefined;

async function checkEvery(
  checks: Checks,
  ctx: RunContext,
  rule: Rule,
  summary: (count: number, total: number) => string,
  options: { source?: string; as?: "fail" | "warn" } = {},
): Promise<void> {
  const source = options.source ?? "";
  const baseline = loadBaseline(ctx);
  const events = baseline.events;
  if (events.length === 0) {
    checks.skip(`the harness holds no events of the target to classify: ${baseline.note}`);
    return;
  }
  const found: EventProblem[] = events.flatMap((event) => {
    const problem = rule(event);
    return problem === undefined ? [] : [{ event, problem }];
  });
  if (found.length === 0) {
    checks.pass(coverageNote(events.length, baseline.complete, baseline.note) + source);
    return;
  }
  await failEvents(checks, ctx, found, summary(found.length, events.length) + source, options.as);
}

requirementTest("CORE-SIGNATURE", "A core event has the event type and action of spec 6", (checks, ctx) =>
  checkEvery(
    checks,
    ctx,
    coreSignatureProblem,
    (n, total) =>
      `${n} of ${total} events are taken for a core event by their bizStep or type but lack the event type or action spec 6 gives it`,
  ),
);

requirementTest(
  "CORE-COLUMNS",
  "A core event has the further columns x-std-core-events fixes",
  async (checks, ctx) => {
    const { rows, borrowed } = await coreRows(ctx);
    // A definition the user gave that declares no rows fixes nothing; tracecheck's stand in, as a warning only.
    const source = borrowed
      ? `; ${ctx.definitionFile} declares no x-std-core-events, so tracecheck's own rows were used`
      : ctx.definitionGiven === true
        ? ""
        : "; the columns are those of tracecheck's own definition, which the spec does not show (pass --definition to judge against yours)";
    await checkEvery(
      checks,
      ctx,
      (event) => coreColumnsProblem(event, rows),
      (n, total) => `${n} of ${total} events are core events that break a column x-std-core-events fixes`,
      { source, as: borrowed ? "warn" : "fail" },
    );
  },
);

// CORE-TYPE is a SHOULD: the fail recorded here is reported as a warning, as spec 6 lists the seven events a
// sender serves without forbidding others (an ObjectEvent at inspecting, GDST's own steps).
requirementTest("CORE-TYPE", "An event outside the seven core events is a warning", (checks, ctx) =>
  checkEvery(
    checks,
    ctx,
    coreTypeProblem,
    (n, total) => `${n} of ${total} events match none of the seven core event signatures`,
  ),
);
