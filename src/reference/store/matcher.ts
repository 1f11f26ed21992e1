// The store's own matcher. It is deliberately independent of the model's oracle: the two are held equal by a
// property test, so a mistake in either shows up as a disagreement.
import type { EpcisEvent, EventQuery, Instant, ListParameter, TimeParameter } from "../../model/index.ts";
import { compareInstants, LIST_PARAMETERS, parseInstant, TIME_PARAMETERS } from "../../model/index.ts";
import { bizStepKey, classMatchesSafely, idKey } from "./keys.ts";
import type { ClassList, EpcField, MatchRules } from "./rules.ts";
import { truncateToMillis, wallClockInstant } from "./time-keys.ts";

/** What a condition sees of a stored event: the event and its two instants, parsed once at load. */
export interface StoredView {
  event: EpcisEvent;
  recordTime: Instant;
  eventTime: Instant | undefined;
}

export type Condition = (view: StoredView) => boolean;

/** A query compiled under a set of rules; `matches` is false for every event when a list is present but empty. */
export interface CompiledQuery {
  conditions: Condition[];
  matches(view: StoredView): boolean;
}

/** The parameters the rules apply, in a fixed order; ignored ones are left out. */
export function appliedParameters(q: EventQuery, rules: MatchRules): (TimeParameter | ListParameter)[] {
  const present: (TimeParameter | ListParameter)[] = [];
  for (const p of [...TIME_PARAMETERS, ...LIST_PARAMETERS]) {
    if (q[p] !== undefined && !rules.ignored.includes(p)) present.push(p);
  }
  return present;
}

/** Compiles a query; throws RangeError for a time bound that is not an xsd:dateTimeStamp. */
export function compileQuery(q: EventQuery, rules: MatchRules): CompiledQuery {
  const conditions: Condition[] = [];
  for (const p of appliedParameters(q, rules)) {
    if (isTimeParameter(p)) {
      conditions.push(timeCondition(p, q[p] as string, rules));
    } else {
      conditions.push(listCondition(p, q[p] ?? [], rules));
    }
  }
  const matches =
    rules.parametersCombine === "and"
      ? (v: StoredView) => conditions.every((c) => c(v))
      : (v: StoredView) => conditions.length === 0 || conditions.some((c) => c(v));
  return { conditions, matches };
}

function isTimeParameter(p: string): p is TimeParameter {
  return (TIME_PARAMETERS as readonly string[]).includes(p);
}

function timeCondition(p: TimeParameter, written: string, rules: MatchRules): Condition {
  const onRecord = p.endsWith("recordTime");
  const lower = p.startsWith("GE_");
  const strict = lower
    ? onRecord
      ? rules.geRecordExclusive
      : rules.geEventExclusive
    : !(onRecord ? rules.ltRecordInclusive : rules.ltEventInclusive);
  const accept = (cmp: number): boolean =>
    lower ? (strict ? cmp > 0 : cmp >= 0) : strict ? cmp < 0 : cmp <= 0;

  if (rules.timeComparison === "wall-clock") {
    const bound = wallClockInstant(written);
    if (bound === undefined) throw new RangeError(`${p} is not a date-time: ${written}`);
    return (v) => {
      const raw = onRecord ? v.event.recordTime : v.event.eventTime;
      const key = typeof raw === "string" ? wallClockInstant(raw) : undefined;
      return key !== undefined && accept(compareInstants(key, bound));
    };
  }
  const exact = parseInstant(written);
  const truncate = rules.timeComparison === "millisecond-truncated";
  const bound = truncate ? truncateToMillis(exact) : exact;
  return (v) => {
    const t = onRecord ? v.recordTime : v.eventTime;
    if (t === undefined) return false;
    return accept(compareInstants(truncate ? truncateToMillis(t) : t, bound));
  };
}

function listCondition(p: ListParameter, values: readonly string[], rules: MatchRules): Condition {
  const one = valueTest(p, rules);
  const tests = values.map((value) => one(value));
  if (tests.length === 0) return () => false;
  return rules.valuesCombine === "or"
    ? (v) => tests.some((t) => t(v.event))
    : (v) => tests.every((t) => t(v.event));
}

type ValueTest = (value: string) => (e: EpcisEvent) => boolean;

function valueTest(p: ListParameter, rules: MatchRules): ValueTest {
  switch (p) {
    case "MATCH_anyEPC":
      return (value) => {
        const wanted = rules.epcAsWritten ? value : idKey(value);
        const same = rules.epcAsWritten
          ? (epc: string) => epc === wanted
          : (epc: string) => idKey(epc) === wanted;
        return (e) => epcsOf(e, rules.epcFields).some(same);
      };
    case "MATCH_anyEPCClass":
      return (value) => {
        const wanted = idKey(value);
        const same = rules.classPatterns
          ? (c: string) => classMatchesSafely(value, c)
          : (c: string) => idKey(c) === wanted;
        return (e) => classesOf(e, rules.classLists).some(same);
      };
    case "EQ_bizStep":
      return (value) => {
        const wanted = rules.bizStepAsWritten ? value : bizStepKey(value);
        return (e) =>
          typeof e.bizStep === "string" &&
          (rules.bizStepAsWritten ? e.bizStep : bizStepKey(e.bizStep)) === wanted;
      };
    case "EQ_transformationID":
      // A transformation id is not a GS1 key: it compares as the string it is.
      return (value) => (e) => e.transformationID === value;
    case "EQ_bizLocation":
      return (value) => {
        const wanted = idKey(value);
        return (e) => typeof e.bizLocation?.id === "string" && idKey(e.bizLocation.id) === wanted;
      };
  }
}

/** The EPCs an event carries in the given fields, as written. */
export function epcsOf(e: EpcisEvent, fields: readonly EpcField[]): string[] {
  const out: string[] = [];
  for (const f of fields) {
    const v = e[f];
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (const epc of v) if (typeof epc === "string") out.push(epc);
  }
  return out;
}

/** The EPC classes an event carries in the given quantity lists, as written. */
export function classesOf(e: EpcisEvent, lists: readonly ClassList[]): string[] {
  const out: string[] = [];
  for (const l of lists) {
    const v = e[l];
    if (!Array.isArray(v)) continue;
    for (const q of v) if (typeof q?.epcClass === "string") out.push(q.epcClass);
  }
  return out;
}
