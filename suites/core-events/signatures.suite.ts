// Spec 6: the seven core events and their signatures, as x-std-core-events declares them. Every event the
// target serves is classified by its event type, action and bizStep; a core event must carry the fixed columns
// of its row (CORE-SIGNATURE), and an event outside the seven is reported (CORE-TYPE, a SHOULD).
import type { CoreEventSignature } from "../../src/definition/index.ts";
import { coreSignatureProblem, coreTypeProblem } from "../../src/harness/assertions/core-events.ts";
import type { RunContext } from "../../src/harness/context.ts";
import type { Checks } from "../../src/harness/suite.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { loadBaseline } from "../../src/harness/target.ts";
import type { Evidence } from "../../src/harness/types.ts";
import type { EpcisEvent } from "../../src/model/index.ts";
import { coreRows } from "./support/definition.ts";
import { coverageNote, type EventProblem, failEvents } from "./support/served.ts";

type Rule = (event: EpcisEvent, rows: readonly CoreEventSignature[]) => Evidence | undefined;

async function checkEvery(
  checks: Checks,
  ctx: RunContext,
  rule: Rule,
  summary: (count: number, total: number) => string,
): Promise<void> {
  const { rows, borrowed } = await coreRows(ctx);
  const source = borrowed
    ? `; ${ctx.definitionFile} declares no x-std-core-events, so tracecheck's own rows were used`
    : "";
  const baseline = loadBaseline(ctx);
  const events = baseline.events;
  if (events.length === 0) {
    checks.skip(`the harness holds no events of the target to classify: ${baseline.note}`);
    return;
  }
  const found: EventProblem[] = events.flatMap((event) => {
    const problem = rule(event, rows);
    return problem === undefined ? [] : [{ event, problem }];
  });
  if (found.length === 0) {
    checks.pass(coverageNote(events.length, baseline.complete, baseline.note) + source);
    return;
  }
  await failEvents(checks, ctx, found, summary(found.length, events.length) + source);
}

requirementTest("CORE-SIGNATURE", "Each core event has its fixed columns", (checks, ctx) =>
  checkEvery(
    checks,
    ctx,
    coreSignatureProblem,
    (n, total) => `${n} of ${total} events are core events that break a fixed column of x-std-core-events`,
  ),
);

// CORE-TYPE is a SHOULD: the fail recorded here is reported as a warning, as spec 6 lists the seven events a
// sender serves without forbidding others (a custom GDST bizStep, a TransactionEvent).
requirementTest("CORE-TYPE", "An event outside the seven core events is a warning", (checks, ctx) =>
  checkEvery(
    checks,
    ctx,
    coreTypeProblem,
    (n, total) => `${n} of ${total} events match none of the seven core event signatures`,
  ),
);
