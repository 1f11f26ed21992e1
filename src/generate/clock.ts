// Event times of one chain. Instants are whole seconds plus fractional digits, written at the offset of the
// site where the event happens, with 0, 1, 3, 6 or 9 fractional digits (trailing zeros included), so that
// equal instants can be written differently (spec 4.1: comparison is on exact instants).
import { formatInstant } from "../model/index.ts";
import type { Random } from "./random.ts";
import { FRACTION_DIGITS } from "./vocabulary.ts";

/** An instant as the generator holds it: fraction without trailing zeros, width as it is to be written. */
export interface Moment {
  seconds: number;
  fraction: string;
  width: number;
}

// Chains start between 2021-01-01 and 2024-06-30 (UTC) and last about two months at most, so every event lies
// in the past: a repository may refuse events from the future.
const EARLIEST = 1_609_459_200;
const LATEST = 1_719_705_600;

function freshFraction(rng: Random, seconds: number): Moment {
  const width = rng.pick(FRACTION_DIGITS);
  return { seconds, fraction: rng.digits(width).replace(/0+$/, ""), width };
}

export function randomMoment(rng: Random): Moment {
  return freshFraction(rng, rng.int(EARLIEST, LATEST));
}

/** The same instant, to be written with another of the usual precisions (never fewer digits than it needs). */
export function rewritten(rng: Random, m: Moment): Moment {
  return { ...m, width: rng.pick(FRACTION_DIGITS.filter((d) => d >= m.fraction.length)) };
}

export class ChainClock {
  constructor(
    private readonly rng: Random,
    public now: Moment,
  ) {}

  /** Moves forward by a whole number of seconds in [min, max] and draws a new fraction. */
  advance(minSeconds: number, maxSeconds: number): void {
    this.now = freshFraction(this.rng, this.now.seconds + this.rng.int(minSeconds, maxSeconds));
  }

  /** Stays at exactly the same instant, written with a new precision. */
  hold(): void {
    this.now = rewritten(this.rng, this.now);
  }

  stamp(offset: string): { eventTime: string; eventTimeZoneOffset: string } {
    const { seconds, fraction, width } = this.now;
    return {
      eventTime: formatInstant(
        { epochSeconds: BigInt(seconds), fraction },
        { offset, fractionDigits: width },
      ),
      // EPCIS writes the offset as ±hh:mm; Z is +00:00.
      eventTimeZoneOffset: offset === "Z" ? "+00:00" : offset,
    };
  }
}
