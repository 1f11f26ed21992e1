// What a failed trace-back is traced back to (FLOW-TRACEBACK): the hops the target answered wrong. Each hop is a
// GET /events query for one identifier as the events write it, so a wrong answer is a defect of the query
// interface, which the events class judges directly (spec 4.1): one defect, one failure.

import { answerExplainedBy } from "../../../src/assertions/blockers.ts";
import { type Hop, type HopAnswer, hopQuery, selectedAsWritten } from "../../../src/assertions/trace-back.ts";
import { type EpcisEvent, eventIdentity } from "../../../src/model/index.ts";

/** A hop the walk asked, how the target answered it, and for a failed answer the requirements that explain it. */
export interface AskedHop {
  hop: Hop;
  answer: HopAnswer;
  failedBy?: string[];
}

/**
 * The requirements of GET /events that explain a failed walk: for each hop answered without events its query
 * selects as written, the filter of its query for the fields where they hold the value (and paging and encoding,
 * answerExplainedBy); for each hop not answered, what explains that. None where every hop was answered right.
 */
export function walkExplainedBy(asked: readonly AskedHop[], events: readonly EpcisEvent[]): string[] {
  const ids = asked.flatMap(({ hop, answer, failedBy }) => {
    if (answer.kind === "failed") return failedBy ?? [];
    if (answer.kind !== "events") return [];
    const answered = new Set(answer.events.map(eventIdentity));
    const lacking = selectedAsWritten(events, hopQuery(hop)).filter((e) => !answered.has(eventIdentity(e)));
    return lacking.length === 0 ? [] : answerExplainedBy(hopQuery(hop), lacking);
  });
  return [...new Set(ids)];
}
