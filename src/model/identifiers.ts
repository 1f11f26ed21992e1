// One canonical form for EPCs, EPC classes and locations: the Digital Link URI under id.gs1.org. A GS1 EPC URN
// and its Digital Link form name the same thing, and EPCIS 2.0 servers may answer in either (ARCHITECTURE.md).
import { gs1CheckDigit } from "./check-digit.ts";
import { CANONICAL_DL_BASE, formatDigitalLink, isDigitalLink, parseDigitalLink } from "./digital-link.ts";
import { memoized } from "./memo.ts";
import type { DigitalLinkElement } from "./types.ts";

const SGTIN = /^urn:epc:id:sgtin:(\d+)\.(\d+)\.(.+)$/;
const SSCC = /^urn:epc:id:sscc:(\d+)\.(\d+)$/;
const SGLN = /^urn:epc:id:sgln:(\d+)\.(\d*)\.(.+)$/;
const PGLN = /^urn:epc:id:pgln:(\d+)\.(\d*)$/;
const LGTIN = /^urn:epc:class:lgtin:(\d+)\.(\d+)\.(.+)$/;
const GTIN_PATTERN = /^urn:epc:idpat:sgtin:(\d+)\.(\d+)\.\*$/;
const COMPANY_PATTERN = /^urn:epc:idpat:sgtin:(\d+)\.\*\.\*$/;

const MIN_PREFIX = 6;
const MAX_PREFIX = 12;

function prefixFits(cp: string, rest: string, total: number): boolean {
  return cp.length >= MIN_PREFIX && cp.length <= MAX_PREFIX && cp.length + rest.length === total;
}

/** GTIN-14 from an EPC company prefix and item reference (whose first digit is the indicator). */
function gtinFrom(cp: string, itemRef: string): string {
  const body = itemRef.slice(0, 1) + cp + itemRef.slice(1);
  return body + gs1CheckDigit(body);
}

function withCheckDigit(body: string): string {
  return body + gs1CheckDigit(body);
}

function decodeUrnPart(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

// EPC Tag Data Standard: these characters of a serial, lot or extension are escaped in a URN.
function encodeUrnPart(value: string): string {
  return value.replace(/["%&/<>?]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

function toDigitalLink(elements: DigitalLinkElement[]): string | undefined {
  const uri = formatDigitalLink(CANONICAL_DL_BASE, elements);
  return isDigitalLink(uri) ? uri : undefined;
}

/** The GTIN of an sgtin or lgtin URN and the part after it, decoded: its serial (AI 21) or its lot (AI 10). */
function gtinAndPart(m: RegExpExecArray, ai: "21" | "10"): DigitalLinkElement[] | undefined {
  const [, cp = "", ir = "", encoded = ""] = m;
  const value = decodeUrnPart(encoded);
  if (!prefixFits(cp, ir, 13) || value === undefined) return undefined;
  return [
    { ai: "01", value: gtinFrom(cp, ir) },
    { ai, value },
  ];
}

function urnElements(urn: string): DigitalLinkElement[] | undefined {
  let m = SGTIN.exec(urn);
  if (m) return gtinAndPart(m, "21");
  m = LGTIN.exec(urn);
  if (m) return gtinAndPart(m, "10");
  m = GTIN_PATTERN.exec(urn);
  if (m) {
    const [, cp = "", ir = ""] = m;
    return prefixFits(cp, ir, 13) ? [{ ai: "01", value: gtinFrom(cp, ir) }] : undefined;
  }
  m = SSCC.exec(urn);
  if (m) {
    const [, cp = "", sr = ""] = m;
    if (!prefixFits(cp, sr, 17)) return undefined;
    return [{ ai: "00", value: withCheckDigit(sr.slice(0, 1) + cp + sr.slice(1)) }];
  }
  m = SGLN.exec(urn);
  if (m) {
    const [, cp = "", lr = "", extPart = ""] = m;
    const ext = decodeUrnPart(extPart);
    if (!prefixFits(cp, lr, 12) || ext === undefined) return undefined;
    const gln = { ai: "414", value: withCheckDigit(cp + lr) };
    // Extension "0" is the EPC spelling of "no extension" (TDS).
    return ext === "0" ? [gln] : [gln, { ai: "254", value: ext }];
  }
  m = PGLN.exec(urn);
  if (m) {
    const [, cp = "", pr = ""] = m;
    return prefixFits(cp, pr, 12) ? [{ ai: "417", value: withCheckDigit(cp + pr) }] : undefined;
  }
  return undefined;
}

/**
 * The Digital Link form (under https://id.gs1.org) of an sgtin, sscc, sgln or pgln EPC URN, an lgtin class or
 * an sgtin pattern naming one GTIN; undefined for anything else.
 */
export function epcUrnToDigitalLink(urn: string): string | undefined {
  const elements = urnElements(urn.trim());
  return elements === undefined ? undefined : toDigitalLink(elements);
}

/**
 * The EPC URN of a Digital Link, given the length of the GS1 company prefix inside its key; undefined when the
 * link has no EPC URN form or the prefix length is not 6 to 12.
 */
export function digitalLinkToEpcUrn(dl: string, companyPrefixLength: number): string | undefined {
  if (!Number.isInteger(companyPrefixLength) || companyPrefixLength < MIN_PREFIX) return undefined;
  if (companyPrefixLength > MAX_PREFIX) return undefined;
  let elements: DigitalLinkElement[];
  try {
    elements = parseDigitalLink(dl).elements;
  } catch {
    return undefined;
  }
  const n = companyPrefixLength;
  const [first, second] = elements;
  if (first === undefined) return undefined;
  const key = first.value;
  switch (first.ai) {
    case "01": {
      const cp = key.slice(1, 1 + n);
      const ir = key.slice(0, 1) + key.slice(1 + n, 13);
      if (second === undefined) return `urn:epc:idpat:sgtin:${cp}.${ir}.*`;
      if (second.ai === "21" && elements.length === 2) {
        return `urn:epc:id:sgtin:${cp}.${ir}.${encodeUrnPart(second.value)}`;
      }
      if (second.ai === "10" && elements.length === 2) {
        return `urn:epc:class:lgtin:${cp}.${ir}.${encodeUrnPart(second.value)}`;
      }
      return undefined;
    }
    case "00":
      return `urn:epc:id:sscc:${key.slice(1, 1 + n)}.${key.slice(0, 1)}${key.slice(1 + n, 17)}`;
    case "414": {
      const ext = second === undefined ? "0" : encodeUrnPart(second.value);
      return `urn:epc:id:sgln:${key.slice(0, n)}.${key.slice(n, 12)}.${ext}`;
    }
    case "417":
      return `urn:epc:id:pgln:${key.slice(0, n)}.${key.slice(n, 12)}`;
    default:
      return undefined;
  }
}

/**
 * The form in which identifiers compare: the Digital Link under https://id.gs1.org for a convertible EPC URN or
 * a Digital Link on any host (without its query string); any other value, trimmed, stands for itself.
 */
// canonicalId is called once per identifier of every event a filter looks at (oracle, reference indexes,
// suites), with the same few thousand strings over and over; parsing a Digital Link each time dominated their
// cost. The function is pure, so it is memoized.
const canonicalOf = memoized(computeCanonicalId);

export function canonicalId(uri: string): string {
  return canonicalOf(uri);
}

function computeCanonicalId(uri: string): string {
  const trimmed = uri.trim();
  const fromUrn = epcUrnToDigitalLink(trimmed);
  if (fromUrn !== undefined) return fromUrn;
  if (!isDigitalLink(trimmed)) return trimmed;
  return formatDigitalLink(CANONICAL_DL_BASE, parseDigitalLink(trimmed).elements);
}

/** The canonical form of an identifier, or the identifier as written where it has none (a Digital Link it cannot read). */
export function canonicalOrWritten(uri: string): string {
  try {
    return canonicalId(uri);
  } catch {
    return uri;
  }
}

export function idsEqual(a: string, b: string): boolean {
  return canonicalId(a) === canonicalId(b);
}

/** True for the sgtin patterns that select classes: urn:epc:idpat:sgtin:CP.IR.* and urn:epc:idpat:sgtin:CP.*.* */
export function isClassPattern(uri: string): boolean {
  const trimmed = uri.trim();
  const gtin = GTIN_PATTERN.exec(trimmed);
  if (gtin) return prefixFits(gtin[1] ?? "", gtin[2] ?? "", 13);
  const company = COMPANY_PATTERN.exec(trimmed);
  const cp = company?.[1];
  return cp !== undefined && cp.length >= MIN_PREFIX && cp.length <= MAX_PREFIX;
}

// What a class holds and what a class query asks for are read over and over as canonicalId is (the oracle asks for
// every class of every event under each MATCH_anyEPCClass value), and are memoized as it is.
function computeGtinOf(classOrEpc: string): string | undefined {
  const id = canonicalId(classOrEpc);
  if (!isDigitalLink(id)) return undefined;
  return parseDigitalLink(id).elements.find((e) => e.ai === "01")?.value;
}
const gtinOfString = memoized(computeGtinOf);

/** The GTIN-14 inside an EPC, EPC class or pattern in URN or Digital Link form, if it has one. */
export function gtinOf(canonicalClassOrEpc: string): string | undefined {
  // A value from a server that is not a string fails as it always did, and is never remembered.
  if (typeof canonicalClassOrEpc !== "string") return computeGtinOf(canonicalClassOrEpc);
  return gtinOfString(canonicalClassOrEpc);
}

/** The GTIN of a class query written as a Digital Link of a GTIN alone (/01/{gtin}), if it is one. */
const queriedGtin = memoized((canonicalQuery: string): string | undefined => {
  if (!isDigitalLink(canonicalQuery)) return undefined;
  const elements = parseDigitalLink(canonicalQuery).elements;
  const [only] = elements;
  return elements.length === 1 && only?.ai === "01" ? only.value : undefined;
});

/**
 * Whether an EPC class matches one MATCH_anyEPCClass value (spec 4.1: "matches one of the patterns or URIs").
 * The class-level identity of a GTIN (urn:epc:idpat:sgtin:CP.IR.* or its Digital Link /01/{gtin}) matches every
 * class of that GTIN; urn:epc:idpat:sgtin:CP.*.* matches every class under that company prefix.
 */
export function classMatches(queryValue: string, epcClass: string): boolean {
  const query = canonicalId(queryValue);
  const candidate = canonicalId(epcClass);
  if (query === candidate) return true;
  const company = COMPANY_PATTERN.exec(query)?.[1];
  if (company !== undefined) {
    if (!isClassPattern(query)) return false;
    return gtinOf(candidate)?.slice(1, 1 + company.length) === company;
  }
  const gtin = queriedGtin(query);
  return gtin !== undefined && gtinOf(candidate) === gtin;
}
