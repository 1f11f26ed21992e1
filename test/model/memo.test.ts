// The bounded memo the oracle and the identifier equivalences share (src/model/memo.ts).
import { describe, expect, it } from "vitest";
import { MEMO_LIMIT, memoized } from "../../src/model/memo.ts";

/** A memoized function that counts what it computes. */
function counting<T>(answer: (key: string) => T) {
  const asked: string[] = [];
  const f = memoized((key: string) => {
    asked.push(key);
    return answer(key);
  });
  return { f, asked };
}

describe("memoized", () => {
  it("computes a key once, an answer of undefined included", () => {
    const { f, asked } = counting((key) => (key.startsWith("x") ? undefined : key.length));
    expect([f("ab"), f("xy"), f("ab"), f("xy"), f("abc")]).toEqual([2, undefined, 2, undefined, 3]);
    expect(asked).toEqual(["ab", "xy", "abc"]);
  });

  it("remembers nothing of a computation that throws: it throws again, computed again", () => {
    const { f, asked } = counting((key): number => {
      throw new RangeError(`no ${key}`);
    });
    expect(() => f("a")).toThrow(RangeError);
    expect(() => f("a")).toThrow("no a");
    expect(asked).toEqual(["a", "a"]);
  });

  it("keeps at most MEMO_LIMIT answers, then starts again", () => {
    const { f, asked } = counting((key) => key);
    for (let i = 0; i < MEMO_LIMIT; i++) f(String(i));
    f("0");
    expect(asked).toHaveLength(MEMO_LIMIT);
    // One key past the limit: the memo starts again with it alone.
    f("past");
    f("past");
    f("0");
    expect(asked.slice(MEMO_LIMIT)).toEqual(["past", "0"]);
  });
});
