// Verdicts about events of the baseline, each shown with an exchange that serves the event again: a narrow query
// on one of its identifiers, so that the curl line in the report reproduces what was judged.

import { exchangeOf, queryEvents } from "../../../src/harness/answer.ts";
import { identifiersOf } from "../../../src/harness/baseline.ts";
import type { RunContext } from "../../../src/harness/context.ts";
import type { Checks } from "../../../src/harness/suite.ts";
import { exchangeEvidence } from "../../../src/harness/target.ts";
import type { Evidence } from "../../../src/harness/types.ts";
import type { EpcisEvent, EventQuery } from "../../../src/model/index.ts";

/** How many failing events are shown with their own exchange; the rest are counted in the reason. */
const SHOWN_EVENTS = 5;

export interface EventProblem {
  event: EpcisEvent;
  problem: Evidence;
}

/** A query that selects the event among few others: one of its EPCs, else a class, else its transformation. */
function narrowQueryFor(event: EpcisEvent): EventQuery | undefined {
  const { epcs, classes } = identifiersOf(event);
  const epc = epcs[0];
  if (epc !== undefined) return { MATCH_anyEPC: [epc] };
  const cls = classes[0];
  if (cls !== undefined) return { MATCH_anyEPCClass: [cls] };
  if (typeof event.transformationID === "string") return { EQ_transformationID: [event.transformationID] };
  return undefined;
}

async function servedEvidence(ctx: RunContext, found: EventProblem): Promise<Evidence> {
  const query = narrowQueryFor(found.event);
  if (query === undefined) return found.problem;
  const exchange = exchangeOf(await queryEvents(ctx, query));
  // The event was judged as the baseline holds it; an exchange that fails now only loses the curl line.
  return exchange?.response === undefined ? found.problem : exchangeEvidence(exchange, found.problem);
}

/**
 * One fail per event shown (the first reason counts them all), each with the exchange that serves it, so that
 * a requirement's reason names the extent and its evidence the first cases. `as: "warn"` records warnings
 * instead, where the rule is not the target's own (a schema or rows tracecheck lent to its definition).
 */
export async function failEvents(
  checks: Checks,
  ctx: RunContext,
  found: readonly EventProblem[],
  summary: string,
  as: "fail" | "warn" = "fail",
): Promise<void> {
  const shown = found.slice(0, SHOWN_EVENTS);
  const evidence = await Promise.all(shown.map((f) => servedEvidence(ctx, f)));
  shown.forEach((f, i) => {
    const message = f.problem.message ?? "the event breaks the rule";
    checks[as](i === 0 ? `${summary}; first: ${message}` : message, evidence[i]);
  });
}

/** The note that says how far a verdict over the baseline reaches. */
export function coverageNote(checked: number, complete: boolean, note: string): string {
  return complete
    ? `${checked} events checked, every event the target holds`
    : `${checked} events checked, those the harness could reach (${note})`;
}
