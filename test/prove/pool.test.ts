import { expect, test } from "vitest";
import { mapPool } from "../../src/prove/pool.ts";

test("mapPool keeps input order and never runs more than its concurrency at once", async () => {
  let running = 0;
  let most = 0;
  const out = await mapPool([5, 1, 4, 2, 3], 2, async (n) => {
    running += 1;
    most = Math.max(most, running);
    await new Promise((r) => setTimeout(r, n));
    running -= 1;
    return n * 10;
  });
  expect(out).toEqual([50, 10, 40, 20, 30]);
  expect(most).toBe(2);
});

test("mapPool refuses a concurrency below 1", async () => {
  await expect(mapPool([1], 0, async (n) => n)).rejects.toThrow(/at least 1/);
});
