// Values the harness invents are probes, not obligations of the sender (ARCHITECTURE.md "Verdict levels follow the
// spec's words"): an offset other than UTC, more fractional digits than the data has, an instant far outside the
// data, a value no event carries, a bare bizStep word outside the CBV, an identifier in the spelling the events do
// not use. A sender may refuse a probe, which is at most a warning under the requirement that names it; what it
// accepts it must answer right. Every MUST filter check can be decided without probes: UTC bounds and values as
// the target's events carry them.
import {
  CBV_BIZSTEPS,
  canonicalBizStep,
  canonicalOrWritten,
  classMatches,
  compareInstants,
  formatInstant,
  fractionDigitsOf,
  type Instant,
  parseInstant,
} from "../../../src/model/index.ts";
import {
  type EpcisEvent,
  type EventQuery,
  LIST_PARAMETERS,
  type ListParameter,
  TIME_PARAMETERS,
  type TimeParameter,
} from "../../../src/model/types.ts";
import { CLASS_FIELDS, classesIn, EPC_FIELDS, epcsIn, locationOf } from "../../../src/target/pools.ts";
import type { Known } from "./known.ts";

/** The requirements whose SHOULD a refused probe warns on, one per kind of probe. */
export const PROBE = {
  /** A time bound at another offset than Z, with more fractional digits than the data, or far outside it. */
  time: "EVT-TIME-PROBES",
  /** A bizStep word in the CBV shape that is not a CBV 2.0 step and that no event carries. */
  bizStepWord: "EVT-BIZSTEP-UNKNOWN",
  /** A value that no event carries. */
  noMatch: "EVT-NO-MATCH",
  /** An identifier in the other spelling (URN ⇄ Digital Link) than the events carry it. */
  epcForm: "EVT-EPC-FORMS",
  classForm: "EVT-CLASS-FORMS",
  locationForm: "EVT-BIZLOCATION-FORMS",
  /** An sgtin pattern that covers a whole company prefix (CP.*.*): wider than any class the events carry. */
  prefixPattern: "EVT-CLASS-PATTERN-PREFIX",
} as const;

/** An sgtin pattern that leaves the item reference open as well as the serial: a company's every GTIN. */
export const PREFIX_PATTERN = /^urn:epc:idpat:sgtin:\d+\.\*\.\*$/;

const BARE_STEP = /^[A-Za-z0-9_-]+$/;
const CBV = new Set(CBV_BIZSTEPS);
/** How far outside the known instants a bound may lie and still be one the data suggests. */
const SLACK_SECONDS = 86_400n;

/** The written and canonical values of the known events, per parameter, and the span of their instants. */
interface Written {
  written: Record<ListParameter, Set<string>>;
  canonical: Record<ListParameter, Set<string>>;
  classes: string[];
  time: Record<"eventTime" | "recordTime", { digits: number; first: Instant; last: Instant } | undefined>;
}

const memo = new WeakMap<Known, Written>();

function timeSpan(
  events: readonly EpcisEvent[],
  field: "eventTime" | "recordTime",
): Written["time"]["eventTime"] {
  let span: Written["time"]["eventTime"];
  for (const e of events) {
    const text = e[field];
    if (typeof text !== "string") continue;
    let at: Instant;
    try {
      at = parseInstant(text);
    } catch {
      continue;
    }
    const digits = fractionDigitsOf(text);
    if (span === undefined) span = { digits, first: at, last: at };
    else {
      span.digits = Math.max(span.digits, digits);
      if (compareInstants(at, span.first) < 0) span.first = at;
      if (compareInstants(at, span.last) > 0) span.last = at;
    }
  }
  return span;
}

function writtenOf(k: Known): Written {
  const found = memo.get(k);
  if (found !== undefined) return found;
  const sets = () =>
    Object.fromEntries(LIST_PARAMETERS.map((p) => [p, new Set<string>()])) as Record<
      ListParameter,
      Set<string>
    >;
  const written = sets();
  for (const e of k.events) {
    for (const f of EPC_FIELDS) for (const v of epcsIn(e, f)) written.MATCH_anyEPC.add(v);
    for (const f of CLASS_FIELDS) for (const v of classesIn(e, f)) written.MATCH_anyEPCClass.add(v);
    if (typeof e.bizStep === "string") written.EQ_bizStep.add(e.bizStep);
    if (typeof e.transformationID === "string") written.EQ_transformationID.add(e.transformationID);
    const location = locationOf(e);
    if (location !== undefined) written.EQ_bizLocation.add(location);
    // A read point is a location the data holds: as a bizLocation value it matches nothing, but it invents nothing.
    if (typeof e.readPoint?.id === "string") written.EQ_bizLocation.add(e.readPoint.id);
  }
  const canonical = sets();
  for (const p of LIST_PARAMETERS) {
    for (const v of written[p]) {
      canonical[p].add(
        p === "EQ_bizStep" ? canonicalBizStep(v) : p === "EQ_transformationID" ? v : canonicalOrWritten(v),
      );
    }
  }
  const result: Written = {
    written,
    canonical,
    classes: [...written.MATCH_anyEPCClass],
    time: { eventTime: timeSpan(k.events, "eventTime"), recordTime: timeSpan(k.events, "recordTime") },
  };
  memo.set(k, result);
  return result;
}

function coversKnownClass(w: Written, value: string): boolean {
  return w.classes.some((c) => {
    try {
      return classMatches(value, c);
    } catch {
      return false;
    }
  });
}

const FORM_PROBES: Partial<Record<ListParameter, string>> = {
  MATCH_anyEPC: PROBE.epcForm,
  MATCH_anyEPCClass: PROBE.classForm,
  EQ_bizLocation: PROBE.locationForm,
};

/** The probe requirement of one list value, or undefined when the value is one the target's events carry. */
function listValueProbe(w: Written, p: ListParameter, value: string): string | undefined {
  if (w.written[p].has(value)) return undefined;
  if (p === "EQ_bizStep") {
    const step = canonicalBizStep(value);
    // Any form of a step the events carry compares equal to it (spec 2.1): that is the sender's obligation.
    if (w.canonical.EQ_bizStep.has(step) && (CBV.has(step) || !BARE_STEP.test(step))) return undefined;
    if (BARE_STEP.test(step) && !CBV.has(step)) return PROBE.bizStepWord;
    return PROBE.noMatch;
  }
  if (p === "EQ_transformationID") return PROBE.noMatch;
  if (w.canonical[p].has(canonicalOrWritten(value))) return FORM_PROBES[p];
  // A pattern over a company's every GTIN is the harness's reach past the classes the events carry: a probe.
  if (p === "MATCH_anyEPCClass" && PREFIX_PATTERN.test(value)) return PROBE.prefixPattern;
  // A pattern, or a GTIN as a whole, that covers classes of the events selects by the spec's own rule.
  if (p === "MATCH_anyEPCClass" && coversKnownClass(w, value)) return undefined;
  return PROBE.noMatch;
}

function fieldOf(p: TimeParameter): "eventTime" | "recordTime" {
  return p.endsWith("recordTime") ? "recordTime" : "eventTime";
}

/** Whether a time bound is one the data itself suggests: in UTC as Z, at most as precise as the data, near it. */
function plainBound(w: Written, p: TimeParameter, value: string): boolean {
  const span = w.time[fieldOf(p)];
  if (span === undefined || !value.endsWith("Z")) return false;
  let at: Instant;
  try {
    at = parseInstant(value);
  } catch {
    return false;
  }
  if (fractionDigitsOf(value) > span.digits) return false;
  const low = { epochSeconds: span.first.epochSeconds - SLACK_SECONDS, fraction: "" };
  const high = { epochSeconds: span.last.epochSeconds + SLACK_SECONDS, fraction: "" };
  return compareInstants(at, low) >= 0 && compareInstants(at, high) <= 0;
}

/**
 * The requirement a refusal of this query warns on when the query holds a value the harness invented, or
 * undefined when every value is one the target's own events suggest (a refusal of such a query fails its check).
 */
export function probeOf(k: Known, q: EventQuery): string | undefined {
  return probesOf(k, q)[0];
}

/** The requirements of every kind of invented value the query holds, each once, in a fixed order. */
export function probesOf(k: Known, q: EventQuery): string[] {
  const w = writtenOf(k);
  const found = new Set<string>();
  for (const p of LIST_PARAMETERS) {
    for (const value of q[p] ?? []) {
      const probe = listValueProbe(w, p, value);
      if (probe !== undefined) found.add(probe);
    }
  }
  for (const p of TIME_PARAMETERS) {
    const value = q[p];
    if (value !== undefined && !plainBound(w, p, value)) found.add(PROBE.time);
  }
  return [...found];
}

/**
 * An instant as the data writes it, rewritten in UTC with Z and the same fractional digits: a bound for a MUST.
 * Throws, as parseInstant does, where the UTC form leaves the years 0001 to 9999 (an event at the calendar's edge
 * written at an offset): there is no such bound to take.
 */
export function inUtc(written: string): string {
  const utc = formatInstant(parseInstant(written), { fractionDigits: fractionDigitsOf(written) });
  parseInstant(utc);
  return utc;
}
