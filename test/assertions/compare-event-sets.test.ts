import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareEventSets } from "../../src/assertions/event-sets.ts";
import { eventIdentity } from "../../src/model/index.ts";
import type { EpcisEvent } from "../../src/model/types.ts";

/**
 * The comparison as plain arithmetic over the identities, missing and extra in the order of first sight: an identity
 * is answered twice when the answer holds it more times than the expected list does, and more than once.
 */
function bySets(expected: readonly EpcisEvent[], actual: readonly EpcisEvent[]) {
  const wanted = expected.map(eventIdentity);
  const want = [...new Set(wanted)];
  const got = actual.map(eventIdentity);
  const seen = [...new Set(got)];
  const times = (list: string[], id: string) => list.filter((x) => x === id).length;
  // In the order of the answered copy that is one too many.
  const duplicated = [
    ...new Set(got.filter((id, at) => times(got.slice(0, at + 1), id) > Math.max(1, times(wanted, id)))),
  ];
  const missing = want.filter((id) => !seen.includes(id));
  const extra = seen.filter((id) => !want.includes(id));
  return { equal: missing.length + extra.length + duplicated.length === 0, missing, extra, duplicated };
}

const event = (id: string): EpcisEvent => ({ type: "ObjectEvent", eventID: id, action: "OBSERVE" });

describe("compareEventSets", () => {
  it("names what is missing, what is extra and what came twice, each in the order first seen", () => {
    const [a, b, c, d] = ["a", "b", "c", "d"].map(event) as [EpcisEvent, EpcisEvent, EpcisEvent, EpcisEvent];
    expect(compareEventSets([a, b, c], [d, b, d, b, b])).toEqual({
      equal: false,
      missing: ["a", "c"],
      extra: ["d"],
      duplicated: ["d", "b"],
    });
    expect(compareEventSets([a, b], [b, a])).toEqual({ equal: true, missing: [], extra: [], duplicated: [] });
    // An answer as long as the expected list, one identity twice in place of another: both are named.
    expect(compareEventSets([a, b], [a, a])).toMatchObject({
      equal: false,
      missing: ["b"],
      duplicated: ["a"],
    });
  });

  it("takes an identity the expected list holds n times as answered rightly up to n times, and twice past them", () => {
    const [a, b] = ["a", "b"].map(event) as [EpcisEvent, EpcisEvent];
    // The repository holds a twice (EPCIS makes eventID optional: the same event captured twice).
    expect(compareEventSets([a, a, b], [a, b, a])).toEqual({
      equal: true,
      missing: [],
      extra: [],
      duplicated: [],
    });
    // Served once, it is not missing: the identity is answered.
    expect(compareEventSets([a, a, b], [b, a]).equal).toBe(true);
    // A third copy is one more than the repository holds; b, held once, answered twice, is a repeat as before.
    expect(compareEventSets([a, a, b], [a, a, a, b, b])).toEqual({
      equal: false,
      missing: [],
      extra: [],
      duplicated: ["a", "b"],
    });
    // Two events without eventID that differ only in recordTime are one identity, held twice.
    const first: EpcisEvent = { type: "ObjectEvent", action: "OBSERVE", recordTime: "2024-03-01T10:00:00Z" };
    const second: EpcisEvent = { ...first, recordTime: "2024-03-01T10:00:01Z" };
    expect(compareEventSets([first, second], [second, first]).equal).toBe(true);
    expect(compareEventSets([first], [second, first]).duplicated).toEqual([eventIdentity(first)]);
  });

  it("agrees with set arithmetic over the identities, for any two lists", () => {
    const ids = fc.constantFrom("a", "b", "c", "d", "e");
    const list = fc.array(ids.map(event), { maxLength: 8 });
    fc.assert(
      fc.property(list, list, (expected, actual) => {
        expect(compareEventSets(expected, actual)).toEqual(bySets(expected, actual));
      }),
      { seed: 14, numRuns: 2000 },
    );
  });
});
