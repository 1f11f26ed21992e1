// Spec 6: the seven core events. Spec 6 fixes each one's event type and action, but which events are core events
// rests on the further columns of x-std-core-events, whose names and values the spec does not show; and the spec
// never says that only core events are served. An event is taken for a core event when a row has its event type at
// its bizStep, and must then have the action spec 6 gives it (CORE-SIGNATURE); its disposition is judged against
// the row apart (CORE-COLUMNS). Both rest on rows the spec does not show: tracecheck's own are a warning, those of
// a definition the user gives with --definition a failure (definitionLevel). An event no row takes for a core event
// is reported, never failed (CORE-TYPE, a SHOULD).
import {
  classifyEvent,
  coreColumnsProblem,
  coreSignatureProblem,
  coreSignatureShown,
  coreTypeProblem,
} from "../../src/assertions/core-events.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { eventIdentity } from "../../src/model/index.ts";
import { coreEventRows } from "./support/definition.ts";
import { checkEvery } from "./support/served.ts";

requirementTest(
  "CORE-SIGNATURE",
  "A core event has the event type and action of spec 6",
  async (checks, ctx) => {
    const { rows, borrowed, source } = await coreEventRows(ctx);
    await checkEvery(checks, ctx, {
      rule: (event) => coreSignatureProblem(event, rows),
      summary: (n, total) =>
        `${n} of ${total} events are taken for a core event by their event type and bizStep but lack the action spec 6 gives it`,
      shown: (event) => coreSignatureShown(event, rows),
      none: "none of the events the harness holds has the event type and bizStep of a row of x-std-core-events, so none is taken for a core event",
      source,
      as: borrowed ? "warn" : "fail",
    });
  },
);

requirementTest(
  "CORE-COLUMNS",
  "A core event has the further columns x-std-core-events fixes",
  async (checks, ctx) => {
    const { rows, borrowed, source } = await coreEventRows(ctx);
    await checkEvery(checks, ctx, {
      rule: (event) => coreColumnsProblem(event, rows),
      summary: (n, total) =>
        `${n} of ${total} events are core events that break a column x-std-core-events fixes`,
      shown: (event) => {
        const c = classifyEvent(event, rows);
        if (c.kind !== "core" || c.row.disposition === null) return undefined;
        return `event ${eventIdentity(event)} is a ${c.row.name} with disposition ${String(event.disposition)}, as x-std-core-events fixes ${c.row.disposition}`;
      },
      none: "none of the events the harness holds is a core event whose row fixes a disposition",
      source,
      as: borrowed ? "warn" : "fail",
    });
  },
);

// CORE-TYPE is a SHOULD: the fail recorded here is reported as a warning, as spec 6 lists the seven events a
// sender serves without forbidding others (an ObjectEvent at inspecting, GDST's own steps).
requirementTest("CORE-TYPE", "An event outside the seven core events is a warning", async (checks, ctx) => {
  const { rows, source } = await coreEventRows(ctx);
  await checkEvery(checks, ctx, {
    rule: (event) => coreTypeProblem(event, rows),
    summary: (n, total) => `${n} of ${total} events match none of the seven core event signatures`,
    shown: (event) => coreSignatureShown(event, rows),
    source,
  });
});
