// A small seeded PRNG (sfc32, seeded through splitmix32). Building a million events through shrinkable
// arbitraries would be slow and memory-hungry, so every dataset is built from this source, and the fast-check
// arbitraries only draw the seeds and the plan it starts from.

/** A deterministic source of random choices. */
export interface Random {
  /** A uniform 32-bit unsigned integer. */
  next(): number;
  /** A uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** n random decimal digits. */
  digits(n: number): string;
  /** n random lower-case hexadecimal digits. */
  hex(n: number): string;
  /** A new independent source whose sequence depends only on the next draws of this one. */
  fork(): Random;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

class Sfc32 implements Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** From a 32-bit seed (mixed into three words), or from four words given whole (a fork). */
  constructor(seed: number, words?: readonly [number, number, number, number]) {
    if (words) {
      [this.a, this.b, this.c, this.d] = words.map((w) => w >>> 0) as [number, number, number, number];
    } else {
      const mix = splitmix32(seed);
      this.a = mix();
      this.b = mix();
      this.c = mix();
      this.d = 1;
    }
    // A few rounds so that nearby seeds diverge at once.
    for (let i = 0; i < 12; i++) this.next();
  }

  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  int(min: number, max: number): number {
    if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) {
      throw new RangeError(`Random.int needs integers min <= max, got ${min} and ${max}.`);
    }
    const span = max - min + 1;
    if (span <= 0x100000000) return min + Math.floor((this.next() / 0x100000000) * span);
    const high = this.next() / 0x100000000;
    const low = this.next() / 0x100000000 / 0x100000000;
    return min + Math.floor((high + low) * span);
  }

  chance(p: number): boolean {
    return this.next() / 0x100000000 < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("Random.pick needs a non-empty list.");
    return items[this.int(0, items.length - 1)] as T;
  }

  digits(n: number): string {
    let out = "";
    for (let i = 0; i < n; i++) out += String(this.int(0, 9));
    return out;
  }

  hex(n: number): string {
    let out = "";
    while (out.length < n) out += this.next().toString(16).padStart(8, "0");
    return out.slice(0, n);
  }

  fork(): Random {
    // The whole 128-bit state of the fork comes from this source: a 32-bit seed would repeat within some 77,000
    // forks (a million-event dataset forks one per chain), and two chains with one seed write the same eventIDs.
    return new Sfc32(0, [this.next(), this.next(), this.next(), this.next()]);
  }
}

/** A seeded source; the same seed always gives the same sequence. */
export function createRandom(seed: number): Random {
  return new Sfc32(seed);
}
