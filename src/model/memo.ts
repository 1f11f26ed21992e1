// A bounded memo of a pure function of a string. The oracle and the equivalences it rests on ask about the same few
// thousand identifiers and times query after query; remembering the answers changes nothing but the time, and the
// bound only limits memory.

/** How many answers a memo keeps before it starts again. */
export const MEMO_LIMIT = 100_000;

/** `compute`, answering a key it was asked before from memory; undefined is remembered like any answer. */
export function memoized<T>(compute: (key: string) => T): (key: string) => T {
  const memo = new Map<string, T>();
  return (key) => {
    const known = memo.get(key);
    if (known !== undefined || memo.has(key)) return known as T;
    const value = compute(key);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, value);
    return value;
  };
}
