import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether the presented key is one of the keys, in time that depends on neither: both sides are hashed to
 * equal-length digests and every key is compared, so neither a key's length nor its position leaks.
 */
export function keyMatches(presented: string, keys: readonly string[]): boolean {
  const digest = sha256(presented);
  let matched = false;
  for (const key of keys) {
    if (timingSafeEqual(digest, sha256(key))) matched = true;
  }
  return matched;
}

function sha256(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}
