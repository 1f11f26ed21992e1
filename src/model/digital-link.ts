// GS1 Digital Link URIs with the numeric application identifiers of spec 4.2. Facts on lengths, character sets
// and qualifier order come from the GS1 Barcode Syntax Dictionary.
import { hasValidCheckDigit } from "./check-digit.ts";
import { queryStringPairs } from "./query-string.ts";
import type { DigitalLink, DigitalLinkElement } from "./types.ts";

export const CANONICAL_DL_BASE = "https://id.gs1.org";

/**
 * Alphabetic short names of application identifiers. Spec 4.2 and 9 forbid them in paths; they are known here
 * only so that such a path is reported for what it is.
 */
export const ALPHABETIC_AI_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  sscc: "00",
  gtin: "01",
  lot: "10",
  exp: "17",
  ser: "21",
  cpv: "22",
  gdti: "253",
  glnx: "254",
  gcn: "255",
  ginc: "401",
  gsin: "402",
  gln: "414",
  payto: "415",
  party: "417",
  pgln: "417",
  expdt: "7003",
  grai: "8003",
  giai: "8004",
  itip: "8006",
  cpid: "8010",
  cpsn: "8011",
  gsrnp: "8017",
  gsrn: "8018",
  srin: "8019",
});

/** The first alphabetic short name of a numeric AI ("01" is "gtin", "417" is "party"), or undefined. */
export function alphabeticNameOf(ai: string): string | undefined {
  return Object.keys(ALPHABETIC_AI_ALIASES).find((name) => ALPHABETIC_AI_ALIASES[name] === ai);
}

export type DigitalLinkErrorCode =
  | "syntax"
  | "alphabetic-ai"
  | "unknown-ai"
  | "ai-order"
  | "length"
  | "check-digit"
  | "charset";

export class DigitalLinkError extends Error {
  override readonly name = "DigitalLinkError";
  constructor(
    readonly code: DigitalLinkErrorCode,
    message: string,
  ) {
    super(message);
  }
}

interface AiRule {
  /** Digits of fixed length (with a GS1 check digit), or 1..maxLength characters of CSET 82. */
  kind: "key" | "text";
  length: number;
  /** Qualifiers allowed after this primary key, in the only order allowed. */
  qualifiers?: readonly string[];
}

const AI_RULES: Readonly<Record<string, AiRule>> = {
  "00": { kind: "key", length: 18, qualifiers: [] },
  "01": { kind: "key", length: 14, qualifiers: ["10", "21"] },
  "414": { kind: "key", length: 13, qualifiers: ["254"] },
  "417": { kind: "key", length: 13, qualifiers: [] },
  "10": { kind: "text", length: 20 },
  "21": { kind: "text", length: 20 },
  "254": { kind: "text", length: 20 },
};

/** GTIN-8, GTIN-12 and GTIN-13 are written as GTIN-14 with leading zeros (spec 4.2). */
const GTIN_LENGTHS = [8, 12, 13, 14];

// GS1 AI encodable character set 82: ! " % & ' ( ) * + , - . / 0-9 : ; < = > ? A-Z _ a-z
const CSET_82 = /^[!"%-?A-Z_a-z]+$/;

const URI_SHAPE = /^(https?:\/\/[^/?#]+)?(\/[^?#]*)?(?:\?([^#]*))?(?:#.*)?$/i;

function decode(component: string, what: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    throw new DigitalLinkError(
      "syntax",
      `${what} "${component}" has a broken percent escape; encode % as %25.`,
    );
  }
}

function decodeQuery(raw: string | undefined): [string, string][] {
  if (raw === undefined) return [];
  return queryStringPairs(raw).map(([key, value]) => [
    decode(key.replace(/\+/g, " "), "query key"),
    decode(value.replace(/\+/g, " "), "query value"),
  ]);
}

function checkValue(ai: string, rule: AiRule, value: string): string {
  if (rule.kind === "text") {
    if (value.length > rule.length) {
      throw new DigitalLinkError(
        "length",
        `AI ${ai} value "${value}" must have 1 to ${rule.length} characters.`,
      );
    }
    if (!CSET_82.test(value)) {
      throw new DigitalLinkError(
        "charset",
        `AI ${ai} value "${value}" has characters outside GS1 CSET 82; use only the 82 encodable characters.`,
      );
    }
    return value;
  }
  if (!/^\d+$/.test(value)) {
    throw new DigitalLinkError("charset", `AI ${ai} value "${value}" must be digits only.`);
  }
  const allowed = ai === "01" ? GTIN_LENGTHS : [rule.length];
  if (!allowed.includes(value.length)) {
    throw new DigitalLinkError(
      "length",
      `AI ${ai} value "${value}" has ${value.length} digits; it needs ${allowed.join(" or ")}.`,
    );
  }
  if (!hasValidCheckDigit(value)) {
    throw new DigitalLinkError("check-digit", `AI ${ai} value "${value}" has a wrong check digit.`);
  }
  return value.padStart(rule.length, "0");
}

function isNumericAi(segment: string): boolean {
  return /^\d{2,4}$/.test(segment);
}

interface SplitUri {
  base: string;
  segments: string[];
  rawQuery: string | undefined;
}

function splitUri(uri: string): SplitUri {
  const m = URI_SHAPE.exec(uri.trim());
  if (!m || (m[1] === undefined && m[2] === undefined)) {
    throw new DigitalLinkError("syntax", `"${uri}" is not an http(s) URI or an absolute path.`);
  }
  const origin = m[1] ?? "";
  const segments = (m[2] ?? "").split("/").slice(1);
  return { base: origin, segments, rawQuery: m[3] };
}

interface Located {
  base: string;
  elements: DigitalLinkElement[];
  rawQuery: string | undefined;
}

function locate(uri: string): Located {
  const { base, segments, rawQuery } = splitUri(uri);
  const start = segments.findIndex((s) => s in AI_RULES || s.toLowerCase() in ALPHABETIC_AI_ALIASES);
  if (start < 0) {
    const numeric = segments.find(isNumericAi);
    if (numeric !== undefined) {
      throw new DigitalLinkError(
        "unknown-ai",
        `"${uri}" uses AI ${numeric}; only 00, 01, 414, 417, 10, 21 and 254 are supported (spec 4.2).`,
      );
    }
    throw new DigitalLinkError(
      "syntax",
      `"${uri}" has no application identifier in its path, such as /01/{gtin}.`,
    );
  }
  const prefix = segments.slice(0, start).join("/");
  const fullBase = prefix === "" ? base : `${base}/${prefix}`;
  const rest = segments.slice(start);
  if (rest.length % 2 !== 0) {
    throw new DigitalLinkError(
      "syntax",
      `"${uri}" has an AI without a value; the path must be /{AI}/{value} pairs.`,
    );
  }
  const elements: DigitalLinkElement[] = [];
  for (let k = 0; k < rest.length; k += 2) {
    const ai = rest[k] ?? "";
    const raw = rest[k + 1] ?? "";
    const rule = AI_RULES[ai];
    if (rule === undefined) {
      const alias = ALPHABETIC_AI_ALIASES[ai.toLowerCase()];
      if (alias !== undefined) {
        throw new DigitalLinkError(
          "alphabetic-ai",
          `"${uri}" uses the alphabetic AI "${ai}"; write the numeric AI ${alias} instead (spec 4.2).`,
        );
      }
      if (isNumericAi(ai)) {
        throw new DigitalLinkError(
          "unknown-ai",
          `"${uri}" uses AI ${ai}; only 00, 01, 414, 417, 10, 21 and 254 are supported (spec 4.2).`,
        );
      }
      throw new DigitalLinkError("syntax", `"${uri}" has "${ai}" where an application identifier belongs.`);
    }
    if (raw === "") {
      throw new DigitalLinkError("syntax", `"${uri}" has an empty value for AI ${ai}.`);
    }
    elements.push({ ai, value: raw });
  }
  checkOrder(uri, elements);
  return {
    base: fullBase,
    elements: elements.map(({ ai, value }) => ({
      ai,
      value: checkValue(ai, AI_RULES[ai] as AiRule, decode(value, `AI ${ai} value`)),
    })),
    rawQuery,
  };
}

function checkOrder(uri: string, elements: DigitalLinkElement[]): void {
  const [primary, ...qualifiers] = elements.map((e) => e.ai);
  const allowed = primary === undefined ? undefined : AI_RULES[primary]?.qualifiers;
  if (allowed === undefined) {
    throw new DigitalLinkError(
      "ai-order",
      `"${uri}" starts with AI ${primary}; a path starts with a primary key: 00, 01, 414 or 417 (spec 4.2).`,
    );
  }
  let position = -1;
  for (const q of qualifiers) {
    const at = allowed.indexOf(q);
    if (at <= position) {
      throw new DigitalLinkError(
        "ai-order",
        `"${uri}" has AI ${q} where it is not allowed after ${primary}; allowed in order: ${allowed.join(", ") || "none"}.`,
      );
    }
    position = at;
  }
}

/**
 * Parses a Digital Link URI (or an absolute path such as /01/…): the base is whatever precedes the first
 * supported AI. Values come back percent-decoded and GTINs padded to 14 digits. Throws DigitalLinkError.
 */
export function parseDigitalLink(uri: string): DigitalLink {
  const { base, elements, rawQuery } = locate(uri);
  return { base, elements, query: decodeQuery(rawQuery) };
}

const UNRESERVED_ONLY = /^[A-Za-z0-9\-._~]*$/;
const UTF8 = new TextEncoder();

function encodeValue(value: string): string {
  // Most values (digits, plain serials) need no escape at all: answer them without encoding byte by byte.
  if (UNRESERVED_ONLY.test(value)) return value;
  return Array.from(UTF8.encode(value), (byte) => {
    const c = String.fromCharCode(byte);
    return /[A-Za-z0-9\-._~]/.test(c) ? c : "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  }).join("");
}

/** Writes base + /{AI}/{value}… with values percent-encoded outside the unreserved set and GTINs padded to 14. */
export function formatDigitalLink(base: string, elements: readonly DigitalLinkElement[]): string {
  const path = elements
    .map(({ ai, value }) => `/${ai}/${encodeValue(ai === "01" ? value.padStart(14, "0") : value)}`)
    .join("");
  return base.replace(/\/+$/, "") + path;
}

/**
 * The same identifier under another base, keeping the query string: how an identifier issued under
 * https://id.gs1.org is resolved at the sender's resolver (spec 4.2).
 */
export function rebaseDigitalLink(uri: string, newBase: string): string {
  const { elements, rawQuery } = locate(uri);
  const query = rawQuery === undefined || rawQuery === "" ? "" : `?${rawQuery}`;
  return formatDigitalLink(newBase, elements) + query;
}

/** True for an http(s) URI whose path is a valid Digital Link under spec 4.2. */
export function isDigitalLink(uri: string): boolean {
  try {
    return /^https?:\/\//i.test(parseDigitalLink(uri).base);
  } catch (error) {
    if (error instanceof DigitalLinkError) return false;
    throw error;
  }
}

/** The six path forms of spec 4.2, written as their AIs joined by "/". */
export const PATH_FORMS = ["00", "417", "414", "01", "01/10", "01/21"] as const;
export type PathForm = (typeof PATH_FORMS)[number];

/** The path form of a list of Digital Link elements, or undefined when it is none of the six. */
export function pathFormOf(elements: readonly DigitalLinkElement[]): PathForm | undefined {
  const ais = elements.map((e) => e.ai).join("/");
  return PATH_FORMS.find((form) => form === ais);
}
