import { describe, expect, it } from "vitest";
import { distinct, identities, unionOf } from "../../src/assertions/event-sets.ts";
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

  it("keeps an identity as many times as the list holding it most holds it, the first copies seen", () => {
    // A list of the known events holds an identity the repository holds twice twice; an answer adds no third.
    const known = [a, aAgain, b];
    expect(unionOf(known, [a, b])).toBe(known);
    expect(unionOf(known, [aAgain, aAgain, aAgain])).toEqual([a, aAgain, aAgain, b]);
    const union = unionOf([a, b], [b, aAgain, a]);
    expect(union).toEqual([a, a, b]);
    expect(union[1]).toBe(a);
  });

  it("is the first list itself when the others add nothing", () => {
    const first = [a, b];
    expect(unionOf(first, [aAgain], [b])).toBe(first);
    expect(unionOf(first)).toBe(first);
    const twice = [a, aAgain, b];
    expect(unionOf(twice)).toBe(twice);
    // A new identity, or a copy more than the first list holds, makes a list of its own.
    const c: EpcisEvent = { type: "ObjectEvent", eventID: "c" };
    expect(identities(unionOf(first, [c]))).toEqual(["a", "b", "c"]);
    const union = unionOf([a, aAgain], [b]);
    expect(identities(union)).toEqual(["a", "a", "b"]);
    expect(union[2]).toBe(b);
  });

  it("keeps every identity once in distinct, the first copy seen", () => {
    const once = [a, b];
    expect(distinct(once)).toBe(once);
    expect(distinct([a, b, aAgain])).toEqual([a, b]);
  });

  it("is empty for no lists", () => {
    expect(unionOf()).toEqual([]);
  });
});
