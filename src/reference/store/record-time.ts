import type { Instant } from "../../model/index.ts";
import { addUnits, formatInstant, parseInstant } from "../../model/index.ts";

export interface RecordTimeOptions {
  /** The instant loading starts; default: now. */
  loadStart?: string;
  /** Events loaded together share one recordTime, so that ties exist for LT_/GE_ to get right. Default 3. */
  batchSize?: number;
  /** Microseconds between batches. The default, 250, leaves sub-millisecond digits in every recordTime. */
  stepMicros?: number;
}

/** One recordTime per batch: the load start plus the batch number times the step. */
export class RecordClock {
  private readonly start: Instant;
  private readonly batchSize: number;
  private readonly step: number;
  private batch = -1;
  private current: { instant: Instant; written: string } | undefined;

  constructor(opts: RecordTimeOptions = {}) {
    this.start = parseInstant(opts.loadStart ?? new Date().toISOString());
    this.batchSize = opts.batchSize ?? 3;
    this.step = opts.stepMicros ?? 250;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1) {
      throw new RangeError(`batchSize must be a positive integer, got ${this.batchSize}`);
    }
    if (!Number.isInteger(this.step) || this.step < 1) {
      throw new RangeError(`stepMicros must be a positive integer, got ${this.step}`);
    }
  }

  /** The recordTime of the n-th event loaded (counting from 0). */
  at(n: number): { instant: Instant; written: string } {
    const batch = Math.floor(n / this.batchSize);
    if (batch !== this.batch || this.current === undefined) {
      const instant = addUnits(this.start, BigInt(batch) * BigInt(this.step), 6);
      this.current = { instant, written: formatInstant(instant, { fractionDigits: 6 }) };
      this.batch = batch;
    }
    return this.current;
  }
}
