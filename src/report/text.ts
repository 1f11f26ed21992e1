// Evidence carries bytes a target sent back; these helpers keep them from breaking the formats they land in.

// XML 1.0 allows only tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD and U+10000-U+10FFFF; with the u flag a lone
// surrogate is a code point of its own and falls outside the allowed ranges too.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// C0 and C1 controls other than tab and LF, and DEL: a response could otherwise drive the user's terminal.
const TERMINAL_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

export function stripNonXmlChars(text: string): string {
  return text.replace(NOT_XML_CHAR, "");
}

export function escapeXmlText(text: string): string {
  return stripNonXmlChars(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Escapes for a double-quoted attribute; tab and line breaks become references so parsers keep them. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text)
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;");
}

export function escapeHtml(text: string): string {
  return stripNonXmlChars(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

export function stripTerminalControls(text: string): string {
  return text.replace(TERMINAL_CONTROL, "");
}

/** Folds any run of whitespace, line breaks included, into one space, for one-line console output. */
export function singleLine(text: string): string {
  return stripTerminalControls(text.replace(/\s+/g, " ").trim());
}

/**
 * JSON for values a suite attached as evidence. A bigint (an instant's epoch seconds) becomes its decimal
 * string, since JSON.stringify would throw on it; undefined becomes the empty string.
 */
export function jsonText(value: unknown, indent = 2): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v), indent) ?? ""
  );
}
