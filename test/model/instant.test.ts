import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addUnits,
  compareInstants,
  compareTimes,
  formatInstant,
  fractionDigitsOf,
  instantsEqual,
  parseInstant,
} from "../../src/model/instant.ts";
import type { Instant } from "../../src/model/types.ts";
import { instantArb, offsetArb, writtenInstantArb } from "./arbitraries.ts";

const nanos = (i: Instant): bigint => i.epochSeconds * 1_000_000_000n + BigInt(i.fraction.padEnd(9, "0"));
const sign = (n: bigint): -1 | 0 | 1 => (n < 0n ? -1 : n > 0n ? 1 : 0);

describe("parseInstant", () => {
  it("reads the epoch, offsets and sub-millisecond digits exactly", () => {
    expect(parseInstant("1970-01-01T00:00:00Z")).toEqual({ epochSeconds: 0n, fraction: "" });
    expect(parseInstant("1970-01-01T05:30:00+05:30")).toEqual({ epochSeconds: 0n, fraction: "" });
    expect(parseInstant("1969-12-31T23:59:59.999999999999-00:00")).toEqual({
      epochSeconds: -1n,
      fraction: "999999999999",
    });
    expect(parseInstant("2005-04-03T20:33:31.116000-06:00")).toEqual(
      parseInstant("2005-04-04T02:33:31.116Z"),
    );
    expect(parseInstant("2024-02-29T12:00:00.1234567+14:00").fraction).toBe("1234567");
  });

  it("agrees with Date to the second wherever Date can represent the value", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -62_000_000_000_000, max: 253_000_000_000_000 }),
        offsetArb,
        (ms, offset) => {
          const iso = new Date(ms).toISOString();
          const instant = parseInstant(iso);
          expect(instant.epochSeconds).toBe(BigInt(Math.floor(ms / 1000)));
          const reparsed = parseInstant(formatInstant(instant, { offset }));
          expect(Number(nanos(reparsed) / 1_000_000n)).toBe(ms);
        },
      ),
    );
  });

  it("accepts the first and last years of the range and 24:00:00 as the next midnight", () => {
    expect(formatInstant(parseInstant("0001-01-01T00:00:00Z"))).toBe("0001-01-01T00:00:00Z");
    expect(formatInstant(parseInstant("9999-12-31T23:59:59.5Z"))).toBe("9999-12-31T23:59:59.5Z");
    expect(parseInstant("2024-12-31T24:00:00Z")).toEqual(parseInstant("2025-01-01T00:00:00Z"));
    expect(parseInstant("2024-12-31T24:00:00.000Z")).toEqual(parseInstant("2025-01-01T00:00:00Z"));
  });

  it.each([
    ["2024-01-01T00:00:00", "no time zone"],
    ["2024-01-01", "not an xsd:dateTimeStamp"],
    ["2024-01-01 00:00:00Z", "not an xsd:dateTimeStamp"],
    ["2024-01-01T00:00:00.Z", "not an xsd:dateTimeStamp"],
    ["2024-01-01T00:00:00z", "not an xsd:dateTimeStamp"],
    ["24-01-01T00:00:00Z", "not an xsd:dateTimeStamp"],
    ["12024-01-01T00:00:00Z", "not an xsd:dateTimeStamp"],
    ["0000-01-01T00:00:00Z", "year 0000"],
    ["2023-02-29T00:00:00Z", "day 29"],
    ["2024-04-31T00:00:00Z", "day 31"],
    ["2024-13-01T00:00:00Z", "month 13"],
    ["2024-00-10T00:00:00Z", "month 00"],
    ["2024-01-00T00:00:00Z", "day 00"],
    ["2024-01-01T24:30:00Z", "not a valid time"],
    ["2024-01-01T25:00:00Z", "not a valid time"],
    ["2024-01-01T24:00:00.5Z", "not a valid time"],
    ["2024-01-01T00:00:00+15:00", '"2024-01-01T00:00:00+15:00": offset'],
    ["2024-01-01T24:00:01Z", "not a valid time"],
    ["2024-01-01T12:60:00Z", "not a valid time"],
    ["2024-01-01T12:00:60Z", "not a valid time"],
    ["2024-01-01T00:00:00+14:01", "outside -14:00..+14:00"],
    ["2024-01-01T00:00:00+01:60", "outside -14:00..+14:00"],
    ["2024-01-01T00:00:00+0100", "not an xsd:dateTimeStamp"],
    ["garbage", "not an xsd:dateTimeStamp"],
  ])("rejects %s (%s)", (text, reason) => {
    expect(() => parseInstant(text)).toThrow(RangeError);
    expect(() => parseInstant(text)).toThrow(reason);
  });

  it("knows leap years: 2000 and 2024 have 29 February, 1900 and 2100 do not", () => {
    expect(() => parseInstant("2000-02-29T00:00:00Z")).not.toThrow();
    expect(() => parseInstant("2024-02-29T00:00:00Z")).not.toThrow();
    expect(() => parseInstant("1900-02-29T00:00:00Z")).toThrow(RangeError);
    expect(() => parseInstant("2100-02-29T00:00:00Z")).toThrow(RangeError);
  });
});

describe("formatInstant", () => {
  it("writes the instant at the offset asked for, padding but never cutting the fraction", () => {
    const i = parseInstant("2024-03-01T00:15:00.25Z");
    expect(formatInstant(i)).toBe("2024-03-01T00:15:00.25Z");
    expect(formatInstant(i, { offset: "-03:00", fractionDigits: 6 })).toBe(
      "2024-02-29T21:15:00.250000-03:00",
    );
    expect(formatInstant(i, { offset: "+05:30", fractionDigits: 1 })).toBe("2024-03-01T05:45:00.25+05:30");
  });

  it("rejects an offset that is not Z or ±hh:mm", () => {
    expect(() => formatInstant(parseInstant("2024-01-01T00:00:00Z"), { offset: "+5" })).toThrow(RangeError);
    for (const offset of [
      "UTC",
      "x+01:00",
      "+01:00x",
      "Zx",
      "*01:00",
      "+1:00",
      "+01:0",
      "+aa:00",
      "+01:aa",
    ]) {
      expect(() => formatInstant(parseInstant("2024-01-01T00:00:00Z"), { offset }), offset).toThrow(
        RangeError,
      );
    }
    expect(() => formatInstant(parseInstant("2024-01-01T00:00:00Z"), { offset: "+5" })).toThrow(
      'formatInstant: offset "+5" is not Z or ±hh:mm',
    );
  });

  // 29 February of a year divisible by 400 is the last day of a 400-year cycle of the civil calendar.
  it.each(["1600-02-29T12:00:00Z", "2000-02-29T00:00:00Z", "2000-02-29T23:59:59Z", "2400-02-29T06:00:00Z"])(
    "writes %s, the last day of a 400-year cycle, back as it was",
    (text) => {
      expect(formatInstant(parseInstant(text))).toBe(text);
    },
  );

  it("writes years before 0001, which parseInstant refuses, with a sign", () => {
    const year0 = -62_167_219_200n;
    expect(formatInstant({ epochSeconds: year0, fraction: "" })).toBe("0000-01-01T00:00:00Z");
    expect(formatInstant({ epochSeconds: year0 - 1n, fraction: "" })).toBe("-0001-12-31T23:59:59Z");
  });

  it("round-trips through parseInstant at any offset and fraction padding", () => {
    fc.assert(
      fc.property(instantArb(), offsetArb, fc.integer({ min: 0, max: 15 }), (i, offset, fractionDigits) => {
        const text = formatInstant(i, { offset, fractionDigits });
        expect(parseInstant(text)).toEqual(i);
        expect(fractionDigitsOf(text)).toBe(Math.max(i.fraction.length, fractionDigits));
        expect(text.endsWith(offset)).toBe(true);
      }),
    );
  });
});

describe("comparison", () => {
  it("agrees with BigInt nanosecond arithmetic for up to nine digits, across written forms", () => {
    fc.assert(
      fc.property(
        instantArb(9).chain((a) => fc.tuple(fc.constant(a), writtenInstantArb(a))),
        instantArb(9).chain((b) => fc.tuple(fc.constant(b), writtenInstantArb(b))),
        ([a, aText], [b, bText]) => {
          const expected = sign(nanos(a) - nanos(b));
          expect(compareInstants(a, b)).toBe(expected);
          expect(compareTimes(aText, bText)).toBe(expected);
          expect(instantsEqual(a, b)).toBe(expected === 0);
        },
      ),
    );
  });

  it("is a total order: antisymmetric, transitive and reflexive", () => {
    fc.assert(
      fc.property(instantArb(), instantArb(), instantArb(), (a, b, c) => {
        expect(compareInstants(a, a)).toBe(0);
        expect(compareInstants(a, b)).toBe(-compareInstants(b, a));
        if (compareInstants(a, b) <= 0 && compareInstants(b, c) <= 0)
          expect(compareInstants(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it("compares an instant with itself as equal", () => {
    fc.assert(
      fc.property(instantArb(), (a) => {
        expect(instantsEqual(a, { ...a })).toBe(true);
      }),
    );
  });

  it("does not depend on trailing zeros in a hand-built fraction", () => {
    const at = (fraction: string): Instant => ({ epochSeconds: 0n, fraction });
    expect(compareInstants(at("5"), at("500"))).toBe(0);
    expect(compareInstants(at("500"), at("5"))).toBe(0);
    expect(compareInstants(at("50"), at("4999"))).toBe(1);
    expect(compareInstants(at("4999"), at("50"))).toBe(-1);
  });

  it("orders digits beyond nanoseconds", () => {
    expect(compareTimes("2024-01-01T00:00:00.0000000001Z", "2024-01-01T00:00:00Z")).toBe(1);
    expect(compareTimes("2024-01-01T00:00:00.1000Z", "2024-01-01T01:00:00.1+01:00")).toBe(0);
    expect(() => compareTimes("2024-01-01T00:00:00Z", "yesterday")).toThrow(RangeError);
  });
});

describe("addUnits", () => {
  it("moves by units × 10^-digits seconds and back", () => {
    fc.assert(
      fc.property(
        instantArb(9),
        fc.bigInt(-(10n ** 12n), 10n ** 12n),
        fc.integer({ min: 0, max: 9 }),
        (i, units, d) => {
          const moved = addUnits(i, units, d);
          expect(nanos(moved) - nanos(i)).toBe(units * 10n ** BigInt(9 - d));
          expect(addUnits(moved, -units, d)).toEqual(i);
          expect(moved.fraction.endsWith("0")).toBe(false);
        },
      ),
    );
  });

  it("builds the neighbours one unit of an event's own precision either side", () => {
    const at = parseInstant("2024-01-01T00:00:00.120Z");
    const digits = fractionDigitsOf("2024-01-01T00:00:00.120Z");
    expect(formatInstant(addUnits(at, -1n, digits))).toBe("2024-01-01T00:00:00.119Z");
    expect(formatInstant(addUnits(at, 1n, digits))).toBe("2024-01-01T00:00:00.121Z");
    expect(formatInstant(addUnits(parseInstant("2024-01-01T00:00:00Z"), -1n, 0))).toBe(
      "2023-12-31T23:59:59Z",
    );
  });
});

describe("addUnits precision", () => {
  it.each([-1, 1.5, Number.NaN])("refuses %s digits", (digits) => {
    expect(() => addUnits({ epochSeconds: 0n, fraction: "" }, 1n, digits)).toThrow(
      `digits must be a non-negative integer, got ${digits}`,
    );
  });
});

describe("fractionDigitsOf", () => {
  it("counts the written digits, trailing zeros included", () => {
    expect(fractionDigitsOf("2005-04-03T20:33:31.116000-06:00")).toBe(6);
    expect(fractionDigitsOf("2005-04-03T20:33:31Z")).toBe(0);
  });
});
