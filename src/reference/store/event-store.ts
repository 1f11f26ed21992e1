import type { EpcisEvent, EventQuery, Instant, ListParameter } from "../../model/index.ts";
import {
  CANONICAL_DL_BASE,
  compareInstants,
  formatInstant,
  fractionDigitsOf,
  isClassPattern,
  parseInstant,
} from "../../model/index.ts";
import { memoized } from "../../model/memo.ts";
import { bizStepKey, classMatchesSafely, gtinKey, idKey } from "./keys.ts";
import { appliedParameters, classesOf, compileQuery, epcsOf, type StoredView } from "./matcher.ts";
import { RecordClock, type RecordTimeOptions } from "./record-time.ts";
import { CLASS_LISTS, EPC_FIELDS, type MatchRules, SPEC_RULES } from "./rules.ts";
import { instantOrUndefined, truncateToMillis } from "./time-keys.ts";

export interface StoreOptions extends RecordTimeOptions {
  /**
   * Keep times to the millisecond, as many databases do: an eventTime loaded or captured with finer digits loses
   * them, and recordTimes are written with three digits. The spec states no precision (an xsd:dateTimeStamp has
   * the digits it is written with).
   */
  milliseconds?: boolean;
}

/** A recordTime as stored: its instant and its written form. */
interface Recorded {
  instant: Instant;
  written: string;
}

const ZONE = /(Z|[+-]\d{2}:\d{2})$/;

/** A written time cut to the millisecond, at its own offset; unchanged when it has no finer digits or is unreadable. */
function toMillisecond(written: unknown): unknown {
  if (typeof written !== "string" || fractionDigitsOf(written) <= 3) return written;
  const at = instantOrUndefined(written);
  const offset = ZONE.exec(written)?.[1];
  if (at === undefined || offset === undefined) return written;
  return formatInstant(truncateToMillis(at), { offset, fractionDigits: 3 });
}

export interface QueryAnswer {
  /** The matching events in load order, as stored (with their recordTime). */
  events: EpcisEvent[];
  /** How many stored events the query looked at. */
  examined: number;
}

/** Where a query starts: a run of ids in load order, or an explicit list of ids. */
type Plan =
  | { kind: "range"; size: number; from: number; to: number }
  | {
      kind: "list";
      size: number;
      ids: () => ArrayLike<number>;
      inIdOrder: boolean;
      /** Every id in the list meets the whole query: the plan applied every condition it has. */
      complete?: boolean;
    };

/** Ids per key; a key held by one event keeps its id bare, which saves an array for most EPCs. */
type Postings = Map<string, number | number[]>;

/**
 * The reference sender's events, with indexes so that a selective query looks at few events. Ids are load
 * positions; recordTime is assigned on load and never decreases with the id, so load order is recordTime order.
 */
export class EventStore {
  private readonly stored: EpcisEvent[] = [];
  private readonly recordTimes: Instant[] = [];
  private readonly eventTimes: (Instant | undefined)[] = [];
  private byEventTime: Uint32Array = new Uint32Array(0);
  private readonly epcIndex: Postings = new Map();
  private readonly classIndex: Postings = new Map();
  private readonly classesByGtin = new Map<string, string[]>();
  private readonly bizStepIndex: Postings = new Map();
  private readonly locationIndex: Postings = new Map();
  private readonly transformationIndex: Postings = new Map();
  private readonly clock: RecordClock;
  private readonly milliseconds: boolean;
  private loading: { keys: KeyCache; timed: number[] } | undefined;

  constructor(events: readonly EpcisEvent[], opts: StoreOptions = {}) {
    this.clock = new RecordClock(opts);
    this.milliseconds = opts.milliseconds === true;
    this.append(events, 0, events.length);
    this.seal();
  }

  /**
   * Loads `events` in slices with a turn of the event loop between them, so that a large dataset does not stall
   * the process that loads it (a server's signal handling, a test runner's heartbeat).
   */
  static async load(
    events: readonly EpcisEvent[],
    opts: StoreOptions = {},
    slice = 50_000,
  ): Promise<EventStore> {
    const store = new EventStore([], opts);
    for (let from = 0; from < events.length; from += slice) {
      store.append(events, from, Math.min(events.length, from + slice));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    store.seal();
    return store;
  }

  /** The events as loaded, each with the recordTime it was given, in load order. */
  get events(): readonly EpcisEvent[] {
    return this.stored;
  }

  get size(): number {
    return this.stored.length;
  }

  /** The recordTime of the next event: the clock's, or `at` for a capture, never before the last one held. */
  private recordedAt(id: number, at: Instant | undefined): Recorded {
    let recorded: Recorded;
    if (at === undefined) {
      recorded = this.clock.at(id);
    } else {
      const last = this.recordTimes.at(-1);
      const instant = last !== undefined && compareInstants(last, at) > 0 ? last : at;
      recorded = { instant, written: formatInstant(instant, { fractionDigits: 6 }) };
    }
    if (!this.milliseconds) return recorded;
    const instant = truncateToMillis(recorded.instant);
    return { instant, written: formatInstant(instant, { fractionDigits: 3 }) };
  }

  private append(events: readonly EpcisEvent[], from: number, to: number, at?: Instant): void {
    // Classes, locations and bizSteps recur across many events: each spelling is canonicalised once per load.
    this.loading ??= { keys: keyCache(), timed: [] };
    for (let i = from; i < to; i++) {
      const id = this.stored.length;
      const recorded = this.recordedAt(id, at);
      const e: EpcisEvent = { ...(events[i] as EpcisEvent), recordTime: recorded.written };
      if (this.milliseconds && "eventTime" in e) e.eventTime = toMillisecond(e.eventTime) as string;
      this.stored.push(e);
      this.recordTimes.push(recorded.instant);
      const t = instantOrUndefined(e.eventTime);
      this.eventTimes.push(t);
      if (t !== undefined) this.loading.timed.push(id);
      this.indexEvent(e, id, this.loading.keys);
    }
  }

  private seal(): void {
    this.byEventTime = this.sortedByEventTime(this.loading?.timed ?? []);
    this.loading = undefined;
  }

  /** The events that match `q` under `rules` (the spec's by default); throws RangeError for a malformed time. */
  query(q: EventQuery, rules: MatchRules = SPEC_RULES): QueryAnswer {
    const compiled = compileQuery(q, rules);
    const plan = this.plan(q, rules);
    const matched: number[] = [];
    let examined = 0;
    const look = (id: number): void => {
      examined++;
      if (compiled.matches(this.view(id))) matched.push(id);
    };
    if (plan.kind === "range") {
      for (let id = plan.from; id < plan.to; id++) look(id);
    } else if (plan.complete === true) {
      // A window of eventTime and nothing else: the sorted times found exactly its events, in eventTime order.
      const ids = Uint32Array.from(plan.ids());
      ids.sort();
      examined = ids.length;
      for (let i = 0; i < ids.length; i++) matched.push(ids[i] as number);
    } else {
      const ids = plan.ids();
      for (let i = 0; i < ids.length; i++) look(ids[i] as number);
      if (!plan.inIdOrder) matched.sort((a, b) => a - b);
    }
    return { events: matched.map((id) => this.stored[id] as EpcisEvent), examined };
  }

  /**
   * Appends events after the load, as an EPCIS capture does: they take the next recordTimes (or `recordedAt`, the
   * instant they are captured at, for all of them) and are indexed like loaded events, so that queries find them at
   * once. Returns them as stored.
   */
  insert(events: readonly EpcisEvent[], recordedAt?: Instant): readonly EpcisEvent[] {
    const from = this.stored.length;
    // The eventTime order is rebuilt over every event, the earlier ones included.
    this.loading = { keys: keyCache(), timed: Array.from(this.byEventTime) };
    this.append(events, 0, events.length, recordedAt);
    this.seal();
    return this.stored.slice(from);
  }

  private view(id: number): StoredView {
    return {
      event: this.stored[id] as EpcisEvent,
      recordTime: this.recordTimes[id] as Instant,
      eventTime: this.eventTimes[id],
    };
  }

  private indexEvent(e: EpcisEvent, id: number, keys: KeyCache): void {
    // Most EPCs are serials seen in a few events only; a cache would cost more than it saves for them.
    for (const epc of epcsOf(e, EPC_FIELDS)) post(this.epcIndex, idKey(epc), id);
    for (const c of classesOf(e, CLASS_LISTS)) {
      const key = keys.id(c);
      if (!this.classIndex.has(key)) this.rememberGtin(key);
      post(this.classIndex, key, id);
    }
    if (typeof e.bizStep === "string") post(this.bizStepIndex, keys.bizStep(e.bizStep), id);
    if (typeof e.transformationID === "string") post(this.transformationIndex, e.transformationID, id);
    if (typeof e.bizLocation?.id === "string") post(this.locationIndex, keys.id(e.bizLocation.id), id);
  }

  /** Ids of the events with an eventTime, in eventTime order (ties in load order). */
  private sortedByEventTime(timed: number[]): Uint32Array {
    const times = this.eventTimes as Instant[];
    // Whole seconds fit a double exactly for years 1 to 9999; the exact comparison settles equal seconds.
    const seconds = new Float64Array(times.length);
    for (const id of timed) seconds[id] = Number((times[id] as Instant).epochSeconds);
    const sorted = Uint32Array.from(timed);
    sorted.sort(
      (a, b) =>
        (seconds[a] as number) - (seconds[b] as number) ||
        compareInstants(times[a] as Instant, times[b] as Instant) ||
        a - b,
    );
    return sorted;
  }

  private rememberGtin(classKey: string): void {
    const gtin = gtinKey(classKey);
    if (gtin === undefined) return;
    const classes = this.classesByGtin.get(gtin);
    if (classes === undefined) this.classesByGtin.set(gtin, [classKey]);
    else classes.push(classKey);
  }

  /** The smallest starting set the indexes offer; every event outside it fails at least one condition. */
  private plan(q: EventQuery, rules: MatchRules): Plan {
    const everything: Plan = { kind: "range", size: this.stored.length, from: 0, to: this.stored.length };
    // Alternatives across parameters cannot start from one parameter's index.
    if (rules.parametersCombine === "or") return everything;
    const options: Plan[] = [everything];
    for (const p of appliedParameters(q, rules)) {
      const values = q[p];
      if (Array.isArray(values)) options.push(this.listPlan(p as ListParameter, values, rules));
    }
    // Only exact comparisons follow the order of the sorted times; a plan exists only for a bound that applies,
    // since the eventTime order leaves out events without one.
    if (rules.timeComparison === "exact") {
      const applied = appliedParameters(q, rules);
      if (applied.includes("GE_recordTime") || applied.includes("LT_recordTime")) {
        options.push(this.recordTimePlan(q, rules));
      }
      if (applied.includes("GE_eventTime") || applied.includes("LT_eventTime")) {
        options.push(this.eventTimePlan(q, rules));
      }
    }
    return options.reduce((best, o) => (o.size < best.size ? o : best));
  }

  private listPlan(p: ListParameter, values: readonly string[], rules: MatchRules): Plan {
    const lists: number[][] = [];
    for (const key of this.keysFor(p, values, rules)) {
      const ids = this.indexFor(p).get(key);
      if (ids !== undefined) lists.push(typeof ids === "number" ? [ids] : ids);
    }
    const size = lists.reduce((n, l) => n + l.length, 0);
    return { kind: "list", size, ids: () => unionOf(lists), inIdOrder: true };
  }

  private keysFor(p: ListParameter, values: readonly string[], rules: MatchRules): Set<string> {
    const keys = new Set<string>();
    for (const v of values) {
      if (p === "EQ_transformationID") keys.add(v);
      else if (p === "EQ_bizStep") keys.add(bizStepKey(v));
      else keys.add(idKey(v));
      if (p === "MATCH_anyEPCClass" && rules.classPatterns) {
        for (const k of this.classesCoveredBy(v)) keys.add(k);
      }
    }
    return keys;
  }

  private indexFor(p: ListParameter): Postings {
    switch (p) {
      case "MATCH_anyEPC":
        return this.epcIndex;
      case "MATCH_anyEPCClass":
        return this.classIndex;
      case "EQ_bizStep":
        return this.bizStepIndex;
      case "EQ_transformationID":
        return this.transformationIndex;
      case "EQ_bizLocation":
        return this.locationIndex;
    }
  }

  /**
   * Class keys a value may match beyond its own: every class of its GTIN when it names a GTIN as a whole (an
   * idpat CP.IR.* or /01/{gtin}), every class of the GTINs under a company prefix for CP.*.*.
   */
  private classesCoveredBy(value: string): string[] {
    const key = idKey(value);
    const gtin = gtinKey(key);
    if (gtin !== undefined)
      return key === `${CANONICAL_DL_BASE}/01/${gtin}` ? (this.classesByGtin.get(gtin) ?? []) : [];
    if (!isClassPattern(value)) return [];
    const out: string[] = [];
    for (const [g, classes] of this.classesByGtin) {
      if (classMatchesSafely(value, `${CANONICAL_DL_BASE}/01/${g}`)) out.push(...classes);
    }
    return out;
  }

  private recordTimePlan(q: EventQuery, rules: MatchRules): Plan {
    const applied = appliedParameters(q, rules);
    const times = this.recordTimes;
    let from = 0;
    let to = times.length;
    if (applied.includes("GE_recordTime")) {
      const b = parseInstant(q.GE_recordTime as string);
      from = firstIndex(times.length, (i) => atOrAfter(times[i] as Instant, b, rules.geRecordExclusive));
    }
    if (applied.includes("LT_recordTime")) {
      const b = parseInstant(q.LT_recordTime as string);
      to = firstIndex(times.length, (i) => atOrAfter(times[i] as Instant, b, rules.ltRecordInclusive));
    }
    return { kind: "range", size: Math.max(0, to - from), from, to };
  }

  private eventTimePlan(q: EventQuery, rules: MatchRules): Plan {
    const applied = appliedParameters(q, rules);
    const sorted = this.byEventTime;
    const timeAt = (i: number): Instant => this.eventTimes[sorted[i] as number] as Instant;
    let from = 0;
    let to = sorted.length;
    if (applied.includes("GE_eventTime")) {
      const b = parseInstant(q.GE_eventTime as string);
      from = firstIndex(sorted.length, (i) => atOrAfter(timeAt(i), b, rules.geEventExclusive));
    }
    if (applied.includes("LT_eventTime")) {
      const b = parseInstant(q.LT_eventTime as string);
      to = firstIndex(sorted.length, (i) => atOrAfter(timeAt(i), b, rules.ltEventInclusive));
    }
    const size = Math.max(0, to - from);
    // The window applies the bounds the matcher would, with the same strictness, to the same parsed instants.
    const complete = applied.every((p) => p === "GE_eventTime" || p === "LT_eventTime");
    return {
      kind: "list",
      size,
      ids: () => sorted.subarray(from, Math.max(from, to)),
      inIdOrder: false,
      complete,
    };
  }
}

/** The index keys of one load's classes, locations and bizSteps: each spelling is keyed once. */
interface KeyCache {
  id(uri: string): string;
  bizStep(value: string): string;
}

function keyCache(): KeyCache {
  return { id: memoized(idKey), bizStep: memoized(bizStepKey) };
}

function post(index: Postings, key: string, id: number): void {
  const ids = index.get(key);
  if (ids === undefined) index.set(key, id);
  // Ids arrive in increasing order, so a repeat of the same identifier within one event is the last entry.
  else if (typeof ids === "number") {
    if (ids !== id) index.set(key, [ids, id]);
  } else if (ids[ids.length - 1] !== id) ids.push(id);
}

/** The sorted union of sorted id lists. */
function unionOf(lists: readonly number[][]): ArrayLike<number> {
  if (lists.length === 1) return lists[0] as number[];
  const all = new Uint32Array(lists.reduce((n, l) => n + l.length, 0));
  let at = 0;
  for (const l of lists) {
    all.set(l, at);
    at += l.length;
  }
  all.sort();
  let kept = 0;
  for (let i = 0; i < all.length; i++) {
    if (i === 0 || all[i] !== all[i - 1]) all[kept++] = all[i] as number;
  }
  return all.subarray(0, kept);
}

/** Whether `t` lies at or after `b` (strictly after when `strictly`). */
function atOrAfter(t: Instant, b: Instant, strictly: boolean): boolean {
  const c = compareInstants(t, b);
  return strictly ? c > 0 : c >= 0;
}

/** The first index in [0, n) where the monotone predicate turns true, n when it never does. */
function firstIndex(n: number, pred: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
