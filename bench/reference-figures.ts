import { runChild } from "./child.ts";
import type { ReferenceFigures } from "./child-reference.ts";

const MINUTE = 60_000;
const cache = new Map<number, Promise<ReferenceFigures>>();

/** The store figures at `events` events, from one child process per size however many benchmarks ask. */
export function referenceFigures(events: number): Promise<ReferenceFigures> {
  let figures = cache.get(events);
  if (figures === undefined) {
    // Generous for a loaded 2-core machine: a million events take about two minutes to generate and load.
    const timeout = Math.max(2 * MINUTE, (events / 1_000_000) * 10 * MINUTE);
    figures = runChild<ReferenceFigures>("child-reference.ts", [String(events)], timeout);
    cache.set(events, figures);
  }
  return figures;
}
