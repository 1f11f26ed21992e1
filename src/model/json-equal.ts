// Equality of parsed JSON values, at the two strengths the readers of answers need.

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
  // allocates nothing else (this runs for every event of every answer, src/target/events.ts).
  const yKeys = Object.keys(y);
  let at = 0;
  for (const key in x) {
    if (key !== yKeys[at] || !jsonIdentical(x[key], y[key])) return false;
    at += 1;
  }
  return at === yKeys.length;
}
