// The GS1 mod-10 check digit shared by GTIN, SSCC, GLN and PGLN (GS1 General Specifications 7.9.1).

/** The check digit of a digit string given without its check digit; throws RangeError for non-digits. */
export function gs1CheckDigit(body: string): string {
  if (!/^\d+$/.test(body)) {
    throw new RangeError(`"${body}" is not a string of digits; a GS1 check digit needs digits only.`);
  }
  let sum = 0;
  // Weights alternate 3, 1, 3, … starting from the rightmost digit of the body.
  for (let k = 0; k < body.length; k++) {
    const digit = body.charCodeAt(body.length - 1 - k) - 48;
    sum += k % 2 === 0 ? digit * 3 : digit;
  }
  return String((10 - (sum % 10)) % 10);
}

/** True when digits (at least two of them) ends with the right GS1 check digit. */
export function hasValidCheckDigit(digits: string): boolean {
  if (!/^\d{2,}$/.test(digits)) return false;
  return gs1CheckDigit(digits.slice(0, -1)) === digits.slice(-1);
}
