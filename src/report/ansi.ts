const CODES = {
  red: 31,
  green: 32,
  yellow: 33,
  magenta: 35,
  cyan: 36,
  dim: 2,
  bold: 1,
} as const;

export type Paint = keyof typeof CODES;

/** Wraps text in an SGR colour when colour is on; returns it untouched otherwise. */
export function paint(text: string, style: Paint, color: boolean): string {
  return color ? `\u001b[${CODES[style]}m${text}\u001b[0m` : text;
}
