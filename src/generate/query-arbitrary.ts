// Queries on GET /events drawn from a baseline of events (spec 4.1): values taken from the events (in every
// spelling that names the same thing), values that match nothing, single parameters, AND-combinations and
// pipe-joined alternatives. What a query should return is the oracle's business, not this module's.
import fc from "fast-check";
import type {
  EpcisEvent,
  EventQuery,
  Instant,
  ListParameter,
  QuantityElement,
  TimeParameter,
} from "../model/index.ts";
import {
  addUnits,
  bizStepForms,
  CANONICAL_DL_BASE,
  CLASS_LISTS,
  canonicalBizStep,
  canonicalId,
  compareInstants,
  EPC_FIELDS,
  formatDigitalLink,
  formatInstant,
  fractionDigitsOf,
  gtinOf,
  parseInstant,
} from "../model/index.ts";
import { NO_MATCH } from "./no-match.ts";
import { TIME_OFFSETS } from "./vocabulary.ts";

// Enough events to see every kind of value, few enough that building the pools stays cheap for huge baselines.
const MAX_BASELINE = 5000;

const LGTIN = /^urn:epc:class:lgtin:(\d+)\.(\d+)\./;
const BARE_STEP = /^[A-Za-z0-9_-]+$/;

/** Every spelling seen for one identity, plus its canonical Digital Link. */
class Spellings {
  private readonly byIdentity = new Map<string, Set<string>>();

  add(value: unknown): void {
    if (typeof value !== "string" || value === "" || value.includes("|")) return;
    const identity = canonicalId(value);
    let set = this.byIdentity.get(identity);
    if (set === undefined) {
      set = new Set([identity].filter((v) => !v.includes("|")));
      this.byIdentity.set(identity, set);
    }
    set.add(value);
  }

  identities(): string[] {
    return [...this.byIdentity.keys()];
  }

  values(): string[] {
    return [...this.byIdentity.values()].flatMap((s) => [...s]);
  }
}

interface Pools {
  epcs: Map<string, Spellings>;
  classes: Map<string, Spellings>;
  bizSteps: Set<string>;
  bizLocations: Spellings;
  readPoints: Spellings;
  transformationIds: Set<string>;
  eventTimes: string[];
  recordTimes: string[];
}

function baseline(events: readonly EpcisEvent[]): readonly EpcisEvent[] {
  if (events.length <= MAX_BASELINE) return events;
  const step = events.length / MAX_BASELINE;
  return Array.from({ length: MAX_BASELINE }, (_, i) => events[Math.floor(i * step)] as EpcisEvent);
}

function asList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  return v === undefined ? [] : [v];
}

function idOf(v: unknown): unknown {
  return typeof v === "object" && v !== null ? (v as { id?: unknown }).id : undefined;
}

function collect(events: readonly EpcisEvent[]): Pools {
  const pools: Pools = {
    epcs: new Map(EPC_FIELDS.map((f) => [f, new Spellings()])),
    classes: new Map(CLASS_LISTS.map((f) => [f, new Spellings()])),
    bizSteps: new Set(),
    bizLocations: new Spellings(),
    readPoints: new Spellings(),
    transformationIds: new Set(),
    eventTimes: [],
    recordTimes: [],
  };
  for (const e of baseline(events)) {
    for (const f of EPC_FIELDS) for (const v of asList(e[f])) pools.epcs.get(f)?.add(v);
    for (const f of CLASS_LISTS) {
      for (const q of asList(e[f])) pools.classes.get(f)?.add((q as QuantityElement | null)?.epcClass);
    }
    if (typeof e.bizStep === "string") pools.bizSteps.add(e.bizStep);
    pools.bizLocations.add(idOf(e.bizLocation));
    pools.readPoints.add(idOf(e.readPoint));
    if (typeof e.transformationID === "string" && !e.transformationID.includes("|")) {
      pools.transformationIds.add(e.transformationID);
    }
    if (typeof e.eventTime === "string") pools.eventTimes.push(e.eventTime);
    if (typeof e.recordTime === "string") pools.recordTimes.push(e.recordTime);
  }
  return pools;
}

/** Class values plus the patterns that select them: CP.IR.* and CP.*.* and the GTIN's own Digital Link. */
function classValues(spellings: Spellings): string[] {
  const out = new Set(spellings.values());
  for (const v of spellings.values()) {
    const m = LGTIN.exec(v);
    if (m) {
      out.add(`urn:epc:idpat:sgtin:${m[1]}.${m[2]}.*`);
      out.add(`urn:epc:idpat:sgtin:${m[1]}.*.*`);
    }
  }
  for (const identity of spellings.identities()) {
    const gtin = gtinOf(identity);
    if (gtin !== undefined) out.add(formatDigitalLink(CANONICAL_DL_BASE, [{ ai: "01", value: gtin }]));
  }
  return [...out];
}

function bizStepValues(written: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const value of written) {
    const bare = canonicalBizStep(value);
    if (BARE_STEP.test(bare)) {
      const forms = bizStepForms(bare);
      out.add(forms.short).add(forms.urn).add(forms.webUri);
    } else {
      out.add(value);
    }
  }
  return [...out];
}

function element<T>(items: readonly T[]): fc.Arbitrary<T> {
  return fc.integer({ min: 0, max: items.length - 1 }).map((i) => items[i] as T);
}

interface ValuePool {
  arbitrary: fc.Arbitrary<string>;
  /** How many distinct values it can give: a list parameter cannot hold more distinct values than that. */
  distinct: number;
}

/** Draws from the non-empty pools, three times as often as from the values that match nothing. */
function drawn(pools: readonly (readonly string[])[], nothing: readonly string[]): ValuePool {
  const present = pools.filter((p) => p.length > 0).map((p) => ({ weight: 3, arbitrary: element(p) }));
  return {
    arbitrary: fc.oneof(...present, { weight: 1, arbitrary: element(nothing) }),
    distinct: new Set([...pools.flat(), ...nothing]).size,
  };
}

interface ParsedTime {
  instant: Instant;
  digits: number;
}

function parsedTimes(times: readonly string[]): ParsedTime[] {
  return times.flatMap((t) => {
    try {
      return [{ instant: parseInstant(t), digits: fractionDigitsOf(t) }];
    } catch {
      return [];
    }
  });
}

/** An instant written at one of the offsets, with at least `pad` fractional digits: the same instant. */
function writtenAt(instant: Instant, offset: string, pad: number): string {
  return formatInstant(instant, { offset, fractionDigits: pad });
}

/**
 * A GE and LT window whose bounds are the instants of two events of the baseline, each written at one of the
 * offsets: an event lies exactly at each bound, where GE keeps it and LT does not (spec 4.1). Undefined when the
 * baseline holds fewer than two instants.
 */
function windowAtEvents(times: readonly string[]): fc.Arbitrary<EventQuery> | undefined {
  const distinct = parsedTimes(times)
    .sort((a, b) => compareInstants(a.instant, b.instant))
    .filter((t, i, all) => i === 0 || compareInstants(all[i - 1]!.instant, t.instant) !== 0);
  if (distinct.length < 2) return undefined;
  const bound = fc.record({ offset: element(TIME_OFFSETS), pad: fc.integer({ min: 0, max: 9 }) });
  return fc
    .tuple(
      fc.uniqueArray(fc.integer({ min: 0, max: distinct.length - 1 }), { minLength: 2, maxLength: 2 }),
      bound,
      bound,
    )
    .map(([indices, ge, lt]) => {
      const [from, to] = [...indices].sort((a, b) => a - b) as [number, number];
      return {
        GE_eventTime: writtenAt(distinct[from]!.instant, ge.offset, ge.pad),
        LT_eventTime: writtenAt(distinct[to]!.instant, lt.offset, lt.pad),
      };
    });
}

// An instant from the baseline, written at another offset and precision, or one unit of the written precision
// to either side of it: the values where strict and inclusive bounds differ (spec 4.1).
function timeValue(times: readonly string[]): fc.Arbitrary<string> {
  const parsed = parsedTimes(times);
  const fromEvents =
    parsed.length === 0
      ? []
      : [
          {
            weight: 4,
            arbitrary: fc
              .record({
                at: element(parsed),
                shift: fc.constantFrom(0n, 0n, -1n, 1n),
                offset: element(TIME_OFFSETS),
                pad: fc.integer({ min: 0, max: 9 }),
              })
              .map(({ at, shift, offset, pad }) => {
                const instant = shift === 0n ? at.instant : addUnits(at.instant, shift, at.digits);
                return writtenAt(instant, offset, pad);
              }),
          },
        ];
  return fc.oneof(...fromEvents, { weight: 1, arbitrary: element(NO_MATCH.times) });
}

/**
 * Queries over the given events: MATCH_anyEPC values from each of the five EPC fields, MATCH_anyEPCClass values
 * from each of the four quantity lists (and class patterns), bizSteps in all three forms, business locations,
 * transformation ids, and time bounds at the events' instants (recordTime bounds only when the events carry
 * recordTime), mixed with values that match nothing.
 */
export function queryArbitrary(events: readonly EpcisEvent[]): fc.Arbitrary<EventQuery> {
  const pools = collect(events);
  const epcs = drawn(
    EPC_FIELDS.map((f) => pools.epcs.get(f)?.values() ?? []),
    NO_MATCH.epcs,
  );
  const classes = drawn(
    CLASS_LISTS.map((f) => {
      const spellings = pools.classes.get(f);
      return spellings === undefined ? [] : classValues(spellings);
    }),
    NO_MATCH.classes,
  );
  const lists: Record<ListParameter, ValuePool> = {
    MATCH_anyEPC: epcs,
    MATCH_anyEPCClass: classes,
    EQ_bizStep: drawn([bizStepValues(pools.bizSteps)], NO_MATCH.bizSteps),
    EQ_transformationID: drawn([[...pools.transformationIds]], NO_MATCH.transformationIds),
    EQ_bizLocation: drawn([pools.bizLocations.values(), pools.readPoints.values()], NO_MATCH.locations),
  };
  const times: Partial<Record<TimeParameter, fc.Arbitrary<string>>> = {
    LT_eventTime: timeValue(pools.eventTimes),
    GE_eventTime: timeValue(pools.eventTimes),
  };
  if (pools.recordTimes.length > 0) {
    times.LT_recordTime = timeValue(pools.recordTimes);
    times.GE_recordTime = timeValue(pools.recordTimes);
  }
  const listNames = Object.keys(lists) as ListParameter[];
  const timeNames = Object.keys(times) as TimeParameter[];
  const names: (ListParameter | TimeParameter)[] = [...timeNames, ...listNames];

  const parameterValue = (
    name: ListParameter | TimeParameter,
    minValues: number,
    maxValues: number,
  ): fc.Arbitrary<string | string[]> => {
    const time = times[name as TimeParameter];
    if (time !== undefined) return time;
    const pool = lists[name as ListParameter];
    const most = Math.min(maxValues, pool.distinct);
    return fc.uniqueArray(pool.arbitrary, { minLength: Math.min(minValues, most), maxLength: most });
  };
  const queryOf = (
    chosen: readonly (ListParameter | TimeParameter)[],
    minValues: number,
    maxValues: number,
  ): fc.Arbitrary<EventQuery> =>
    fc
      .tuple(...chosen.map((n) => parameterValue(n, minValues, maxValues)))
      .map((values) => Object.fromEntries(chosen.map((n, i) => [n, values[i]])) as EventQuery);

  const single = element(names).chain((n) => queryOf([n], 1, 1));
  const alternatives = element(listNames).chain((n) => queryOf([n], 2, 3));
  const combination = fc
    .shuffledSubarray(names, { minLength: 2, maxLength: 3 })
    .chain((c) => queryOf(c, 1, 2));
  // A window has an event exactly at each bound where the baseline allows it.
  const window = windowAtEvents(pools.eventTimes) ?? queryOf(["GE_eventTime", "LT_eventTime"], 1, 1);
  return fc.oneof(
    { weight: 3, arbitrary: single },
    { weight: 2, arbitrary: alternatives },
    { weight: 3, arbitrary: combination },
    { weight: 1, arbitrary: window },
  );
}
