import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gs1CheckDigit, hasValidCheckDigit } from "../../src/model/check-digit.ts";
import { digits } from "./arbitraries.ts";

describe("GS1 check digit", () => {
  // Published examples: GTIN-14 from the GS1 Digital Link examples, SSCC and GLN from the EPC Tag Data Standard.
  it.each(["09506000134352", "106141412345678908", "0614141123452", "4012345000016", "96385074"])(
    "accepts %s",
    (valid) => {
      expect(hasValidCheckDigit(valid)).toBe(true);
      expect(gs1CheckDigit(valid.slice(0, -1))).toBe(valid.slice(-1));
    },
  );

  it("rejects non-digits and too-short input", () => {
    expect(hasValidCheckDigit("0950600013435X")).toBe(false);
    expect(hasValidCheckDigit("7")).toBe(false);
    expect(hasValidCheckDigit("")).toBe(false);
    for (const odd of ["a12", "12a3", "12 3", "123\n"]) expect(hasValidCheckDigit(odd), odd).toBe(false);
    expect(() => gs1CheckDigit("12a")).toThrow(RangeError);
    expect(() => gs1CheckDigit("a12")).toThrow(RangeError);
    expect(() => gs1CheckDigit("1a2")).toThrow('"1a2" is not a string of digits');
  });

  it("detects every single-digit error", () => {
    fc.assert(
      fc.property(digits(1, 17), fc.nat(), fc.integer({ min: 1, max: 9 }), (body, at, delta) => {
        const full = body + gs1CheckDigit(body);
        expect(hasValidCheckDigit(full)).toBe(true);
        const k = at % full.length;
        const changed = full.slice(0, k) + String((Number(full[k]) + delta) % 10) + full.slice(k + 1);
        expect(hasValidCheckDigit(changed)).toBe(false);
      }),
    );
  });
});
