// The events the harness knows the target holds (the baseline, src/target/baseline.ts), read once per run,
// with the value pools drawn from them.
import type { RunContext } from "../../../src/engine/context.ts";
import { perRun } from "../../../src/engine/run-scope.ts";
import type { Checks } from "../../../src/engine/suite.ts";
import { eventIdentity } from "../../../src/model/index.ts";
import type { EpcisEvent, EventQuery } from "../../../src/model/types.ts";
import { baselineById, loadBaseline } from "../../../src/target/client.ts";
import { type ValuePools, valuePools } from "../../../src/target/pools.ts";
import { CandidateIndex } from "./candidates.ts";

export interface Known {
  /** Events as the target serves them, one per identity. */
  events: EpcisEvent[];
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
  let index: CandidateIndex | undefined;
  return {
    events: baseline.events,
    complete: baseline.complete,
    note: baseline.note,
    datasetEvents: baseline.datasetEvents,
    byId: baselineById(ctx),
    pools,
    candidates: (q) => {
      index ??= new CandidateIndex(baseline.events);
      return index.candidates(q);
    },
  };
});

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
