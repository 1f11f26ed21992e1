// An event has one content whichever answer carries it (spec 4.1, EVT-SHAPE-CONTENT). Two served copies are
// compared exactly, recordTime included; a served copy is compared with the loaded event up to what a server may
// rewrite (identifier, bizStep and disposition forms, the written form of eventTime, its own recordTime).
import { canonicalJson, eventIdentity } from "../../model/index.ts";
import type { EpcisEvent } from "../../model/types.ts";
import type { Failure } from "./failure.ts";

/** Fields named in a reason; the evidence lists them all. */
const NAMED_FIELDS = 4;

type SameValue = (field: string, a: unknown, b: unknown) => boolean;

const exactly: SameValue = (_field, a, b) => canonicalJson(a) === canonicalJson(b);

// The identity of an event without eventID hashes it in the canonical form a served copy is held to (model
// identity.ts), so a one-field event compares that field the way the model does.
const asLoaded: SameValue = (field, a, b) => {
  if (field === "eventID") return a === b;
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

/** Two served copies of one event that differ in any field, or undefined when they are the same. */
export function servedContentProblem(earlier: EpcisEvent, later: EpcisEvent): Failure | undefined {
  return problem("is served with different content", earlier, later, differences(earlier, later, exactly));
}

/** A served event whose content differs from the loaded one beyond legitimate rewriting, or undefined. */
export function loadedContentProblem(loaded: EpcisEvent, served: EpcisEvent): Failure | undefined {
  return problem(
    "is served with other content than it was loaded with",
    loaded,
    served,
    differences(loaded, served, asLoaded),
  );
}
