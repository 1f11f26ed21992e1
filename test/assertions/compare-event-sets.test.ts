import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareEventSets } from "../../src/assertions/event-sets.ts";
import { eventIdentity } from "../../src/model/index.ts";
import type { EpcisEvent } from "../../src/model/types.ts";

/** The comparison as plain set arithmetic over the identities, each list in the order of first sight. */
function bySets(expected: readonly EpcisEvent[], actual: readonly EpcisEvent[]) {
  const want = [...new Set(expected.map(eventIdentity))];
  const got = actual.map(eventIdentity);
  const seen = [...new Set(got)];
  const duplicated = [...new Set(got.filter((id, at) => got.indexOf(id) !== at))];
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
