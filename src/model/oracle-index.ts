// The machinery of the oracle's index (oracle.ts): which events each value selects, read once per events array,
// so that a query becomes an intersection of position sets instead of a test of every event against every
// value. Nothing here decides what matches: oracle.ts gives the readers and keys, taken from its own predicates,
// and holds the answers equal to its plain filter.
import { compareInstants } from "./instant.ts";
import type { Instant } from "./types.ts";

/** Positions of events in their array. */
export type Positions = ArrayLike<number>;

/** The events one parameter selects: the union of these position lists (a position may come more than once). */
export type Selection = readonly Positions[];

// No positions: what every key not found selects.
const NONE: Positions = new Int32Array(0);

/**
 * For each key, the positions of the events it was read from. Keys are compared as Map keys are (SameValueZero),
 * which for a string is `===`.
 */
export class Postings<K = string> {
  readonly #byKey = new Map<K, number[]>();

  /** The keys of each of `count` events, read by position. */
  static read<K>(count: number, keysOf: (position: number) => Iterable<K>): Postings<K> {
    const out = new Postings<K>();
    for (let p = 0; p < count; p++) for (const key of keysOf(p)) out.#add(key, p);
    return out;
  }

  /** The postings of groups of keys: each key of `source` joins the group `groupOf` names, if any. */
  static grouped(source: Postings, groupOf: (key: string) => string | undefined): Postings {
    const out = new Postings();
    for (const [key, positions] of source.#byKey) {
      const group = groupOf(key);
      if (group !== undefined) for (const p of positions) out.#add(group, p);
    }
    return out;
  }

  #add(key: K, position: number): void {
    const list = this.#byKey.get(key);
    if (list === undefined) this.#byKey.set(key, [position]);
    else list.push(position);
  }

  get(key: K): Positions {
    return this.#byKey.get(key) ?? NONE;
  }

  keys(): K[] {
    return [...this.#byKey.keys()];
  }
}

/**
 * The events that have an instant, in the order of their instants: the events within time bounds are one run
 * of it, found by binary search with the exact comparison of instants (sub-millisecond digits included).
 */
export class TimeOrder {
  readonly #positions: Int32Array;
  readonly #instants: Instant[];

  constructor(count: number, instantOf: (position: number) => Instant | undefined) {
    const timed: { position: number; at: Instant; seconds: number }[] = [];
    for (let position = 0; position < count; position++) {
      const at = instantOf(position);
      if (at !== undefined) timed.push({ position, at, seconds: Number(at.epochSeconds) });
    }
    // Whole seconds as numbers first, which is quicker than bigints: Number() keeps their order (it may only make
    // two far-apart values equal), and equal ones are told apart by the exact comparison.
    timed.sort((a, b) => a.seconds - b.seconds || compareInstants(a.at, b.at));
    this.#positions = Int32Array.from(timed, (t) => t.position);
    this.#instants = timed.map((t) => t.at);
  }

  /** The positions of the events at or after `from` (inclusive) and before `to` (strict); a missing bound is open. */
  between(from: Instant | undefined, to: Instant | undefined): Positions {
    const start = from === undefined ? 0 : this.#firstNotBefore(from);
    const end = to === undefined ? this.#instants.length : this.#firstNotBefore(to);
    // subarray gives nothing when end is before start (an empty window).
    return this.#positions.subarray(start, end);
  }

  /** The index of the first instant not before `bound`. */
  #firstNotBefore(bound: Instant): number {
    let low = 0;
    let high = this.#instants.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareInstants(this.#instants[mid] as Instant, bound) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/** The positions, ascending, of the events that every selection holds (all of them when there is none). */
export function intersect(count: number, selections: readonly Selection[]): number[] {
  // marks[p] counts the selections already found to hold p, in order; a repeat within one selection counts once.
  const marks = new Uint8Array(count);
  selections.forEach((selection, k) => {
    for (const positions of selection) {
      for (let i = 0; i < positions.length; i++) {
        const p = positions[i] as number;
        if (marks[p] === k) marks[p] = k + 1;
      }
    }
  });
  const out: number[] = [];
  for (let p = marks.indexOf(selections.length); p !== -1; p = marks.indexOf(selections.length, p + 1)) {
    out.push(p);
  }
  return out;
}

function sameElements(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  // A plain loop: every() with a callback took ten times as long over 100,000 events.
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i === a.length;
}

interface Entry<T> {
  /** The elements the value was built from; undefined until it is built. */
  snapshot?: readonly unknown[];
  value?: T;
}

/**
 * A value built from an array, kept while the array lives, and built again when the array's elements change.
 * The build may give undefined for an array it cannot serve.
 */
export class PerArray<T> {
  readonly #entries = new WeakMap<readonly unknown[], Entry<T>>();
  readonly #build: (items: readonly unknown[]) => T | undefined;

  constructor(build: (items: readonly unknown[]) => T | undefined) {
    this.#build = build;
  }

  /**
   * The value for an array from its second call on; undefined on the first, since many callers pass a fresh
   * array once, which would cost more to build for than it saves.
   */
  get(items: readonly unknown[]): T | undefined {
    if (this.#entries.has(items)) return this.now(items);
    this.#entries.set(items, {});
    return undefined;
  }

  /** The value for an array, built now if need be. */
  now(items: readonly unknown[]): T | undefined {
    let entry = this.#entries.get(items);
    if (entry === undefined) {
      entry = {};
      this.#entries.set(items, entry);
    }
    if (entry.snapshot === undefined || !sameElements(entry.snapshot, items)) {
      const snapshot = [...items];
      entry.value = this.#build(snapshot);
      entry.snapshot = snapshot;
    }
    return entry.value;
  }
}
