// Timing with warm-up and medians: a single sample says little on a loaded machine, and the median of several
// ignores the one that a collection or another process happened to slow down.

export interface Timing {
  /** Median time of one call, in milliseconds. */
  medianMs: number;
  /** How many timed samples the median was taken over. */
  samples: number;
  /** Calls per timed sample: fast calls are batched so that a sample is long enough to time. */
  callsPerSample: number;
}

export interface MeasureOptions {
  /** Calls before timing, so that the timed ones run optimised code. Default 1. */
  warmup?: number;
  /** Fewest timed samples. Default 5. */
  minSamples?: number;
  /** Most timed samples. Default 25. */
  maxSamples?: number;
  /** Stop adding samples once this much time has been spent timing, past minSamples. Default 2000. */
  budgetMs?: number;
  /** A sample shorter than this batches more calls. Default 2. */
  minSampleMs?: number;
}

/** Keeps results alive so that the engine cannot drop a call whose value is unused. */
let _sink: unknown;

function consume(value: unknown): void {
  _sink = value;
}

export function median(values: readonly number[]): number {
  if (values.length === 0)
    throw new RangeError("The median of no values is undefined; take at least one sample.");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The median time of one call of `fn`. */
export async function measure(fn: () => unknown, opts: MeasureOptions = {}): Promise<Timing> {
  const warmup = opts.warmup ?? 1;
  const minSamples = opts.minSamples ?? 5;
  const maxSamples = Math.max(minSamples, opts.maxSamples ?? 25);
  const budgetMs = opts.budgetMs ?? 2000;
  const minSampleMs = opts.minSampleMs ?? 2;
  for (let i = 0; i < warmup; i++) {
    const ms = await timeCalls(fn, 1);
    // A call slower than the whole budget is timed once: repeating it would only make the benchmark slow too.
    if (ms >= budgetMs) return { medianMs: ms, samples: 1, callsPerSample: 1 };
  }

  let calls = 1;
  for (;;) {
    const ms = await timeCalls(fn, calls);
    if (ms >= minSampleMs || calls >= 1 << 20) break;
    calls *= ms <= 0 ? 16 : Math.min(16, Math.ceil((minSampleMs * 1.5) / ms));
  }
  const perCall: number[] = [];
  const started = performance.now();
  while (perCall.length < maxSamples) {
    perCall.push((await timeCalls(fn, calls)) / calls);
    if (perCall.length >= minSamples && performance.now() - started >= budgetMs) break;
  }
  return { medianMs: median(perCall), samples: perCall.length, callsPerSample: calls };
}

async function timeCalls(fn: () => unknown, calls: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < calls; i++) consume(await fn());
  return performance.now() - start;
}

/**
 * Times two functions in alternating samples, so that a burst of load from elsewhere on the machine falls on
 * both sides of a ratio rather than on one.
 */
export async function measurePair(
  a: () => unknown,
  b: () => unknown,
  opts: { warmup?: number; rounds?: number; minSampleMs?: number } = {},
): Promise<[Timing, Timing]> {
  const warmup = opts.warmup ?? 2;
  const rounds = opts.rounds ?? 15;
  const minSampleMs = opts.minSampleMs ?? 20;
  for (let i = 0; i < warmup; i++) {
    consume(await a());
    consume(await b());
  }
  const callsA = await callsFilling(a, minSampleMs);
  const callsB = await callsFilling(b, minSampleMs);
  const perCallA: number[] = [];
  const perCallB: number[] = [];
  for (let r = 0; r < rounds; r++) {
    perCallA.push((await timeCalls(a, callsA)) / callsA);
    perCallB.push((await timeCalls(b, callsB)) / callsB);
  }
  return [
    { medianMs: median(perCallA), samples: rounds, callsPerSample: callsA },
    { medianMs: median(perCallB), samples: rounds, callsPerSample: callsB },
  ];
}

/** How many calls of `fn` take at least `minSampleMs`. */
async function callsFilling(fn: () => unknown, minSampleMs: number): Promise<number> {
  const once = Math.max(await timeCalls(fn, 1), 1e-3);
  return Math.max(1, Math.ceil(minSampleMs / once));
}
