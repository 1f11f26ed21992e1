// Exact instants for xsd:dateTimeStamp values (spec 4.1). Date is millisecond-bound and drops sub-millisecond
// digits, so times are held as whole epoch seconds (bigint) plus the fractional digits as written.
import type { Instant } from "./types.ts";

const DATE_TIME_STAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/;
const OFFSET = /^(Z|([+-])(\d{2}):(\d{2}))$/;
const SECONDS_PER_DAY = 86_400n;

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

// Days since 1970-01-01 of a proleptic Gregorian date, in integers (H. Hinnant's days_from_civil).
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** Offset in seconds east of UTC; throws RangeError for anything but Z or ±hh:mm within ±14:00 (xsd). */
function offsetSeconds(offset: string, context: string): number {
  const m = OFFSET.exec(offset);
  if (!m) throw new RangeError(`${context}: offset "${offset}" is not Z or ±hh:mm; write it as e.g. +05:30.`);
  if (m[1] === "Z") return 0;
  const hours = Number(m[3]);
  const minutes = Number(m[4]);
  if (minutes > 59 || hours * 60 + minutes > 14 * 60) {
    throw new RangeError(`${context}: offset "${offset}" is outside -14:00..+14:00; use a real zone offset.`);
  }
  const total = hours * 3600 + minutes * 60;
  return m[2] === "-" ? -total : total;
}

function stripTrailingZeros(digits: string): string {
  return digits.replace(/0+$/, "");
}

/**
 * Parses an xsd:dateTimeStamp (spec 4.1): YYYY-MM-DDThh:mm:ss(.f+)?(Z|±hh:mm), years 0001-9999, any number of
 * fractional digits. Throws RangeError naming the defect for a missing zone, an impossible date or time, or
 * anything else.
 */
export function parseInstant(s: string): Instant {
  const m = DATE_TIME_STAMP.exec(s);
  if (!m) {
    throw new RangeError(
      `"${s}" is not an xsd:dateTimeStamp; write it as YYYY-MM-DDThh:mm:ss[.fff]Z or ±hh:mm.`,
    );
  }
  const [, ys, mos, ds, hs, mis, ss, frac = "", zone] = m;
  if (zone === undefined) {
    throw new RangeError(`"${s}" has no time zone; add Z or an offset such as +02:00.`);
  }
  const year = Number(ys);
  const month = Number(mos);
  const day = Number(ds);
  const hour = Number(hs);
  const minute = Number(mis);
  const second = Number(ss);
  if (year < 1) throw new RangeError(`"${s}" has year 0000; years run from 0001 to 9999.`);
  if (month < 1 || month > 12) throw new RangeError(`"${s}" has month ${mos}; months run from 01 to 12.`);
  if (day < 1 || day > daysInMonth(year, month)) {
    throw new RangeError(
      `"${s}" has day ${ds}, which ${ys}-${mos} does not have; give a real calendar date.`,
    );
  }
  // xsd allows 24:00:00 (with a zero fraction) as the first instant of the next day.
  const endOfDay = hour === 24 && minute === 0 && second === 0 && /^0*$/.test(frac);
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 59) {
    throw new RangeError(`"${s}" has time ${hs}:${mis}:${ss}, which is not a valid time of day.`);
  }
  const offset = offsetSeconds(zone, `"${s}"`);
  const local =
    BigInt(daysFromCivil(year, month, day)) * SECONDS_PER_DAY + BigInt(hour * 3600 + minute * 60 + second);
  return { epochSeconds: local - BigInt(offset), fraction: stripTrailingZeros(frac) };
}

export function compareInstants(a: Instant, b: Instant): -1 | 0 | 1 {
  if (a.epochSeconds !== b.epochSeconds) return a.epochSeconds < b.epochSeconds ? -1 : 1;
  const width = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(width, "0");
  const fb = b.fraction.padEnd(width, "0");
  if (fa === fb) return 0;
  return fa < fb ? -1 : 1;
}

export function instantsEqual(a: Instant, b: Instant): boolean {
  return compareInstants(a, b) === 0;
}

/** Compares two xsd:dateTimeStamp strings as instants; throws RangeError if either does not parse. */
export function compareTimes(a: string, b: string): -1 | 0 | 1 {
  return compareInstants(parseInstant(a), parseInstant(b));
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/**
 * Writes an instant at the given offset (default Z) with at least fractionDigits fractional digits; the
 * instant's own digits are never cut, so the result always parses back to the same instant.
 */
export function formatInstant(i: Instant, opts?: { offset?: string; fractionDigits?: number }): string {
  const zone = opts?.offset ?? "Z";
  const shift = BigInt(offsetSeconds(zone, "formatInstant"));
  const local = i.epochSeconds + shift;
  let days = local / SECONDS_PER_DAY;
  let secondsOfDay = local % SECONDS_PER_DAY;
  if (secondsOfDay < 0n) {
    secondsOfDay += SECONDS_PER_DAY;
    days -= 1n;
  }
  const { year, month, day } = civilFromDays(Number(days));
  const sod = Number(secondsOfDay);
  const width = Math.max(i.fraction.length, opts?.fractionDigits ?? 0);
  const fraction = width > 0 ? "." + i.fraction.padEnd(width, "0") : "";
  const yearText = year < 0 ? "-" + pad(-year, 4) : pad(year, 4);
  return (
    `${yearText}-${pad(month, 2)}-${pad(day, 2)}T` +
    `${pad(Math.floor(sod / 3600), 2)}:${pad(Math.floor((sod % 3600) / 60), 2)}:${pad(sod % 60, 2)}` +
    `${fraction}${zone}`
  );
}

/** Adds units × 10^-digits seconds (units may be negative); digits is a precision such as 3 for milliseconds. */
export function addUnits(i: Instant, units: bigint, digits: number): Instant {
  if (!Number.isInteger(digits) || digits < 0) {
    throw new RangeError(`addUnits: digits must be a non-negative integer, got ${digits}.`);
  }
  const width = Math.max(digits, i.fraction.length);
  const scale = 10n ** BigInt(width);
  const fractionUnits = BigInt(i.fraction.padEnd(width, "0"));
  const total = i.epochSeconds * scale + fractionUnits + units * 10n ** BigInt(width - digits);
  let seconds = total / scale;
  let rest = total % scale;
  if (rest < 0n) {
    rest += scale;
    seconds -= 1n;
  }
  const fraction = stripTrailingZeros(rest.toString().padStart(width, "0"));
  return { epochSeconds: seconds, fraction };
}

/** The number of fractional-second digits as written in s (0 when there are none). */
export function fractionDigitsOf(s: string): number {
  const m = /T\d{2}:\d{2}:\d{2}\.(\d+)/.exec(s);
  return m?.[1]?.length ?? 0;
}
