import { describe, expect, it } from "vitest";
import { measure, measurePair, median } from "../../bench/sample.ts";

function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Spinning, not sleeping: a timer may fire early, the clock may not.
  }
}

describe("median", () => {
  it("takes the middle value of an odd count and the mean of the middle two of an even count", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it("leaves its input in the order given", () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it("refuses no values", () => {
    expect(() => median([])).toThrow(/at least one sample/);
  });
});

describe("measure", () => {
  it("calls the function for warm-up and every sample, and reports the samples it took", async () => {
    let calls = 0;
    const t = await measure(
      () => {
        calls++;
      },
      { warmup: 2, minSamples: 4, maxSamples: 4, budgetMs: 60_000, minSampleMs: 0 },
    );
    expect(t.samples).toBe(4);
    expect(t.callsPerSample).toBe(1);
    expect(calls).toBe(2 + 1 + 4);
    expect(t.medianMs).toBeGreaterThanOrEqual(0);
  });

  it("times once a call slower than the whole budget", async () => {
    let calls = 0;
    const t = await measure(
      () => {
        calls++;
        busyFor(20);
      },
      { budgetMs: 5, minSamples: 5 },
    );
    expect(t.samples).toBe(1);
    expect(calls).toBe(1);
    expect(t.medianMs).toBeGreaterThanOrEqual(20);
  });

  it("awaits an asynchronous function before timing the next call", async () => {
    let running = 0;
    let overlapped = false;
    await measure(
      async () => {
        running++;
        if (running > 1) overlapped = true;
        await new Promise((r) => setImmediate(r));
        running--;
      },
      { minSamples: 3, maxSamples: 3, minSampleMs: 0 },
    );
    expect(overlapped).toBe(false);
  });
});

describe("measurePair", () => {
  it("takes the same number of samples of both sides, alternating", async () => {
    const order: string[] = [];
    const [a, b] = await measurePair(
      () => order.push("a"),
      () => order.push("b"),
      { warmup: 1, rounds: 3, minSampleMs: 0 },
    );
    expect(a.samples).toBe(3);
    expect(b.samples).toBe(3);
    // warm-up a b, one calibration call each, then a b a b a b.
    expect(order.slice(-6).join("")).toBe("ababab");
  });
});
