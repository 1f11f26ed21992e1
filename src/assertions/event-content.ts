// An event has one content whichever answer carries it (spec 4.1, EVT-SHAPE-CONTENT). Two served copies are
// compared exactly, recordTime included; a served copy is compared with the loaded event up to what a server may
// rewrite (identifier, bizStep and disposition forms, the written form of eventTime, its own recordTime). The
// extension members of a loaded event (those EPCIS does not define, and the members of ilmd) are compared apart:
// a JSON-LD repository may write them back under prefixes of its own, which this comparison cannot tell from a
// change (EVT-SHAPE-EXTENSIONS, a SHOULD).
//
// Times are instants, compared whatever their offset. The spec states no precision for them (an xsd:dateTimeStamp
// has as many fractional digits as it is written with), and many stores keep milliseconds: times that differ by
// less than a millisecond are the same time at the precision every store keeps, a difference of the digits below it
// (EVT-SHAPE-PRECISION, a SHOULD), and only times a millisecond or more apart are different content.
import { addUnits, canonicalJson, eventIdentity, formatInstant, parseInstant } from "../model/index.ts";
import { jsonEqual } from "../model/json-equal.ts";
import type { EpcisEvent, Instant } from "../model/types.ts";
import type { Failure } from "./failure.ts";

/** The members EPCIS 2.0 defines for an event (its JSON schema's event definitions). */
const EPCIS_EVENT_FIELDS: ReadonlySet<string> = new Set([
  "type",
  "eventID",
  "eventTime",
  "eventTimeZoneOffset",
  "recordTime",
  "errorDeclaration",
  "certificationInfo",
  "action",
  "bizStep",
  "disposition",
  "persistentDisposition",
  "readPoint",
  "bizLocation",
  "bizTransactionList",
  "sourceList",
  "destinationList",
  "sensorElementList",
  "epcList",
  "quantityList",
  "parentID",
  "childEPCs",
  "childQuantityList",
  "inputEPCList",
  "inputQuantityList",
  "outputEPCList",
  "outputQuantityList",
  "transformationID",
  "ilmd",
]);

/**
 * Whether a difference in `field` is one of extension members: a member EPCIS does not define, or ilmd held by
 * both copies (its members are all extensions; ilmd dropped or added is a difference of the event).
 */
function extensionDifference(field: string, loaded: EpcisEvent, served: EpcisEvent): boolean {
  if (field === "ilmd") return loaded.ilmd !== undefined && served.ilmd !== undefined;
  return !EPCIS_EVENT_FIELDS.has(field);
}

/** Fields named in a reason; the evidence lists them all. */
const NAMED_FIELDS = 4;

/** The members that hold an instant. */
const TIME_FIELDS: ReadonlySet<string> = new Set(["eventTime", "recordTime"]);

type SameValue = (field: string, a: unknown, b: unknown) => boolean;

function instantOf(value: unknown): Instant | undefined {
  if (typeof value !== "string") return undefined;
  try {
    return parseInstant(value);
  } catch {
    return undefined;
  }
}

/**
 * How two values of a time member compare: "same" for one instant, "finer" for two instants less than a millisecond
 * apart, "other" for anything else (instants further apart, or a value that is not a dateTimeStamp).
 */
export function timeAgreement(a: unknown, b: unknown): "same" | "finer" | "other" {
  const x = instantOf(a);
  const y = instantOf(b);
  if (x === undefined || y === undefined) return "other";
  // Both as whole units of the finer one's last digit (milliseconds at least), so that the difference is exact.
  const width = Math.max(3, x.fraction.length, y.fraction.length);
  const scale = 10n ** BigInt(width);
  const units = (i: Instant) => i.epochSeconds * scale + BigInt(i.fraction.padEnd(width, "0"));
  const apart = units(x) - units(y);
  const distance = apart < 0n ? -apart : apart;
  if (distance === 0n) return "same";
  return distance < 10n ** BigInt(width - 3) ? "finer" : "other";
}

// Values equal as parsed JSON are equal in every form: most compare so, cheaply, and the canonical comparison
// decides the rest; a time is the instant it is written as.
const exactly: SameValue = (field, a, b) =>
  jsonEqual(a, b) ||
  canonicalJson(a) === canonicalJson(b) ||
  (TIME_FIELDS.has(field) && timeAgreement(a, b) === "same");

// The identity of an event without eventID hashes it in the canonical form a served copy is held to (model
// identity.ts), so a one-field event compares that field the way the model does. An eventID the loaded event lacks
// is the sender's to give: the spec says nothing of eventID.
const asLoaded: SameValue = (field, a, b) => {
  if (field === "eventID") return a === b || a === undefined;
  if (jsonEqual(a, b)) return true;
  const one = (value: unknown) => eventIdentity({ type: "", [field]: value } as EpcisEvent);
  return one(a) === one(b);
};

/** A top-level field whose values differ, and how: "finer" is a time that differs below the millisecond only. */
interface Difference {
  field: string;
  how: "missing" | "added" | "changed" | "finer";
}

function described(d: Difference): string {
  return d.how === "finer" ? `${d.field} differs below the millisecond` : `${d.field} ${d.how}`;
}

/** The top-level fields whose values differ. */
function differences(expected: EpcisEvent, actual: EpcisEvent, same: SameValue): Difference[] {
  const fields = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
  const out: Difference[] = [];
  for (const field of fields) {
    const a = expected[field];
    const b = actual[field];
    if (same(field, a, b)) continue;
    if (b === undefined) out.push({ field, how: "missing" });
    else if (a === undefined) out.push({ field, how: "added" });
    else if (TIME_FIELDS.has(field) && timeAgreement(a, b) === "finer") out.push({ field, how: "finer" });
    else out.push({ field, how: "changed" });
  }
  return out;
}

function problem(
  what: string,
  expected: EpcisEvent,
  actual: EpcisEvent,
  differing: Difference[],
): Failure | undefined {
  if (differing.length === 0) return undefined;
  const found = differing.map(described);
  const named = found.slice(0, NAMED_FIELDS).join(", ") + (found.length > NAMED_FIELDS ? ", …" : "");
  return {
    reason: `event ${eventIdentity(expected)} ${what}: ${named}`,
    evidence: { expected, actual, message: `fields that differ: ${found.join(", ")}` },
  };
}

const ZONE = /(Z|[+-]\d{2}:\d{2})$/;

/** The fractional digits a store may keep of a time: milliseconds, the microseconds of PostgreSQL, .NET's ticks. */
const STORED_DIGITS = [3, 4, 5, 6, 7, 8] as const;

/** `at` cut to `digits` fractional digits, and rounded half up to them (which may carry into the second). */
function cutAndRounded(at: Instant, digits: number): Instant[] {
  const cut = { epochSeconds: at.epochSeconds, fraction: at.fraction.slice(0, digits) };
  const next = at.fraction.charAt(digits);
  return next >= "5" ? [cut, addUnits(cut, 1n, digits)] : [cut];
}

/**
 * The event as a store that keeps fewer digits may hold it: the event itself first, then with its eventTime cut and
 * rounded to each length from 3 to 8 fractional digits, at its own offset, each less than a millisecond from the
 * loaded time (the spec states no precision). An event without an eventID is known by a hash of its content,
 * eventTime included, which the store's digits change; an event with one, or whose eventTime has no finer digits,
 * has no other form.
 */
export function storedForms(e: EpcisEvent): EpcisEvent[] {
  if (typeof e.eventID === "string" && e.eventID !== "") return [e];
  const at = instantOf(e.eventTime);
  const offset = typeof e.eventTime === "string" ? ZONE.exec(e.eventTime)?.[1] : undefined;
  if (at === undefined || offset === undefined || at.fraction.length <= STORED_DIGITS[0]) return [e];
  const times = new Set<string>();
  for (const digits of STORED_DIGITS) {
    if (digits >= at.fraction.length) break;
    for (const stored of cutAndRounded(at, digits)) {
      const written = formatInstant(stored, { offset });
      if (timeAgreement(e.eventTime, written) === "finer") times.add(written);
    }
  }
  return [e, ...[...times].map((eventTime) => ({ ...e, eventTime }))];
}

/** The identity of a served event as if it had no eventID: the hash its content gives a loaded event without one. */
function identityWithoutEventId(e: EpcisEvent): string {
  const { eventID: _eventID, ...rest } = e;
  return eventIdentity(rest as EpcisEvent);
}

/**
 * The served events a loaded event is looked up in. A loaded event with an eventID is found under it. One without
 * is found by its hash, in each form a store may hold it in (storedForms), among the served events' identities and,
 * since a sender may give an event an eventID when it captures it (the spec says nothing of eventID), among the
 * hashes of the served copies with their eventID left out.
 */
export class ServedEvents {
  private readonly byId: ReadonlyMap<string, EpcisEvent>;
  /** Served events with an eventID, by the hash of their content without it; built when first needed. */
  private withoutIds: Map<string, EpcisEvent> | undefined;

  /** `byId` is `served` by identity, when the caller holds it already. */
  constructor(
    private readonly served: readonly EpcisEvent[],
    byId?: ReadonlyMap<string, EpcisEvent>,
  ) {
    this.byId = byId ?? new Map(served.map((e) => [eventIdentity(e), e]));
  }

  /** The served copy of `loaded`, or undefined when none is served. */
  copyOf(loaded: EpcisEvent): EpcisEvent | undefined {
    const own = this.byId.get(eventIdentity(loaded));
    if (own !== undefined || (typeof loaded.eventID === "string" && loaded.eventID !== "")) return own;
    const forms = storedForms(loaded).map(eventIdentity);
    for (const id of forms.slice(1)) {
      const found = this.byId.get(id);
      if (found !== undefined) return found;
    }
    this.withoutIds ??= this.indexWithoutIds();
    for (const id of forms) {
      const found = this.withoutIds.get(id);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  private indexWithoutIds(): Map<string, EpcisEvent> {
    const out = new Map<string, EpcisEvent>();
    for (const e of this.served) {
      if (typeof e.eventID === "string" && e.eventID !== "") out.set(identityWithoutEventId(e), e);
    }
    return out;
  }
}

/** Served events already found written as the copy they were compared with. */
const sameAs = new WeakMap<EpcisEvent, EpcisEvent>();

/** What differs between two copies of an event, as the requirements that judge it see it. */
export interface ServedDifferences {
  /** Fields that differ, times a millisecond or more apart among them (EVT-SHAPE-CONTENT). */
  content?: Failure;
  /** Times that differ below the millisecond only (EVT-SHAPE-PRECISION). */
  precision?: Failure;
}

/** How two served copies of one event differ, or undefined when they are the same. */
export function servedDifferences(earlier: EpcisEvent, later: EpcisEvent): ServedDifferences | undefined {
  // Copies equal as parsed JSON are the same event: most are, and that is far faster to tell than each field's
  // canonical form. An answer several checks read is compared once.
  // The same object, as an answer holds an event served exactly as discovered (src/target/events.ts).
  if (later === earlier || sameAs.get(later) === earlier) return undefined;
  if (jsonEqual(earlier, later)) {
    sameAs.set(later, earlier);
    return undefined;
  }
  const found = differences(earlier, later, exactly);
  return split(
    found,
    (differing) => problem("is served with different content", earlier, later, differing),
    (finer) => problem("is served with times that differ below the millisecond", earlier, later, finer),
  );
}

/** Two served copies of one event that differ in any field, or undefined when they are the same. */
export function servedContentProblem(earlier: EpcisEvent, later: EpcisEvent): Failure | undefined {
  return servedDifferences(earlier, later)?.content;
}

/**
 * Differences parted into those of content and those below the millisecond; undefined when there are none. A copy
 * whose content differs is one defect (EVT-SHAPE-CONTENT): the digits of its times are not reported a second time.
 */
function split(
  found: Difference[],
  content: (differing: Difference[]) => Failure | undefined,
  precision: (finer: Difference[]) => Failure | undefined,
): ServedDifferences | undefined {
  const changed = content(found.filter((d) => d.how !== "finer"));
  if (changed !== undefined) return { content: changed };
  const finer = precision(found.filter((d) => d.how === "finer"));
  return finer === undefined ? undefined : { precision: finer };
}

/** How a served event differs from the loaded one, as the requirements that judge it see it. */
export interface LoadedDifferences extends ServedDifferences {
  /** Extension members not written as loaded (EVT-SHAPE-EXTENSIONS). */
  extensions?: Failure;
}

/**
 * How a served event differs from the loaded one beyond legitimate rewriting, or undefined when it does not:
 * differences of extension members and of time digits below the millisecond apart from those of its content.
 */
export function loadedDifferences(loaded: EpcisEvent, served: EpcisEvent): LoadedDifferences | undefined {
  const found = differences(loaded, served, asLoaded);
  if (found.length === 0) return undefined;
  const extension = (d: Difference) => extensionDifference(d.field, loaded, served);
  const out: LoadedDifferences = {
    ...split(
      found.filter((d) => !extension(d)),
      (differing) =>
        problem("is served with other content than it was loaded with", loaded, served, differing),
      (finer) =>
        problem(
          "is served with times that differ below the millisecond from those it was loaded with",
          loaded,
          served,
          finer,
        ),
    ),
  };
  const extensions = problem(
    "is served with extension members other than it was loaded with",
    loaded,
    served,
    found.filter(extension),
  );
  if (extensions !== undefined) out.extensions = extensions;
  return out;
}

/**
 * A served event whose EPCIS content differs from the loaded one beyond legitimate rewriting, or undefined;
 * differences of extension members are loadedExtensionProblem's.
 */
export function loadedContentProblem(loaded: EpcisEvent, served: EpcisEvent): Failure | undefined {
  return loadedDifferences(loaded, served)?.content;
}

/** A served event whose extension members are not written as they were loaded, or undefined. */
export function loadedExtensionProblem(loaded: EpcisEvent, served: EpcisEvent): Failure | undefined {
  return loadedDifferences(loaded, served)?.extensions;
}
