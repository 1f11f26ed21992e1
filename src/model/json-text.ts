// The characters that give JSON text its structure, as UTF-16 code units and as UTF-8 bytes alike (all ASCII), for
// the readers that find their way through JSON without parsing all of it (src/generate/event-list-scanner.ts,
// src/target/known-events.ts).

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COLON = 0x3a;
export const COMMA = 0x2c;

/** JSON's whitespace: space, line feed, carriage return and tab, and nothing else. */
export function isJsonSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
