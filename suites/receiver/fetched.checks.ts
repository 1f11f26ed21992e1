// What the receiver got out of the exchange (spec 1, step 3): the product's own events and master data, the whole
// trace below it, every page of every answer, and the events behind a query the sender refused with 413.
import {
  canonicalId,
  type EpcisEvent,
  type EventQuery,
  parseQueryString,
  runOracle,
} from "../../src/model/index.ts";
import {
  answered,
  described,
  fetchedEvents,
  nextPageOf,
  type ReceivedRequest,
  requestEvidence,
} from "./requests.ts";
import type { ReceiverTask } from "./task.ts";
import { traceIdentity } from "./trace-set.ts";
import type { ReceiverChecks } from "./verdicts.ts";

/** The master data hrefs the sender's link sets offer, by the canonical URI of the subject (offers.ts). */
export type MasterDataOffers = ReadonlyMap<string, readonly string[]>;

const SHOWN = 20;

function few(ids: readonly string[]): string {
  return ids.slice(0, 3).join(", ") + (ids.length > 3 ? `, and ${ids.length - 3} more` : "");
}

/** Whether some answered request asked one of the hrefs (each normalized like ReceivedRequest.normalized). */
function fetchedAny(requests: readonly ReceivedRequest[], hrefs: readonly string[]): boolean {
  return requests.some((r) => answered(r) && hrefs.includes(r.normalized));
}

/** RCV-PRODUCT-EVENTS and RCV-PRODUCT-MASTERDATA. */
export function checkProduct(
  checks: ReceiverChecks,
  requests: readonly ReceivedRequest[],
  task: ReceiverTask,
  events: readonly EpcisEvent[],
  offers: MasterDataOffers,
): void {
  const own = [
    ...runOracle(events, { MATCH_anyEPC: [task.identifier] }),
    ...runOracle(events, { MATCH_anyEPCClass: [task.identifier] }),
  ].map(traceIdentity);
  const fetched = fetchedEvents(requests);
  const missing = [...new Set(own)].filter((id) => !fetched.has(id));
  const c = checks.for("RCV-PRODUCT-EVENTS");
  if (missing.length === 0) {
    c.pass(`all ${new Set(own).size} events of ${task.identifier} were fetched`);
  } else {
    c.fail(
      `${missing.length} of the ${new Set(own).size} events that name ${task.identifier} never reached the receiver: ${few(missing)}.`,
      {
        missing: missing.slice(0, SHOWN),
        expected: new Set(own).size,
        actual: new Set(own).size - missing.length,
      },
    );
  }
  const m = checks.for("RCV-PRODUCT-MASTERDATA");
  const hrefs = offers.get(canonicalId(task.product)) ?? [];
  if (hrefs.length === 0) m.skip(`the sender's link set of ${task.product} offers no master data`);
  else if (fetchedAny(requests, hrefs)) m.pass(`the master data of ${task.product} was fetched`);
  else {
    m.fail(`the master data of ${task.product}, offered at ${hrefs.join(", ")}, was never fetched.`, {
      expected: hrefs,
    });
  }
}

/** RCV-TRACE-EVENTS and RCV-TRACE-MASTERDATA: the whole trace below the task. */
export function checkTrace(
  checks: ReceiverChecks,
  requests: readonly ReceivedRequest[],
  task: ReceiverTask,
  offers: MasterDataOffers,
): void {
  const fetched = fetchedEvents(requests);
  const missing = [...task.trace.events.keys()].filter((id) => !fetched.has(id));
  const c = checks.for("RCV-TRACE-EVENTS");
  if (missing.length === 0) c.pass(`all ${task.trace.events.size} events of the trace were fetched`);
  else {
    c.fail(
      `${missing.length} of the ${task.trace.events.size} events of the trace below ${task.identifier} never reached the receiver: ${few(missing)}.`,
      {
        missing: missing.slice(0, SHOWN),
        expected: task.trace.events.size,
        actual: task.trace.events.size - missing.length,
      },
    );
  }
  const m = checks.for("RCV-TRACE-MASTERDATA");
  const offered = [...offers].filter(([, hrefs]) => hrefs.length > 0);
  const unfetched = offered.filter(([, hrefs]) => !fetchedAny(requests, hrefs)).map(([subject]) => subject);
  if (offered.length === 0) m.skip("the sender's link sets offer no master data for what the trace names");
  else if (unfetched.length === 0) m.pass(`the master data of all ${offered.length} subjects was fetched`);
  else {
    m.fail(
      `the master data of ${unfetched.length} of the ${offered.length} products, locations and parties the trace names was never fetched: ${few(unfetched)}.`,
      {
        missing: unfetched.slice(0, SHOWN),
        expected: offered.length,
        actual: offered.length - unfetched.length,
      },
    );
  }
}

/** RCV-PAGING: every page an answer links to with rel="next" was asked afterwards. */
export function checkPaging(checks: ReceiverChecks, requests: readonly ReceivedRequest[], key: string): void {
  const c = checks.for("RCV-PAGING");
  let paged = 0;
  for (const [i, r] of requests.entries()) {
    if (r.kind !== "events") continue;
    const next = nextPageOf(r);
    if (next === undefined) continue;
    paged += 1;
    if (requests.slice(i + 1).some((later) => later.normalized === next)) c.pass();
    else {
      c.fail(`the answer to ${described(r, key)} links its next page, which the receiver never asked.`, {
        ...requestEvidence(r, key),
        expected: next,
      });
    }
  }
  if (paged === 0) c.skip("the sender paged no answer the receiver got");
}

/**
 * RCV-413-NARROW: after a query refused with 413, the events of the trace that query selects still reached the
 * receiver, through narrower queries.
 */
export function checkNarrowing(
  checks: ReceiverChecks,
  requests: readonly ReceivedRequest[],
  key: string,
  task: ReceiverTask,
  events: readonly EpcisEvent[],
): void {
  const c = checks.for("RCV-413-NARROW");
  const refused = requests.filter((r) => r.kind === "events" && r.exchange.status === 413);
  if (refused.length === 0) {
    c.skip("the sender refused no query of the receiver with 413");
    return;
  }
  const fetched = fetchedEvents(requests);
  for (const r of refused) {
    let selected: EpcisEvent[];
    try {
      selected = runOracle(events, parseQueryString(r.rawQuery).query as EventQuery);
    } catch {
      c.skip(`${described(r, key)} has a time bound no instant reads, so what it selects is not known`);
      continue;
    }
    const needed = selected.map(traceIdentity).filter((id) => task.trace.events.has(id));
    const missing = needed.filter((id) => !fetched.has(id));
    if (missing.length === 0) c.pass(`the ${needed.length} events of the trace behind a 413 were fetched`);
    else {
      c.fail(
        `${described(r, key)} was refused with 413 and ${missing.length} events of the trace it selects never reached the receiver: it did not narrow the query (fewer values at a time, UTC eventTime windows).`,
        requestEvidence(r, key, { missing: missing.slice(0, SHOWN) }),
      );
    }
  }
}
