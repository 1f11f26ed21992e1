// Trace-back as a receiver performs it (spec 1): from a product, query GET /events for each identifier that
// leads back (aggregation parents and children, transformation inputs) until no new identifier appears or the
// bound is reached. The walk is deterministic for the same answers, so the same walk over the oracle tells what
// the target's walk must reach. Each identifier is asked as the events write it, every spelling of it apart: the
// spec states form equivalence (URN and Digital Link) for bizStep alone, so a sender may match an EPC or a class
// only as written, and the oracle's walk expects of it only the events that hold the value asked exactly.

import type { Evidence } from "../engine/types.ts";
import { type EpcisEvent, type EventQuery, eventIdentity, runOracle } from "../model/index.ts";

export type HopParameter = "MATCH_anyEPC" | "MATCH_anyEPCClass";

/** One query of the walk: a single identifier, as the event that led to it spells it. */
export interface Hop {
  parameter: HopParameter;
  value: string;
}

/** A hop's answer: its events, a 413 refusal (inconclusive, spec 7), or a failure. */
export type HopAnswer =
  | { kind: "events"; events: EpcisEvent[] }
  | { kind: "refused"; evidence: Evidence }
  | { kind: "failed"; reason: string; evidence: Evidence };

export type AskHop = (hop: Hop) => Promise<HopAnswer>;

export interface TraceResult {
  /** Events reached, by identity, in the order first reached. */
  reached: Map<string, EpcisEvent>;
  /** Identities of reached events with no further inputs: the events that brought their objects into being. */
  firstEvents: string[];
  hops: number;
  /** The hops asked (keyed as hopKey). */
  asked: Set<string>;
  /** The walk stopped at the bound with identifiers left to follow. */
  bounded: boolean;
  /** Hops refused with 413 (keyed as hopKey): the walk goes on without what lies behind them. */
  refused: Map<string, { hop: Hop; evidence: Evidence }>;
  failed?: { hop: Hop; reason: string; evidence: Evidence };
}

export function hopQuery(hop: Hop): EventQuery {
  return { [hop.parameter]: [hop.value] };
}

/** A hop as asked: the parameter and the value exactly as written (a URN and its Digital Link are two hops). */
export function hopKey(hop: Hop): string {
  return `${hop.parameter} ${hop.value}`;
}

function epcsHeld(e: EpcisEvent): string[] {
  return [
    ...(e.epcList ?? []),
    ...(e.childEPCs ?? []),
    ...(typeof e.parentID === "string" ? [e.parentID] : []),
    ...(e.inputEPCList ?? []),
    ...(e.outputEPCList ?? []),
  ];
}

function classesHeld(e: EpcisEvent): unknown[] {
  return [
    ...(e.quantityList ?? []),
    ...(e.childQuantityList ?? []),
    ...(e.inputQuantityList ?? []),
    ...(e.outputQuantityList ?? []),
  ].map((q) => q.epcClass);
}

/**
 * Whether an event holds the query's EPC, class and business location values exactly as the query writes them
 * (each parameter present: one of its values). What a sender that matches identifiers only as written must
 * select; another spelling of the same identifier selecting it too is EVT-EPC-FORMS' and its kin's (SHOULD).
 */
export function holdsAsWritten(e: EpcisEvent, q: EventQuery): boolean {
  const among = (values: readonly string[] | undefined, held: readonly unknown[]) =>
    values === undefined || values.some((v) => held.includes(v));
  return (
    among(q.MATCH_anyEPC, epcsHeld(e)) &&
    among(q.MATCH_anyEPCClass, classesHeld(e)) &&
    among(q.EQ_bizLocation, [e.bizLocation?.id])
  );
}

/** The events of `events` a query selects that hold its identifiers as written (holdsAsWritten). */
export function selectedAsWritten(events: readonly EpcisEvent[], q: EventQuery): EpcisEvent[] {
  return runOracle(events, q).filter((e) => holdsAsWritten(e, q));
}

const epcHops = (values: readonly string[] | undefined): Hop[] =>
  (values ?? []).map((value) => ({ parameter: "MATCH_anyEPC", value }));

const classHops = (list: EpcisEvent["quantityList"]): Hop[] =>
  (list ?? []).map((q) => ({ parameter: "MATCH_anyEPCClass", value: q.epcClass }));

/**
 * The identifiers that lead back from an event: a transformation's inputs (not its outputs, which lead
 * forward), an aggregation's parent and children, and otherwise the objects the event is about.
 */
export function hopsBackFrom(e: EpcisEvent): Hop[] {
  const parent = typeof e.parentID === "string" ? [e.parentID] : [];
  if (e.type === "TransformationEvent") {
    return [...epcHops(e.inputEPCList), ...classHops(e.inputQuantityList)];
  }
  if (e.type === "AggregationEvent") {
    return [...epcHops(parent), ...epcHops(e.childEPCs), ...classHops(e.childQuantityList)];
  }
  return [...epcHops(e.epcList), ...classHops(e.quantityList), ...epcHops(parent), ...epcHops(e.childEPCs)];
}

/** An event with no further inputs: it commissions its objects (ADD) or transforms nothing into them. */
export function isFirstEvent(e: EpcisEvent): boolean {
  if (e.type === "ObjectEvent") return e.action === "ADD";
  if (e.type === "TransformationEvent") {
    return (e.inputEPCList ?? []).length === 0 && (e.inputQuantityList ?? []).length === 0;
  }
  return false;
}

/**
 * Walks back from the start hops, level by level. Each level's hops are asked together in the order of their
 * keys, so that equal answers give equal walks; at most `maxHops` queries are made.
 */
export async function traceBack(start: readonly Hop[], ask: AskHop, maxHops: number): Promise<TraceResult> {
  const result: TraceResult = {
    reached: new Map(),
    firstEvents: [],
    hops: 0,
    asked: new Set(),
    bounded: false,
    refused: new Map(),
  };
  const asked = result.asked;
  let level = [...start];
  while (level.length > 0) {
    const fresh = new Map<string, Hop>();
    for (const hop of level) {
      const key = hopKey(hop);
      if (!asked.has(key) && !fresh.has(key)) fresh.set(key, hop);
    }
    const ordered = [...fresh.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const room = maxHops - result.hops;
    if (ordered.length > room) result.bounded = true;
    const now = ordered.slice(0, Math.max(room, 0));
    if (now.length === 0) break;
    for (const [key] of now) asked.add(key);
    result.hops += now.length;
    const answers = await Promise.all(now.map(([, hop]) => ask(hop)));
    const next: Hop[] = [];
    for (const [i, answer] of answers.entries()) {
      const hop = now[i]![1];
      if (answer.kind === "failed") {
        result.failed ??= { hop, reason: answer.reason, evidence: answer.evidence };
        continue;
      }
      if (answer.kind === "refused") {
        result.refused.set(hopKey(hop), { hop, evidence: answer.evidence });
        continue;
      }
      for (const e of answer.events) {
        const id = eventIdentity(e);
        if (result.reached.has(id)) continue;
        result.reached.set(id, e);
        if (isFirstEvent(e)) result.firstEvents.push(id);
        next.push(...hopsBackFrom(e));
      }
    }
    if (result.failed) break;
    level = next;
  }
  return result;
}

/**
 * The oracle's walk as the target's walk went: a hop the target refused with 413 is refused here too (a 413 is
 * inconclusive, never a failure), and a hop the target never asked leads nowhere, so that only what lies behind
 * the target's own queries is expected of it. A walk cut at its bound asks the hops of its last level that sort
 * first; a target that answers more than the oracle (another spelling of an EPC matched too, a class pattern
 * expanded, events the harness does not know) finds more identifiers, and so cuts elsewhere than the oracle's walk
 * would: the spec sets no depth or order of a trace-back (spec 1), so what a query it did not make would have
 * answered is not held against it. Where the target's walk was not cut this expects no less than the oracle's
 * whole walk: a hop it did not ask leads only from an event it missed, and missing that is found first.
 */
export function alongWalk(ask: AskHop, actual: Pick<TraceResult, "asked" | "refused">): AskHop {
  return async (hop) => {
    const key = hopKey(hop);
    const seen = actual.refused.get(key);
    if (seen !== undefined) return { kind: "refused", evidence: seen.evidence };
    return actual.asked.has(key) ? ask(hop) : { kind: "events", events: [] };
  };
}

function few(ids: readonly string[], limit = 3): string {
  return ids.slice(0, limit).join(", ") + (ids.length > limit ? ", …" : "");
}

/**
 * FLOW-TRACEBACK: every hop was answered and the target's walk reached every event the same walk reaches over
 * the events the harness knows. Extra events are not judged here: a partial baseline may lack them.
 */
export function traceProblem(actual: TraceResult, expected: TraceResult): Evidence | undefined {
  if (actual.failed) {
    const { hop, reason, evidence } = actual.failed;
    return {
      ...evidence,
      message: `the trace-back hop ${hop.parameter}=${hop.value} was not answered: ${reason}`,
      expected: "an EPCIS query document with the events of the identifier",
    };
  }
  const missing = [...expected.reached.keys()].filter((id) => !actual.reached.has(id));
  if (missing.length === 0) return undefined;
  const firstMissing = expected.firstEvents.filter((id) => !actual.reached.has(id));
  return {
    message:
      `the trace-back did not reach ${missing.length} of the ${expected.reached.size} events it leads to (${few(missing)})` +
      (firstMissing.length > 0 ? `, ${firstMissing.length} of them first events` : ""),
    expected: { events: expected.reached.size, firstEvents: expected.firstEvents.length },
    actual: { events: actual.reached.size, firstEvents: actual.firstEvents.length, hops: actual.hops },
    missing,
  };
}
