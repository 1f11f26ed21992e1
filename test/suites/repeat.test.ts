// EVT-REPEAT-NOT-PIPE's decision (suites/events/support/repeat.ts) on made-up answers: a repeat fails only when
// it is answered with exactly the target's own pipe-joined answer, and that answer is neither value's alone.
import { describe, expect, it } from "vitest";
import { judgeRepeat, type Reading } from "../../suites/events/support/repeat.ts";

const events = (ids: string): Reading => ({ kind: "answered", events: ids });
const TOO_BROAD: Reading = { kind: "too-broad" };
const REFUSED: Reading = { kind: "refused", status: 400 };
const UNUSABLE: Reading = { kind: "unusable" };

describe("judgeRepeat", () => {
  it("takes a refused repeat as not read as the pipe, asking nothing more", () => {
    expect(judgeRepeat({ repeat: REFUSED })).toMatchObject({ verdict: "not-pipe" });
  });

  it("asks the pipe-joined answer of a repeat that was answered or refused as too broad", () => {
    expect(judgeRepeat({ repeat: events("a b") })).toEqual({ need: "pipe" });
    expect(judgeRepeat({ repeat: TOO_BROAD })).toEqual({ need: "pipe" });
  });

  it("passes a repeat answered otherwise than the pipe-joined query, right or wrong", () => {
    expect(judgeRepeat({ repeat: events("b"), pipe: events("a b") })).toMatchObject({ verdict: "not-pipe" });
    // The oracle's union is "a b"; the target's own pipe answer is what the repeat is held to.
    expect(judgeRepeat({ repeat: events("a b"), pipe: events("") })).toMatchObject({ verdict: "not-pipe" });
    expect(judgeRepeat({ repeat: events("a"), pipe: REFUSED })).toMatchObject({ verdict: "not-pipe" });
    expect(judgeRepeat({ repeat: TOO_BROAD, pipe: events("a b") })).toMatchObject({ verdict: "not-pipe" });
  });

  it("asks each value alone when the repeat answered the pipe-joined query's events", () => {
    expect(judgeRepeat({ repeat: events("a b"), pipe: events("a b") })).toEqual({ need: "singles" });
  });

  it("fails a repeat answered as the target's own wrong pipe answer that neither value gives alone", () => {
    // Values combined as AND: the pipe answers the events both values match, and so does the repeat.
    const judged = judgeRepeat({
      repeat: events("c"),
      pipe: events("c"),
      singles: [events("a c"), events("b c")],
    });
    expect(judged).toMatchObject({ verdict: "as-pipe" });
  });

  it("fails a repeat read as the right pipe answer too", () => {
    const judged = judgeRepeat({
      repeat: events("a b"),
      pipe: events("a b"),
      singles: [events("a"), events("b")],
    });
    expect(judged).toMatchObject({ verdict: "as-pipe" });
  });

  it("leaves it undecided when the pipe answer is one value's alone, since the repeat may be answered from it", () => {
    const judged = judgeRepeat({
      repeat: events("a"),
      pipe: events("a"),
      singles: [events("a"), events("b")],
    });
    expect(judged).toMatchObject({ verdict: "undecided" });
    expect(
      judgeRepeat({ repeat: events("b"), pipe: events("b"), singles: [events("a"), events("b")] }),
    ).toMatchObject({ verdict: "undecided" });
  });

  it("leaves it undecided when an answer needed is missing", () => {
    expect(judgeRepeat({ repeat: UNUSABLE })).toMatchObject({ verdict: "undecided" });
    expect(judgeRepeat({ repeat: events("a"), pipe: UNUSABLE })).toMatchObject({ verdict: "undecided" });
    expect(judgeRepeat({ repeat: TOO_BROAD, pipe: TOO_BROAD })).toMatchObject({ verdict: "undecided" });
    expect(
      judgeRepeat({ repeat: events("a b"), pipe: events("a b"), singles: [TOO_BROAD, events("b")] }),
    ).toMatchObject({ verdict: "undecided" });
  });
});
