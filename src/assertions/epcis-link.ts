// What following an epcis link shows about an identifier (spec 4.2: "gs1:epcis Returns a link to the EPCIS query
// interface for the requested identifier"), judged against the events the harness knows: the answer must be about
// the identifier, hold the events its query must select, and hold some event of the identifier at all. A pass is
// a claim, so an answer that holds none of the identifier's events passes nothing: it fails where the link was the
// sender's own query and the harness knows events of the identifier that a query for it can select (for a product,
// those holding one of its classes: no query selects its serialised items by the GTIN), and is inconclusive
// otherwise. A wrong answer to a query that selects by the identifier alone is the query interface's: the failure
// names the requirements of GET /events that explain it, and stands only where none of them failed (blockers.ts).

import type { Evidence } from "../engine/types.ts";
import type { PathForm } from "../model/index.ts";
import { type EpcisEvent, type EventQuery, eventIdentity, gtinOf } from "../model/index.ts";
import { identifiersOf } from "../target/baseline.ts";
import { type EventsRequest, eventsRequest, type LinkedEvents } from "../target/follow.ts";
import { needsEscaping } from "../target/pools.ts";
import { answerExplainedBy, queryOf, selectsIdentifierAlone } from "./blockers.ts";
import { eventsAbout, mentions, requiredEvents, type WrittenQuery, writtenQuery } from "./concerns.ts";
import { compareEventSets, describeComparison } from "./event-sets.ts";
import { mayBeRefusedAsBroad } from "./narrow-query.ts";

/** The request a receiver makes from an epcis href, and what the harness knows to expect of its answer. */
export interface EpcisLinkPlan {
  form: PathForm;
  uri: string;
  href: string;
  request: EventsRequest;
  /** The query the harness would ask the query interface for the identifier, as the events write it. */
  written?: WrittenQuery;
  /** The harness wrote the query, in a spelling no event writes: a sender may refuse it or answer nothing. */
  probe: boolean;
  /** How the link is named in verdicts. */
  about: string;
}

export function planEpcisLink(
  form: PathForm,
  uri: string,
  href: string,
  events: readonly EpcisEvent[],
): EpcisLinkPlan {
  // A party's link leads to the whole repository (spec 1, step 2), so the harness adds no query to it.
  const written = form === "417" ? undefined : writtenQuery(form, uri, events);
  const request = eventsRequest(href, written?.query);
  const plan: EpcisLinkPlan = {
    form,
    uri,
    href,
    request,
    probe: request.queried && written?.asWritten === false,
    about: request.queried
      ? `the epcis link of ${uri} (${href}, the query interface, asked ${request.url})`
      : `the epcis link of ${uri} (${href})`,
  };
  if (written !== undefined) plan.written = written;
  return plan;
}

/**
 * What one followed epcis link decides: a failure, a pass with its note, or nothing (why, for the verdict). A
 * failure the query interface's defect would explain names the requirements of GET /events that judge it
 * (`explainedBy`), which block it where one of them failed, if the link leads to the target's own GET /events.
 */
export type EpcisLinkOutcome =
  | {
      kind: "fail";
      reason: string;
      evidence: Partial<Evidence>;
      explainedBy?: string[];
      /**
       * The events lacking hold the identifier in another spelling than the link asks: they explain the failure
       * only if GET /events leaves them out of `query` too, the identifier as they write it (explainedAsWritten).
       */
      recheck?: { query: EventQuery; lacking: EpcisEvent[] };
    }
  | { kind: "pass"; note: string }
  | { kind: "inconclusive"; note: string };

const MATCH_ONLY_AS_WRITTEN =
  "the query names the identifier in its canonical form, which none of the target's events writes, and a sender may match only as written";

/**
 * Whether the events an answer lacks are the query interface's to answer: the query as asked selects each of them
 * as written, or a value of it needs percent-encoding, which a server that decodes it wrongly reads as another
 * value. Where the link names the identifier in a spelling the lacking events do not write, and no encoding is at
 * stake, the spelling is the link's: a sender may match identifiers only as written (EVT-EPC-FORMS, a SHOULD).
 */
export function interfaceOwes(
  asked: EventQuery,
  lacking: readonly EpcisEvent[],
  events: readonly EpcisEvent[],
): boolean {
  const selects = new Set(requiredEvents(events, asked).map(eventIdentity));
  if (lacking.every((e) => selects.has(eventIdentity(e)))) return true;
  return Object.values(asked).some((v) => Array.isArray(v) && v.some(needsEscaping));
}

/** Judges the answer an epcis link led to, against the events the harness knows the target holds. */
export function judgeEpcisLink(
  plan: EpcisLinkPlan,
  linked: LinkedEvents,
  events: readonly EpcisEvent[],
): EpcisLinkOutcome {
  const { about, request } = plan;
  const asked: EventQuery = request.repository ? {} : queryOf(request.url);
  const byIdentifier = selectsIdentifierAlone(asked, plan.uri);
  /** The requirements of GET /events that explain a wrong answer, where the query selects by the identifier alone. */
  const explained = (lacking?: readonly EpcisEvent[]) =>
    byIdentifier ? { explainedBy: answerExplainedBy(asked, lacking) } : {};
  if (linked.kind === "refused") {
    if (mayBeRefusedAsBroad(request)) {
      return {
        kind: "inconclusive",
        note: `${about} was refused with 413 as too broad (allowed for ${request.repository ? "the whole repository" : "a query that is not narrow"}), so it shows no event`,
      };
    }
    // Whether a narrow query may be refused is EVT-413-NARROW's to judge (spec 8: the threshold is not a stated
    // number, so one lot that is really large may be): the link led to the right query, which shows no event.
    return {
      kind: "inconclusive",
      note: `${about} was refused with 413 for a narrow query, which EVT-413-NARROW judges, so it shows no event`,
    };
  }
  if (linked.kind === "rejected" && plan.probe) {
    return {
      kind: "inconclusive",
      note: `${about} was refused with ${linked.status}: ${MATCH_ONLY_AS_WRITTEN}`,
    };
  }
  if (linked.kind === "rejected" && request.repository) {
    // Spec 7 shows no status but 413 for a query too broad to run; how a sender refuses the unfiltered query is
    // EVT-UNFILTERED's to judge.
    return {
      kind: "inconclusive",
      note: `${about} names the whole repository, which refused the unfiltered query with ${linked.status} (EVT-UNFILTERED)`,
    };
  }
  if (linked.kind === "rejected" || linked.kind === "throttled" || linked.kind === "broken") {
    const message =
      linked.kind === "broken" ? linked.message : `${request.url} answered status ${linked.status}`;
    const reason = `${about} does not answer as a query interface: ${message}`;
    // Pages that break off or go round are EVT-PAGING's; a query for the identifier refused is its filter's.
    if (linked.kind === "broken" && linked.paging === true) {
      return { kind: "fail", reason, evidence: {}, explainedBy: ["EVT-PAGING"] };
    }
    return { kind: "fail", reason, evidence: {}, ...(linked.kind === "rejected" ? explained() : {}) };
  }
  // A party's link, or one naming the repository with no query to ask it, leads to the sender's repository
  // (spec 1, step 2): any query document will do.
  if (plan.form === "417" || request.repository) {
    return { kind: "pass", note: `${about} answered ${linked.events.length} events of the repository` };
  }
  const unrelated = linked.events.filter((e) => !mentions(e, plan.uri));
  if (unrelated.length > 0) {
    return {
      kind: "fail",
      reason: `${about} answered ${unrelated.length} event(s) that do not mention the identifier`,
      evidence: { expected: `events naming ${plan.uri}`, extra: unrelated.map(eventIdentity).slice(0, 20) },
      ...explained(),
    };
  }
  // A product's link of the sender's own may select any part of the product's events (spec 4.2 names no query for
  // it); one the harness asks for the GTIN must answer what the GTIN's class pattern selects.
  if (plan.written !== undefined && (request.queried || plan.form !== "01")) {
    // Only the events that hold the identifier as the query writes it are required: one holding another spelling
    // of it is EVT-EPC-FORMS' and its kin's (SHOULD).
    const required = requiredEvents(events, plan.written.query);
    const comparison = compareEventSets(required, linked.events);
    if (comparison.missing.length > 0) {
      const missing = new Set(comparison.missing);
      const lacking = required.filter((e) => missing.has(eventIdentity(e)));
      const owes = byIdentifier && interfaceOwes(asked, lacking, events);
      return {
        kind: "fail",
        reason: `${about} left out events the harness knows hold the identifier as asked: ${describeComparison({ ...comparison, extra: [], duplicated: [] })}`,
        evidence: { expected: plan.written.query, missing: comparison.missing.slice(0, 20) },
        ...(owes ? explained(lacking) : {}),
        ...(!owes && byIdentifier ? { recheck: { query: plan.written.query, lacking } } : {}),
      };
    }
  }
  if (linked.events.length > 0) {
    return {
      kind: "pass",
      note: `${about} answered ${linked.events.length} events, all about the identifier`,
    };
  }
  const known = eventsAbout(plan.form, plan.uri, events);
  const owed = owedBySendersLink(plan, asked, known, events);
  if (owed.length > 0 && !request.queried) {
    // The sender wrote the query: a link "for the requested identifier" that selects none of the events it owes
    // leads a receiver nowhere. Where its query selects some as written, the query interface left them out.
    const selected = byIdentifier ? requiredEvents(events, asked) : [];
    return {
      kind: "fail",
      reason: `${about} answered no event, but the target holds ${owed.length} about the identifier that a query for it can select`,
      evidence: {
        expected: `events about ${plan.uri}`,
        missing: owed.map(eventIdentity).slice(0, 20),
      },
      ...(selected.length > 0 ? explained(selected) : {}),
    };
  }
  const why = plan.probe
    ? MATCH_ONLY_AS_WRITTEN
    : known.length === 0
      ? "the harness knows no event about the identifier"
      : plan.form === "01" && owed.length === 0
        ? `the ${known.length} event(s) the harness knows about the product hold only its serialised items, which no query for the GTIN selects (spec 4.1: MATCH_anyEPC takes URIs, not patterns)`
        : `the query the harness could write for it selects none of the ${known.length} event(s) it knows about the identifier`;
  return { kind: "inconclusive", note: `${about} answered no event: ${why}` };
}

/**
 * The events a sender's own epcis link, answering none, shows it left out. For a lot, serial, container or
 * location, every event about the identifier: one parameter of spec 4.1 selects them all. For a product, only the
 * GTIN's events that hold one of its classes (a quantity list), which its class pattern selects (MATCH_anyEPCClass,
 * "patterns or URIs"), and those the link's own query selects as written: MATCH_anyEPC takes "URIs" only, so no
 * query selects a GTIN's serialised items by the GTIN, and a link may lead to any part of the product's events.
 */
function owedBySendersLink(
  plan: EpcisLinkPlan,
  asked: EventQuery,
  known: readonly EpcisEvent[],
  events: readonly EpcisEvent[],
): EpcisEvent[] {
  if (plan.form !== "01") return [...known];
  const gtin = gtinOf(plan.uri);
  const own = Object.keys(asked).length > 0 ? requiredEvents(events, asked) : [];
  const selected = new Set(own.map(eventIdentity));
  return known.filter(
    (e) => selected.has(eventIdentity(e)) || identifiersOf(e).classes.some((c) => gtinOf(c) === gtin),
  );
}
