/** Bounds how many tasks run at once; waiters are served in arrival order. */
export class Semaphore {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) {
      throw new RangeError(
        `A semaphore of size ${size} cannot admit anything; pass a whole number of at least 1.`,
      );
    }
    this.#free = size;
  }

  async acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Hands the slot straight to the next waiter, so a late arrival cannot overtake the queue. */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }
}
