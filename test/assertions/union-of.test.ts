import { describe, expect, it } from "vitest";
import { identities, unionOf } from "../../src/assertions/event-sets.ts";
import type { EpcisEvent } from "../../src/model/types.ts";

const a: EpcisEvent = { type: "ObjectEvent", eventID: "a", action: "ADD" };
const b: EpcisEvent = { type: "ObjectEvent", eventID: "b" };
const aAgain: EpcisEvent = { type: "ObjectEvent", eventID: "a", action: "OBSERVE" };

describe("unionOf", () => {
  it("keeps each identity once, the first copy seen, in order of first sight", () => {
    const union = unionOf([a, b], [aAgain, b], []);
    expect(identities(union)).toEqual(["a", "b"]);
    expect(union[0]).toBe(a);
  });

  it("is the first list itself when that holds each identity once and the others add none", () => {
    const first = [a, b];
    expect(unionOf(first, [aAgain], [b])).toBe(first);
    expect(unionOf(first)).toBe(first);
    // A new identity, or one the first list holds twice, makes a list of its own.
    const c: EpcisEvent = { type: "ObjectEvent", eventID: "c" };
    expect(identities(unionOf(first, [c]))).toEqual(["a", "b", "c"]);
    const twice = [a, aAgain, b];
    const once = unionOf(twice);
    expect(once).not.toBe(twice);
    expect(once).toEqual([a, b]);
    // A first list holding an identity twice, and another list adding one: as many identities as the first
    // list's events, but not its events.
    const union = unionOf([a, aAgain], [b]);
    expect(identities(union)).toEqual(["a", "b"]);
    expect(union[1]).toBe(b);
  });

  it("is empty for no lists", () => {
    expect(unionOf()).toEqual([]);
  });
});
