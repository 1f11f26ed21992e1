import { describe, expect, it } from "vitest";
import { identities, unionOf } from "../../../src/harness/assertions/event-sets.ts";
import type { EpcisEvent } from "../../../src/model/types.ts";

const a: EpcisEvent = { type: "ObjectEvent", eventID: "a", action: "ADD" };
const b: EpcisEvent = { type: "ObjectEvent", eventID: "b" };
const aAgain: EpcisEvent = { type: "ObjectEvent", eventID: "a", action: "OBSERVE" };

describe("unionOf", () => {
  it("keeps each identity once, the first copy seen, in order of first sight", () => {
    const union = unionOf([a, b], [aAgain, b], []);
    expect(identities(union)).toEqual(["a", "b"]);
    expect(union[0]).toBe(a);
  });

  it("is empty for no lists", () => {
    expect(unionOf()).toEqual([]);
  });
});
