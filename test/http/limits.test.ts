import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { type Clock, RateLimiter, Semaphore } from "../../src/http/index.ts";
import { sendJson, servingForTests } from "./servers.ts";

const LIMIT = 3;
const REQUESTS = 10;
let inFlight = 0;
let mostInFlight = 0;
// Answers are held until LIMIT requests wait together (or the last request has come), then a little longer: a
// client that let more through at once would show them, and one that keeps its limit reaches it and never
// passes it, however slow the machine.
const held: ServerResponse[] = [];
let arrived = 0;
let releasing = false;
const release = () => {
  releasing = false;
  for (const waiting of held.splice(0)) {
    inFlight--;
    sendJson(waiting, 200, { ok: true });
  }
};
const limited = servingForTests(
  (_req, res) => {
    arrived++;
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    held.push(res);
    if (!releasing && (held.length >= LIMIT || arrived === REQUESTS)) {
      releasing = true;
      setTimeout(release, 50);
    }
  },
  () => ({ allowedOrigins: [], concurrency: LIMIT }),
);

describe("the concurrency limit", () => {
  it("never has more requests in flight than allowed", async () => {
    const results = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) =>
        limited.client.get(`${limited.server.origin}/events?n=${i}`),
      ),
    );
    expect(results.every((result) => result.status === 200)).toBe(true);
    expect(mostInFlight).toBeLessThanOrEqual(LIMIT);
    expect(mostInFlight).toBe(LIMIT);
    expect(limited.client.requestCount).toBe(REQUESTS);
  });
});

describe("Semaphore", () => {
  it("admits up to its size and serves waiters in order", async () => {
    const gate = new Semaphore(2);
    const order: string[] = [];
    await gate.acquire();
    await gate.acquire();
    const third = gate.acquire().then(() => order.push("third"));
    const fourth = gate.acquire().then(() => order.push("fourth"));
    await Promise.resolve();
    expect(order).toEqual([]);
    gate.release();
    await third;
    expect(order).toEqual(["third"]);
    gate.release();
    await fourth;
    expect(order).toEqual(["third", "fourth"]);
  });

  it("releases its slot when a task fails", async () => {
    const gate = new Semaphore(1);
    await expect(gate.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(gate.run(async () => "ran")).resolves.toBe("ran");
  });

  it("refuses a size below one", () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});

/** A clock that moves only when something sleeps on it, or, when frozen, not at all. */
function fakeClock(frozen = false): Clock & { sleeps: number[] } {
  let now = 1000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      if (!frozen) now += Math.max(0, ms);
    },
  };
}

describe("RateLimiter", () => {
  it("spaces requests 1/rate apart", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(4, clock);
    for (let i = 0; i < 4; i++) await limiter.take();
    expect(clock.sleeps).toEqual([0, 250, 250, 250]);
  });

  it("queues concurrent callers one interval after another", async () => {
    const clock = fakeClock(true);
    const limiter = new RateLimiter(10, clock);
    await Promise.all([limiter.take(), limiter.take(), limiter.take()]);
    expect(clock.sleeps).toEqual([0, 100, 200]);
  });

  it("does not wait when unlimited", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(0, clock);
    await limiter.take();
    await limiter.take();
    expect(clock.sleeps).toEqual([]);
  });

  it("refuses a negative rate", () => {
    expect(() => new RateLimiter(-1)).toThrow(RangeError);
  });
});
