// A small pool: runs start as slots free up, results come back in the order of the inputs.
import os from "node:os";

/** Runs at once: each run starts a reference of its own, so a few per machine suffice. */
export function defaultConcurrency(): number {
  return Math.max(1, Math.min(3, os.availableParallelism()));
}

export async function mapPool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency is ${concurrency} but must be a whole number of at least 1.`);
  }
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return results;
}
