// The query oracle: the events a correct server returns for a query (spec 4.1). `matchesQuery` is its definition,
// a plain filter written for clarity. The reference sender answers from indexes of its own and is held equal to
// this by a property test. So that a query over 100,000 events takes milliseconds, the oracle also answers from
// an index of its own (below), built from the readers and canonical forms of the definition and held equal to
// it by a property test (test/model/oracle.test.ts).
import { bizStepsEqual, canonicalBizStep } from "./bizstep.ts";
import { CANONICAL_DL_BASE, formatDigitalLink } from "./digital-link.ts";
import { canonicalId, classMatches, gtinOf, idsEqual } from "./identifiers.ts";
import { compareInstants, parseInstant } from "./instant.ts";
import { memoized } from "./memo.ts";
import { intersect, PerArray, Postings, type Selection, TimeOrder } from "./oracle-index.ts";
import {
  classesOf,
  type EpcisEvent,
  type EventQuery,
  epcsOf,
  type Instant,
  LIST_PARAMETERS,
  type ListParameter,
} from "./types.ts";

/** A time read by its text, undefined when it cannot be read: a run asks about the same times query after query. */
const readInstant = memoized((value: string): Instant | undefined => {
  try {
    return parseInstant(value);
  } catch {
    return undefined;
  }
});

function instantOf(value: string | undefined): Instant | undefined {
  return value === undefined ? undefined : readInstant(value);
}

/** A bound of the query as an instant; one that cannot be read throws as parseInstant does. */
function boundOf(value: string): Instant {
  return instantOf(value) ?? parseInstant(value);
}

// LT_ is strict and GE_ inclusive; an event lacking the field (or with an unreadable one) never meets a bound.
function withinBounds(value: string | undefined, lt: string | undefined, ge: string | undefined): boolean {
  if (lt === undefined && ge === undefined) return true;
  const at = instantOf(value);
  if (at === undefined) return false;
  if (lt !== undefined && compareInstants(at, boundOf(lt)) >= 0) return false;
  if (ge !== undefined && compareInstants(at, boundOf(ge)) < 0) return false;
  return true;
}

// OR among the values of one list parameter; a parameter sent with no values selects nothing.
function anyOf(values: string[] | undefined, test: (value: string) => boolean): boolean {
  return values === undefined || values.some(test);
}

/** Whether an event is selected by a query: parameters combine as AND, list values as OR (spec 4.1). */
export function matchesQuery(e: EpcisEvent, q: EventQuery): boolean {
  if (!withinBounds(e.recordTime, q.LT_recordTime, q.GE_recordTime)) return false;
  if (!withinBounds(e.eventTime, q.LT_eventTime, q.GE_eventTime)) return false;
  if (!anyOf(q.MATCH_anyEPC, (v) => epcsOf(e).some((epc) => idsEqual(v, epc)))) return false;
  if (!anyOf(q.MATCH_anyEPCClass, (v) => classesOf(e).some((c) => classMatches(v, c)))) return false;
  if (!anyOf(q.EQ_bizStep, (v) => typeof e.bizStep === "string" && bizStepsEqual(v, e.bizStep))) return false;
  if (!anyOf(q.EQ_transformationID, (v) => e.transformationID === v)) return false;
  const location = e.bizLocation?.id;
  if (!anyOf(q.EQ_bizLocation, (v) => typeof location === "string" && idsEqual(v, location))) return false;
  return true;
}

function* bizStepKeys(e: EpcisEvent): Generator<string> {
  if (typeof e.bizStep === "string") yield canonicalBizStep(e.bizStep);
}

function* locationKeys(e: EpcisEvent): Generator<string> {
  const location = e.bizLocation?.id;
  if (typeof location === "string") yield canonicalId(location);
}

/**
 * Which events each value selects, read with the definition's own readers: events keyed by the canonical form
 * of each EPC, class and location (idsEqual and classMatches compare canonical forms), by the bare word of
 * their bizStep (bizStepsEqual compares bare words), by their transformationID as it is (compared with ===),
 * and ordered by each time. Each part is built when a query first needs it.
 */
class OracleIndex {
  readonly events: readonly EpcisEvent[];
  #epcs?: Postings;
  #classes?: Postings;
  #gtins?: Postings;
  #bizSteps?: Postings;
  #transformationIds?: Postings<unknown>;
  #locations?: Postings;
  #eventTimes?: TimeOrder;
  #recordTimes?: TimeOrder;

  constructor(events: readonly EpcisEvent[]) {
    this.events = events;
  }

  #read<K>(keysOf: (e: EpcisEvent) => Iterable<K>): Postings<K> {
    return Postings.read(this.events.length, (p) => keysOf(this.events[p] as EpcisEvent));
  }

  #order(field: "eventTime" | "recordTime"): TimeOrder {
    return new TimeOrder(this.events.length, (p) => instantOf((this.events[p] as EpcisEvent)[field]));
  }

  eventTimes(): TimeOrder {
    this.#eventTimes ??= this.#order("eventTime");
    return this.#eventTimes;
  }

  recordTimes(): TimeOrder {
    this.#recordTimes ??= this.#order("recordTime");
    return this.#recordTimes;
  }

  epcs(): Postings {
    this.#epcs ??= this.#read((e) => epcsOf(e).map(canonicalId));
    return this.#epcs;
  }

  classes(): Postings {
    this.#classes ??= this.#read((e) => classesOf(e).map(canonicalId));
    return this.#classes;
  }

  /** Events by the GTIN of each class that has one (gtinOf reads a class through its canonical form). */
  gtins(): Postings {
    this.#gtins ??= Postings.grouped(this.classes(), gtinOf);
    return this.#gtins;
  }

  bizSteps(): Postings {
    this.#bizSteps ??= this.#read(bizStepKeys);
    return this.#bizSteps;
  }

  transformationIds(): Postings<unknown> {
    this.#transformationIds ??= this.#read((e) => [e.transformationID]);
    return this.#transformationIds;
  }

  locations(): Postings {
    this.#locations ??= this.#read(locationKeys);
    return this.#locations;
  }
}

/**
 * The events one MATCH_anyEPCClass value selects. classMatches is true for a class whose canonical form is the
 * value's, or, for a class with a GTIN, exactly when the value matches that GTIN's class-level identity
 * (/01/{gtin}): the patterns of spec 4.1 select whole GTINs, so each GTIN is asked once, not each of its classes.
 */
function classSelection(index: OracleIndex, value: string): Selection {
  const byGtin = index.gtins();
  const gtins = byGtin
    .keys()
    .filter((g) => classMatches(value, formatDigitalLink(CANONICAL_DL_BASE, [{ ai: "01", value: g }])));
  return [index.classes().get(canonicalId(value)), ...gtins.map((g) => byGtin.get(g))];
}

function listSelection(index: OracleIndex, parameter: ListParameter, values: readonly string[]): Selection {
  switch (parameter) {
    case "MATCH_anyEPC":
      return values.map((v) => index.epcs().get(canonicalId(v)));
    case "MATCH_anyEPCClass":
      return values.flatMap((v) => classSelection(index, v));
    case "EQ_bizStep":
      return values.map((v) => index.bizSteps().get(canonicalBizStep(v)));
    case "EQ_transformationID":
      return values.map((v) => index.transformationIds().get(v));
    case "EQ_bizLocation":
      return values.map((v) => index.locations().get(canonicalId(v)));
  }
}

function instantBound(value: string | undefined): Instant | undefined {
  return value === undefined ? undefined : parseInstant(value);
}

function indexedAnswer(index: OracleIndex, q: EventQuery): EpcisEvent[] | undefined {
  const selections: Selection[] = [];
  for (const [times, lt, ge] of [
    [() => index.recordTimes(), q.LT_recordTime, q.GE_recordTime],
    [() => index.eventTimes(), q.LT_eventTime, q.GE_eventTime],
  ] as const) {
    if (lt !== undefined || ge !== undefined)
      selections.push([times().between(instantBound(ge), instantBound(lt))]);
  }
  for (const parameter of LIST_PARAMETERS) {
    const values: unknown = q[parameter];
    if (values === undefined) continue;
    // Values outside the query's type are left to the definition, whatever it makes of them.
    if (!Array.isArray(values) || !values.every((v) => typeof v === "string")) return undefined;
    selections.push(listSelection(index, parameter, values));
  }
  return intersect(index.events.length, selections).map((p) => index.events[p] as EpcisEvent);
}

// An array holding null or undefined is left to the definition, whose readers throw on such an event.
const indexes = new PerArray((events) =>
  events.some((e) => e == null) ? undefined : new OracleIndex(events as readonly EpcisEvent[]),
);

/**
 * The answer from an index, or undefined where the plain filter must answer: no index, a value outside the
 * query's type, or an event a reader of the definition throws on (the definition then throws, or not, as its
 * order of tests decides).
 */
function answerFrom(index: OracleIndex | undefined, q: EventQuery): EpcisEvent[] | undefined {
  try {
    return index && indexedAnswer(index, q);
  } catch {
    return undefined;
  }
}

/**
 * The events selected by a query, answered from the oracle's index of `events`, built now if need be; undefined
 * where only the plain filter can answer. runOracle uses it from an array's second query on.
 */
export function indexedOracle(events: readonly EpcisEvent[], q: EventQuery): EpcisEvent[] | undefined {
  return answerFrom(indexes.now(events), q);
}

/**
 * The events selected by a query, in input order. Throws RangeError when a time bound is not an instant.
 * The first query of an array is answered by the plain filter; later ones from the index, which is built again
 * when the array's elements have changed (events themselves are read as values: change one, and pass a new
 * array).
 */
export function runOracle(events: readonly EpcisEvent[], q: EventQuery): EpcisEvent[] {
  for (const bound of [q.LT_recordTime, q.GE_recordTime, q.LT_eventTime, q.GE_eventTime]) {
    if (bound !== undefined) parseInstant(bound);
  }
  return answerFrom(indexes.get(events), q) ?? events.filter((e) => matchesQuery(e, q));
}
