import { type Clock, systemClock } from "./clock.ts";

/**
 * Spaces requests at least 1/ratePerSecond apart. Each caller reserves the next free slot before it sleeps, so
 * concurrent callers queue up instead of all waking at once; a rate of 0 means no limit.
 */
export class RateLimiter {
  readonly #intervalMs: number;
  readonly #clock: Clock;
  #nextSlot = Number.NEGATIVE_INFINITY;

  constructor(ratePerSecond: number, clock: Clock = systemClock) {
    if (!Number.isFinite(ratePerSecond) || ratePerSecond < 0) {
      throw new RangeError(
        `A rate of ${ratePerSecond} requests per second is not usable; pass a positive number, or 0 for no limit.`,
      );
    }
    this.#intervalMs = ratePerSecond > 0 ? 1000 / ratePerSecond : 0;
    this.#clock = clock;
  }

  async take(): Promise<void> {
    if (this.#intervalMs === 0) return;
    const now = this.#clock.now();
    const slot = Math.max(now, this.#nextSlot);
    this.#nextSlot = slot + this.#intervalMs;
    await this.#clock.sleep(slot - now);
  }
}
