import { generateDataset } from "../src/generate/index.ts";
import type { EpcisEvent } from "../src/model/index.ts";
import { EventStore } from "../src/reference/index.ts";

/** The seed every benchmark generates its data with, so that two runs measure the same work. */
export const BENCH_SEED = 1;

/** Generated events as a sender serves them: loaded into the reference store, so each carries a recordTime. */
export async function servedEvents(count: number): Promise<EpcisEvent[]> {
  const store = await EventStore.load(generateDataset({ seed: BENCH_SEED, events: count }).events);
  return [...store.events];
}
