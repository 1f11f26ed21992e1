// What the receiver got out of the exchange (spec 1, step 3): the product's own events and master data, the whole
// trace below it, every page of every answer, and the events behind a query the sender refused with 413. Each pass
// carries the requests that delivered what it counts.

import { type Checks, requirementTest } from "../../src/engine/suite.ts";
import {
  canonicalId,
  canonicalOrWritten,
  type EpcisEvent,
  type EventQuery,
  parseQueryString,
  runOracle,
} from "../../src/model/index.ts";
import type { ReceiverTask } from "../../src/model/receiver-task.ts";
import { traceIdentity } from "../../src/model/trace-set.ts";
import { EPCIS_LINK } from "../../src/target/linkset.ts";
import { offersOf, sessionOf } from "./support/recording.ts";
import {
  answered,
  deliveredEvents,
  described,
  fetchedEvents,
  isEventsPath,
  linksetHrefsOf,
  nextPageOf,
  type ReceivedRequest,
  redirectOf,
  requestEvidence,
  resolverPathOf,
} from "./support/requests.ts";
import { unresolvedBySpelling } from "./support/resolving.ts";
import { meantQuery, wireFailures } from "./support/wire.ts";

const SHOWN = 20;
/** Requests a pass names as its proof at most; the session's report keeps ten of them (session.ts). */
const PROOFS = 10;

function few(ids: readonly string[]): string {
  return ids.slice(0, 3).join(", ") + (ids.length > 3 ? `, and ${ids.length - 3} more` : "");
}

/** The first answered request that asked one of the hrefs (each normalized like ReceivedRequest.normalized). */
function fetchOf(
  requests: readonly ReceivedRequest[],
  hrefs: readonly string[],
): ReceivedRequest | undefined {
  return requests.find((r) => answered(r) && hrefs.includes(r.normalized));
}

/** The answers of GET /events that delivered the events of `ids` first, in the order they came. */
function deliveries(requests: readonly ReceivedRequest[], ids: Iterable<string>): ReceivedRequest[] {
  const wanted = new Set(ids);
  const out: ReceivedRequest[] = [];
  for (const r of requests) {
    if (wanted.size === 0) break;
    const fresh = deliveredEvents(r).filter((id) => wanted.delete(id));
    if (fresh.length > 0) out.push(r);
  }
  return out;
}

/** Passes `c` with each delivering request as its proof. */
function passDelivered(c: Checks, key: string, delivered: readonly ReceivedRequest[], what: string): void {
  for (const r of delivered.slice(0, PROOFS)) {
    c.pass(
      undefined,
      requestEvidence(r, key, {
        message:
          delivered.length === 1
            ? `the answer that delivered ${what}`
            : `one of the ${delivered.length} answers that delivered ${what}`,
      }),
    );
  }
}

/** The events a query of GET /events selects over the sender's events, or undefined when no query is read there. */
function selectedBy(r: ReceivedRequest, events: readonly EpcisEvent[]): string[] | undefined {
  try {
    return runOracle(events, parseQueryString(r.rawQuery).query as EventQuery).map(traceIdentity);
  } catch {
    return undefined;
  }
}

/** The events a query meant to select, read past its wire defects (support/wire.ts, meantQuery). */
function meantBy(r: ReceivedRequest, events: readonly EpcisEvent[]): string[] {
  try {
    return runOracle(events, meantQuery(r)).map(traceIdentity);
  } catch {
    return [];
  }
}

/**
 * The queries of GET /events that fail a wire requirement themselves (the key, the pipe, a repeated key, a time
 * bound), whatever the sender answered but 413: a refusal answers that defect, and an answer to a query written
 * wrong (a comma-joined list read as one value) may hold fewer events than the query meant. Either way its own
 * requirement fails it, and what the query meant to select and never reached the receiver is taken from the
 * receiver by that defect. Each with the events it meant to select and the requirements it fails.
 */
function wireDefects(
  requests: readonly ReceivedRequest[],
  session: { key: string; keyUsed(r: ReceivedRequest): boolean },
  events: readonly EpcisEvent[],
): { r: ReceivedRequest; selected: Set<string>; failed: string[] }[] {
  return requests
    .filter((r) => r.kind === "events" && r.exchange.status !== 413)
    .map((r) => ({ r, failed: wireFailures(r, session.key, session.keyUsed(r)) }))
    .filter(({ failed }) => failed.length > 0)
    .map(({ r, failed }) => ({ r, failed, selected: new Set(meantBy(r, events)) }));
}

/**
 * The events the sender held back from a query for the product that it answered: for each answered last page (a
 * 2xx without a next link) of a query that asks for the product, what the query selects over the sender's events
 * and that answer did not deliver, with that answer. The receiver asked for them and was answered without them; a
 * sender may match EPCs only as written (EVT-EPC-FORMS is a SHOULD), and what it left out is its own doing.
 */
function answeredShort(
  requests: readonly ReceivedRequest[],
  task: ReceiverTask,
  given: ReadonlySet<string>,
  events: readonly EpcisEvent[],
): Map<string, ReceivedRequest> {
  const out = new Map<string, ReceivedRequest>();
  for (const r of requests) {
    if (r.kind !== "events" || !answered(r) || nextPageOf(r) !== undefined) continue;
    if (!asksForProduct(r, task, given)) continue;
    const delivered = new Set(deliveredEvents(r));
    for (const id of selectedBy(r, events) ?? []) if (!delivered.has(id) && !out.has(id)) out.set(id, r);
  }
  return out;
}

/** The 413 refusals of GET /events (spec 7: a sender may refuse a query as too broad). */
function refusals(requests: readonly ReceivedRequest[]): ReceivedRequest[] {
  return requests.filter((r) => r.kind === "events" && r.exchange.status === 413);
}

/** The queries the resolver gave the receiver whole: the hrefs of epcis links, and redirects to a query interface. */
function givenQueries(requests: readonly ReceivedRequest[]): Set<string> {
  const out = new Set<string>();
  for (const r of requests) {
    for (const href of linksetHrefsOf(r, EPCIS_LINK)) out.add(href);
    const redirect = redirectOf(r);
    if (redirect !== undefined && isEventsPath(new URL(redirect).pathname)) out.add(redirect);
  }
  return out;
}

/**
 * Whether a query asks for the product: a MATCH_anyEPC or MATCH_anyEPCClass value is the task's identifier or
 * its product, or the query is exactly one the resolver gave the receiver. A refusal of such a query is the
 * sender's; a refusal of a broad query that names neither leaves the narrow one the receiver had unasked.
 */
function asksForProduct(r: ReceivedRequest, task: ReceiverTask, given: ReadonlySet<string>): boolean {
  if (given.has(r.normalized)) return true;
  const wanted = new Set([task.identifier, task.product].map(canonicalOrWritten));
  const { query } = parseQueryString(r.rawQuery);
  const values = [...(query.MATCH_anyEPC ?? []), ...(query.MATCH_anyEPCClass ?? [])];
  return values.some((v) => wanted.has(canonicalOrWritten(v)));
}

/**
 * The events held back behind pages the receiver was given and did not ask: for each answer whose Link rel="next"
 * no later request followed, what its query selects over the sender's events and no answer delivered, with that
 * answer. Spec 4.1 shows no paging and spec 8 no page size, so following a next link is RCV-PAGING's, a SHOULD.
 */
function heldBack(
  requests: readonly ReceivedRequest[],
  events: readonly EpcisEvent[],
  fetched: ReadonlySet<string>,
): Map<string, ReceivedRequest> {
  const out = new Map<string, ReceivedRequest>();
  for (const [i, r] of requests.entries()) {
    const next = r.kind === "events" ? nextPageOf(r) : undefined;
    if (next === undefined || requests.slice(i + 1).some((later) => later.normalized === next)) continue;
    for (const id of selectedBy(r, events) ?? []) if (!fetched.has(id) && !out.has(id)) out.set(id, r);
  }
  return out;
}

/**
 * RCV-PRODUCT-EVENTS: every event that names the task's identifier reached the receiver. Events the sender held
 * back are not the receiver's failure here: those behind a 413 refusal of a query that asked for the product
 * (RCV-413-NARROW judges the narrowing), and those on pages behind a next link it did not follow (RCV-PAGING).
 * Events behind a query for the product that the sender refused with another 4xx, where that very request fails
 * a wire requirement, are that requirement's one defect: this one is blocked by it.
 */
requirementTest("RCV-PRODUCT-EVENTS", "The product's own events are fetched", (c, ctx) => {
  const session = sessionOf(ctx);
  const { requests, key, task, events } = session;
  const own = new Set(
    [
      ...runOracle(events, { MATCH_anyEPC: [task.identifier] }),
      ...runOracle(events, { MATCH_anyEPCClass: [task.identifier] }),
    ].map(traceIdentity),
  );
  const fetched = fetchedEvents(requests);
  const missing = [...own].filter((id) => !fetched.has(id));
  // A 413 takes the decision away only where the receiver asked for the product and was refused: a refused broad
  // query leaves the narrow one it had (the lot's own epcis link) unasked, which is this requirement's failure.
  const given = givenQueries(requests);
  const refused = refusals(requests)
    .filter((r) => asksForProduct(r, task, given))
    .map((r) => ({ r, selected: new Set(selectedBy(r, events) ?? []) }))
    .filter(({ selected }) => missing.some((id) => selected.has(id)));
  const paged = heldBack(requests, events, fetched);
  const wire = wireDefects(requests, session, events);
  const byRefusal = missing.filter((id) => refused.some(({ selected }) => selected.has(id)));
  const byPaging = missing.filter((id) => !byRefusal.includes(id) && paged.has(id));
  const short = answeredShort(requests, task, given, events);
  const heldBySender = (id: string) => byRefusal.includes(id) || paged.has(id) || short.has(id);
  const byAnswer = missing.filter((id) => !byRefusal.includes(id) && !paged.has(id) && short.has(id));
  const byWire = missing.filter((id) => !heldBySender(id) && wire.some(({ selected }) => selected.has(id)));
  const unexplained = missing.filter((id) => !heldBySender(id) && !byWire.includes(id));
  if (missing.length === 0) {
    passDelivered(c, key, deliveries(requests, own), `the events of ${task.identifier}`);
    if (own.size === 0) c.pass(`the sender holds no event of ${task.identifier}`);
  } else if (unexplained.length === 0 && byWire.length > 0) {
    // Only the queries that meant these events explain their absence; another query's defect took nothing here.
    const meant = wire.filter(({ selected }) => byWire.some((id) => selected.has(id)));
    const first = meant[0]!;
    const failed = [...new Set(meant.flatMap((w) => w.failed))];
    c.failUnlessBlocked(
      failed,
      `${byWire.length} of the ${own.size} events of ${task.identifier} sat behind a query meant for them that the sender answered ${first.r.exchange.status} (${described(first.r, key)}), a request that fails ${first.failed.join(" and ")}`,
      requestEvidence(first.r, key, { missing: byWire.slice(0, SHOWN) }),
    );
  } else if (unexplained.length === 0) {
    const why: string[] = [];
    if (byRefusal.length > 0) {
      why.push(
        `${byRefusal.length} sat behind a query for them that the sender refused with 413 (${described(refused[0]!.r, key)}); whether the receiver would have fetched them is not known (RCV-413-NARROW judges the narrowing)`,
      );
    }
    if (byPaging.length > 0) {
      why.push(
        `${byPaging.length} sat on pages behind a next link the receiver did not follow (the answer to ${described(paged.get(byPaging[0]!)!, key)}); the spec shows no paging, and following it is RCV-PAGING's, a SHOULD`,
      );
    }
    if (byAnswer.length > 0) {
      why.push(
        `${byAnswer.length} were selected by a query for them that the sender answered, on its last page, without them (${described(short.get(byAnswer[0]!)!, key)}): the sender held them back, not the receiver (matching an EPC in its other forms is a SHOULD, EVT-EPC-FORMS, and a sender's filter is the events class's to judge)`,
      );
    }
    c.skip(
      `${missing.length} of the ${own.size} events of ${task.identifier} never reached the receiver, all held back by the sender: ${why.join("; ")}`,
    );
  } else {
    const broad = refusals(requests).filter((r) => !refused.some((x) => x.r === r));
    const refusedNote =
      broad.length > 0 && refused.length === 0
        ? ` The sender refused with 413 only queries that did not ask for ${task.identifier} (${described(broad[0]!, key)}), and the receiver never asked for it narrowly.`
        : "";
    const reason = `${unexplained.length} of the ${own.size} events that name ${task.identifier} never reached the receiver: ${few(unexplained)}.${refusedNote}`;
    const evidence = {
      missing: unexplained.slice(0, SHOWN),
      expected: own.size,
      actual: own.size - missing.length,
    };
    // Asked about only in requests the resolver refused for their spelling, the identifier's epcis link was never
    // given: that requirement's one defect takes the query away.
    const unresolved = unresolvedBySpelling(requests, task.identifier);
    if (unresolved === undefined) c.fail(reason, evidence);
    else {
      c.failUnlessBlocked(
        unresolved.failed,
        `${reason} The receiver asked the resolver for it only in requests that fail ${unresolved.failed.join(" or ")} (${described(unresolved.requests[0]!, key)}), and was given no href.`,
        evidence,
      );
    }
  }
});

/**
 * RCV-PRODUCT-MASTERDATA: the master data the product's link set offers was fetched at an href it gives. Where the
 * receiver built its master data paths, or asked for the product's link set only in requests that fail
 * RCV-RESOLVER-PATH or RCV-LINKSET and was given no href, the one defect is that requirement's, and this one is
 * blocked by it; where it never asked the resolver at all, the defect is RCV-CANONICAL-REBASE's.
 */
requirementTest("RCV-PRODUCT-MASTERDATA", "The product's master data is fetched", async (m, ctx) => {
  const { requests, key, task, built } = sessionOf(ctx);
  const hrefs = (await offersOf(ctx)).get(canonicalId(task.product)) ?? [];
  const fetch = fetchOf(requests, hrefs);
  const unresolved = unresolvedBySpelling(requests, task.product);
  if (hrefs.length === 0) m.skip(`the sender's link set of ${task.product} offers no master data`);
  else if (fetch !== undefined) {
    m.pass(
      `the master data of ${task.product} was fetched`,
      requestEvidence(fetch, key, { message: `the master data of ${task.product}` }),
    );
  } else if (built.length > 0) {
    m.blocked("RCV-MASTERDATA-HREF", "the receiver asked master data at paths of its own making");
  } else if (!requests.some((r) => r.kind === "resolver")) {
    // Never asking the resolver is RCV-CANONICAL-REBASE's one defect: the href was never given to the receiver.
    m.failUnlessBlocked(
      "RCV-CANONICAL-REBASE",
      `the receiver sent no request to the resolver, so it was never given the href of the master data of ${task.product}, offered at ${hrefs.join(", ")}.`,
      { expected: hrefs },
    );
  } else if (unresolved !== undefined) {
    m.failUnlessBlocked(
      unresolved.failed,
      `the receiver asked the resolver for ${task.product} only at ${unresolved.requests.map((r) => resolverPathOf(r)).join(", ")}, in requests that fail ${unresolved.failed.join(" or ")}, and was given no href of its master data, offered at ${hrefs.join(", ")}`,
      { expected: hrefs },
    );
  } else {
    m.fail(`the master data of ${task.product}, offered at ${hrefs.join(", ")}, was never fetched.`, {
      expected: hrefs,
    });
  }
});

/** RCV-TRACE-EVENTS: every event of the trace below the task reached the receiver. */
requirementTest("RCV-TRACE-EVENTS", "The whole trace below the product is fetched", (c, ctx) => {
  const { requests, key, task } = sessionOf(ctx);
  const fetched = fetchedEvents(requests);
  const missing = [...task.trace.events.keys()].filter((id) => !fetched.has(id));
  if (missing.length === 0) {
    passDelivered(c, key, deliveries(requests, task.trace.events.keys()), "the events of the trace");
    if (task.trace.events.size === 0) c.pass(`the trace below ${task.identifier} holds no event`);
  } else {
    c.fail(
      `${missing.length} of the ${task.trace.events.size} events of the trace below ${task.identifier} never reached the receiver: ${few(missing)}.`,
      {
        missing: missing.slice(0, SHOWN),
        expected: task.trace.events.size,
        actual: task.trace.events.size - missing.length,
      },
    );
  }
});

/** RCV-TRACE-MASTERDATA: the master data the link sets offer for what the trace names was fetched. */
requirementTest("RCV-TRACE-MASTERDATA", "The master data of the whole trace is fetched", async (m, ctx) => {
  const { requests, key, built } = sessionOf(ctx);
  const offered = [...(await offersOf(ctx))].filter(([, hrefs]) => hrefs.length > 0);
  const fetches = offered.map(([subject, hrefs]) => ({ subject, fetch: fetchOf(requests, hrefs) }));
  const unfetched = fetches.filter((f) => f.fetch === undefined).map((f) => f.subject);
  if (offered.length === 0) m.skip("the sender's link sets offer no master data for what the trace names");
  else if (unfetched.length === 0) {
    for (const { subject, fetch } of fetches.slice(0, PROOFS)) {
      m.pass(undefined, requestEvidence(fetch!, key, { message: `the master data of ${subject}` }));
    }
  } else if (built.length > 0) {
    m.blocked("RCV-MASTERDATA-HREF", "the receiver asked master data at paths of its own making");
  } else {
    m.fail(
      `the master data of ${unfetched.length} of the ${offered.length} products, locations and parties the trace names was never fetched: ${few(unfetched)}.`,
      {
        missing: unfetched.slice(0, SHOWN),
        expected: offered.length,
        actual: offered.length - unfetched.length,
      },
    );
  }
});

/** RCV-PAGING: every page an answer links to with rel="next" was asked afterwards. */
requirementTest("RCV-PAGING", "Paging is followed to the end", (c, ctx) => {
  const { requests, key } = sessionOf(ctx);
  let paged = 0;
  for (const [i, r] of requests.entries()) {
    if (r.kind !== "events") continue;
    const next = nextPageOf(r);
    if (next === undefined) continue;
    paged += 1;
    const asked = requests.slice(i + 1).find((later) => later.normalized === next);
    if (asked === undefined) {
      c.fail(`the answer to ${described(r, key)} links its next page, which the receiver never asked.`, {
        ...requestEvidence(r, key),
        expected: next,
      });
    } else if (paged > 1) {
      c.pass();
    } else {
      c.pass(undefined, requestEvidence(r, key, { message: "an answer that links its next page" }));
      c.pass(undefined, requestEvidence(asked, key, { message: "the receiver asked that page" }));
    }
  }
  if (paged === 0) c.skip("the sender paged no answer the receiver got");
});

/**
 * RCV-413-NARROW: after a query refused with 413, the events of the trace that query selects still reached the
 * receiver, through narrower queries.
 */
requirementTest("RCV-413-NARROW", "A 413 is answered by narrowing the query", (c, ctx) => {
  const { requests, key, task, events } = sessionOf(ctx);
  const refused = refusals(requests);
  if (refused.length === 0) {
    c.skip("the sender refused no query of the receiver with 413");
    return;
  }
  const fetched = fetchedEvents(requests);
  let proved = false;
  let vacuous: ReceivedRequest | undefined;
  for (const r of refused) {
    const selected = selectedBy(r, events);
    if (selected === undefined) {
      c.skip(`${described(r, key)} has a time bound no instant reads, so what it selects is not known`);
      continue;
    }
    const needed = selected.filter((id) => task.trace.events.has(id));
    const missing = needed.filter((id) => !fetched.has(id));
    if (missing.length > 0) {
      // Whether the receiver went on to narrower queries: then it narrowed, and not far enough.
      const later = requests.slice(requests.indexOf(r) + 1).filter((q) => q.kind === "events").length;
      const how =
        later === 0
          ? "it did not narrow the query"
          : `the ${later} queries of GET /events it sent after it did not fetch them`;
      c.fail(
        `${described(r, key)} was refused with 413 and ${missing.length} events of the trace it selects never reached the receiver: ${how} (narrow it further: fewer values at a time, smaller time windows).`,
        requestEvidence(r, key, { missing: missing.slice(0, SHOWN) }),
      );
    } else if (proved || needed.length === 0) {
      c.pass(`the ${needed.length} events of the trace behind a 413 were fetched`);
      vacuous ??= r;
    } else {
      proved = true;
      c.pass(
        `the ${needed.length} events of the trace behind a 413 were fetched`,
        requestEvidence(r, key, { message: "a query the sender refused with 413" }),
      );
      const delivered = deliveries(requests, needed).slice(0, PROOFS - 1);
      passDelivered(c, key, delivered, "the events of the trace the refused query selects");
    }
  }
  if (!proved && vacuous !== undefined) {
    c.pass(
      undefined,
      requestEvidence(vacuous, key, {
        message: "a query the sender refused with 413, which selects no event of the trace",
      }),
    );
  }
});
