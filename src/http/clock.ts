import { setTimeout as delay } from "node:timers/promises";

/** Time as the limiters see it; tests substitute a clock they advance themselves. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: async (ms) => {
    if (ms > 0) await delay(ms);
  },
};
