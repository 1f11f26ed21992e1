// An event has one content whichever answer carries it (spec 4.1, EVT-SHAPE-CONTENT). Two served copies are
// compared exactly, recordTime included; a served copy is compared with the loaded event up to what a server may
// rewrite (identifier, bizStep and disposition forms, the written form of eventTime, its own recordTime). The
// extension members of a loaded event (those EPCIS does not define, and the members of ilmd) are compared apart:
// a JSON-LD repository may write them back under prefixes of its own, which this comparison cannot tell from a
// change (EVT-SHAPE-EXTENSIONS, a SHOULD).
import { canonicalJson, eventIdentity } from "../../model/index.ts";
import type { EpcisEvent } from "../../model/types.ts";
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

type SameValue = (field: string, a: unknown, b: unknown) => boolean;

/**
 * Whether two parsed JSON values are equal, objects whatever the order of their members: canonicalJson would write
 * them alike. Values from JSON.parse only (no undefined members, no other prototypes).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let members = 0;
  for (const key in x) {
    if (!Object.hasOwn(y, key) || !jsonEqual(x[key], y[key])) return false;
    members += 1;
  }
  for (const _ in y) members -= 1;
  return members === 0;
}

/**
 * Whether two parsed JSON values are the same down to the order of every object's members: JSON.stringify would
 * write them alike. Values from JSON.parse only.
 */
export function jsonIdentical(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonIdentical(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // for-in walks a parsed object's members in the order Object.keys lists them: one list pairs them, and the walk
  // allocates nothing else (this runs for every event of every answer, answer.ts).
  const yKeys = Object.keys(y);
  let at = 0;
  for (const key in x) {
    if (key !== yKeys[at] || !jsonIdentical(x[key], y[key])) return false;
    at += 1;
  }
  return at === yKeys.length;
}

// Values equal as parsed JSON are equal in every form: most compare so, cheaply, and the canonical comparison
// decides the rest.
const exactly: SameValue = (_field, a, b) => jsonEqual(a, b) || canonicalJson(a) === canonicalJson(b);

// The identity of an event without eventID hashes it in the canonical form a served copy is held to (model
// identity.ts), so a one-field event compares that field the way the model does.
const asLoaded: SameValue = (field, a, b) => {
  if (field === "eventID") return a === b;
  if (jsonEqual(a, b)) return true;
  const one = (value: unknown) => eventIdentity({ type: "", [field]: value } as EpcisEvent);
  return one(a) === one(b);
};

/** The top-level fields whose values differ, each as "name missing", "name added" or "name changed". */
function differences(expected: EpcisEvent, actual: EpcisEvent, same: SameValue): string[] {
  const fields = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
  const out: string[] = [];
  for (const field of fields) {
    const a = expected[field];
    const b = actual[field];
    if (same(field, a, b)) continue;
    if (b === undefined) out.push(`${field} missing`);
    else if (a === undefined) out.push(`${field} added`);
    else out.push(`${field} changed`);
  }
  return out;
}

function problem(
  what: string,
  expected: EpcisEvent,
  actual: EpcisEvent,
  found: string[],
): Failure | undefined {
  if (found.length === 0) return undefined;
  const named = found.slice(0, NAMED_FIELDS).join(", ") + (found.length > NAMED_FIELDS ? ", …" : "");
  return {
    reason: `event ${eventIdentity(expected)} ${what}: ${named}`,
    evidence: { expected, actual, message: `fields that differ: ${found.join(", ")}` },
  };
}

/** Served events already found written as the copy they were compared with. */
const sameAs = new WeakMap<EpcisEvent, EpcisEvent>();

/** Two served copies of one event that differ in any field, or undefined when they are the same. */
export function servedContentProblem(earlier: EpcisEvent, later: EpcisEvent): Failure | undefined {
  // Copies equal as parsed JSON are the same event: most are, and that is far faster to tell than each field's
  // canonical form. An answer several checks read is compared once.
  // The same object, as an answer holds an event served exactly as discovered (src/harness/answer.ts).
  if (later === earlier || sameAs.get(later) === earlier) return undefined;
  if (jsonEqual(earlier, later)) {
    sameAs.set(later, earlier);
    return undefined;
  }
  return problem("is served with different content", earlier, later, differences(earlier, later, exactly));
}

/**
 * A served event whose EPCIS content differs from the loaded one beyond legitimate rewriting, or undefined;
 * differences of extension members are loadedExtensionProblem's.
 */
export function loadedContentProblem(loaded: EpcisEvent, served: EpcisEvent): Failure | undefined {
  const found = differences(loaded, served, asLoaded).filter(
    (d) => !extensionDifference(fieldOf(d), loaded, served),
  );
  return problem("is served with other content than it was loaded with", loaded, served, found);
}

/** A served event whose extension members are not written as they were loaded, or undefined. */
export function loadedExtensionProblem(loaded: EpcisEvent, served: EpcisEvent): Failure | undefined {
  const found = differences(loaded, served, asLoaded).filter((d) =>
    extensionDifference(fieldOf(d), loaded, served),
  );
  return problem("is served with extension members other than it was loaded with", loaded, served, found);
}

/** The field a difference names ("ilmd changed": ilmd). */
function fieldOf(difference: string): string {
  return difference.slice(0, difference.lastIndexOf(" "));
}
