import type { Instant } from "../../model/index.ts";
import { parseInstant } from "../../model/index.ts";

/** The instant with every digit below the millisecond cut off. */
export function truncateToMillis(i: Instant): Instant {
  return { epochSeconds: i.epochSeconds, fraction: i.fraction.slice(0, 3).replace(/0+$/, "") };
}

/** The written date and time read as if it were UTC, whatever offset it carries; undefined when unreadable. */
export function wallClockInstant(written: string): Instant | undefined {
  try {
    return parseInstant(written.trim().replace(/(Z|z|[+-]\d{2}:\d{2})$/, "Z"));
  } catch {
    return undefined;
  }
}

/** The exact instant of a written time; undefined when it is not an xsd:dateTimeStamp. */
export function instantOrUndefined(written: unknown): Instant | undefined {
  if (typeof written !== "string") return undefined;
  try {
    return parseInstant(written);
  } catch {
    return undefined;
  }
}
