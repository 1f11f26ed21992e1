// The events the harness knows the target holds (the baseline, src/target/baseline.ts), read once per run,
// with the value pools drawn from them.

import { type ServedDifferences, servedDifferences } from "../../../src/assertions/event-content.ts";
import type { RunContext } from "../../../src/engine/context.ts";
import { perRun } from "../../../src/engine/run-scope.ts";
import type { Checks } from "../../../src/engine/suite.ts";
import { canonicalJson, eventIdentity } from "../../../src/model/index.ts";
import type { EpcisEvent, EventQuery } from "../../../src/model/types.ts";
import type { Baseline } from "../../../src/target/baseline-file.ts";
import { baselineById, loadBaseline } from "../../../src/target/client.ts";
import { type ValuePools, valuePools } from "../../../src/target/pools.ts";
import { CandidateIndex } from "./candidates.ts";

export interface Known {
  /**
   * Events as the target serves them: one per identity, and then the further copies of an identity the repository
   * holds more than once (`copies`), so that the expected answer drawn from them holds it as often.
   */
  events: EpcisEvent[];
  /**
   * The identities the repository holds more than once, each with as many served copies as it holds: counted in the
   * loaded dataset when it is known (what the target was loaded with), else in the whole answer discovery read.
   */
  copies: ReadonlyMap<string, readonly EpcisEvent[]>;
  /** Whether `events` is the whole repository. */
  complete: boolean;
  /** How the baseline was obtained, for notes. */
  note: string;
  /** The events of --dataset, when given. */
  datasetEvents: EpcisEvent[] | undefined;
  byId: ReadonlyMap<string, EpcisEvent>;
  pools: ValuePools;
  /** The known events that can meet a query (a superset of what the oracle selects), for the oracle to run on. */
  candidates(q: EventQuery): readonly EpcisEvent[];
}

export const knownEvents = perRun((ctx: RunContext): Known => {
  const baseline = loadBaseline(ctx);
  const pools = valuePools(baseline.events);
  if (baseline.datasetEvents !== undefined) {
    const more = valuePools(baseline.datasetEvents).companyPrefixes;
    pools.companyPrefixes = [...new Set([...pools.companyPrefixes, ...more])].sort();
  }
  const copies = heldCopies(baseline);
  const events =
    copies.size === 0
      ? baseline.events
      : [...baseline.events, ...[...copies.values()].flatMap((c) => c.slice(1))];
  let index: CandidateIndex | undefined;
  return {
    events,
    copies,
    complete: baseline.complete,
    note: baseline.note,
    datasetEvents: baseline.datasetEvents,
    byId: baselineById(ctx),
    pools,
    candidates: (q) => {
      index ??= new CandidateIndex(events);
      return index.candidates(q);
    },
  };
});

function hasEventId(e: EpcisEvent): boolean {
  return typeof e.eventID === "string" && e.eventID !== "";
}

/** How many times each identity is found among the events, where it is more than once. */
function repeated(events: readonly EpcisEvent[]): Map<string, number> {
  const times = new Map<string, number>();
  for (const e of events) {
    const id = eventIdentity(e);
    times.set(id, (times.get(id) ?? 0) + 1);
  }
  for (const [id, n] of times) if (n < 2) times.delete(id);
  return times;
}

/**
 * The identities the repository holds more than once, with their served copies. The dataset, when given, says how
 * many times (a page repeated by the sender is not a copy it holds); discovery's whole answer says it otherwise, for
 * events without eventID. A copy held but served fewer times is stood for by the first served copy.
 */
function heldCopies(baseline: Baseline): Map<string, EpcisEvent[]> {
  const out = new Map<string, EpcisEvent[]>();
  const repeats = baseline.repeats ?? [];
  if (repeats.length === 0 && baseline.datasetEvents === undefined) return out;
  const served = [...baseline.events, ...repeats];
  // Without the dataset, only an event without eventID counts as a copy held: an eventID names one event, so its
  // repeat in discovery's answer is the sender serving it twice (paging that repeats an event), a defect.
  const counts = repeated(baseline.datasetEvents ?? served.filter((e) => !hasEventId(e)));
  if (counts.size === 0) return out;
  const copiesServed = new Map<string, EpcisEvent[]>();
  for (const e of served) {
    const id = eventIdentity(e);
    if (!counts.has(id)) continue;
    const found = copiesServed.get(id);
    if (found === undefined) copiesServed.set(id, [e]);
    else found.push(e);
  }
  for (const [id, n] of counts) {
    const found = copiesServed.get(id);
    if (found === undefined) continue;
    out.set(
      id,
      Array.from({ length: n }, (_, i) => found[i] ?? found[0]!),
    );
  }
  return out;
}

/** Records a skip and returns true when the target's events are unknown, so that no check compares against nothing. */
export function skipWithoutEvents(checks: Checks, k: Known): boolean {
  if (k.events.length > 0) return false;
  checks.skip(`the harness knows no event of the target (${k.note})`);
  return true;
}

/**
 * The events of a live answer that two answers can be compared on: with a whole baseline, those it holds, since an
 * event it lacks was added after it was read and may be in one answer and not in another asked before
 * (ARCHITECTURE.md: events first seen late are neither missing nor unexpected); with a partial one, all of them.
 */
export function settled(k: Known, events: readonly EpcisEvent[]): readonly EpcisEvent[] {
  if (!k.complete || events.every((e) => k.byId.has(eventIdentity(e)))) return events;
  return events.filter((e) => k.byId.has(eventIdentity(e)));
}

/** What a pass note adds when the baseline is partial: an oracle over part of the events cannot ask for equality. */
export function partialNote(k: Known): string {
  return k.complete
    ? ""
    : "; the baseline is partial, so only checked that every expected event is answered and every answered event meets the query";
}

/**
 * How a served event differs from what is known of it (EVT-SHAPE-CONTENT, EVT-SHAPE-PRECISION): from the one copy
 * discovered, or, for an identity the repository holds more than once, from the copy it differs least from (nothing
 * when it matches any of them); undefined as well for an event not discovered, which there is nothing to compare with.
 */
export function heldDifferences(k: Known, served: EpcisEvent): ServedDifferences | undefined {
  const id = eventIdentity(served);
  const held = k.copies.get(id);
  if (held !== undefined) return closest(held.map((copy) => servedDifferences(copy, served)));
  const earlier = k.byId.get(id);
  return earlier === undefined ? undefined : servedDifferences(earlier, served);
}

/** Of the differences from each copy: none when some copy has none, else one without a change of content, else the first. */
export function closest<D extends ServedDifferences>(found: readonly (D | undefined)[]): D | undefined {
  if (found.some((d) => d === undefined)) return undefined;
  return found.find((d) => d?.content === undefined) ?? found[0];
}

/**
 * The events of the union or the intersection of answers, in the order first seen, each identity once; an identity
 * the repository holds more than once is counted copy by copy instead (a copy told from another by its content, its
 * own recordTime among it), as many times as the answer holding that copy most (union) or least (intersection) holds
 * it, so that two copies each meeting one part of a query are not taken for one event meeting both.
 */
export function combinedEvents(
  k: Known,
  parts: readonly (readonly EpcisEvent[])[],
  combine: "union" | "intersection",
): EpcisEvent[] {
  const key = (e: EpcisEvent) => {
    const id = eventIdentity(e);
    return k.copies.has(id) ? `${id} ${canonicalJson(e)}` : id;
  };
  const firstSeen = new Map<string, EpcisEvent>();
  const counts = parts.map((events) => {
    const times = new Map<string, number>();
    for (const e of events) {
      const c = key(e);
      times.set(c, (times.get(c) ?? 0) + 1);
      if (!firstSeen.has(c)) firstSeen.set(c, e);
    }
    return times;
  });
  const out: EpcisEvent[] = [];
  for (const [c, e] of firstSeen) {
    const held = counts.map((times) => times.get(c) ?? 0);
    const times = combine === "union" ? Math.max(...held) : Math.min(...held);
    const copies = k.copies.has(eventIdentity(e)) ? times : Math.min(times, 1);
    for (let i = 0; i < copies; i += 1) out.push(e);
  }
  return out;
}
