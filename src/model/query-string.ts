// The wire form of a GET /events query (spec 4.1 rules 1-2): one key per parameter, list values joined by a
// pipe that is itself percent-encoded as %7C.
import {
  type EventQuery,
  LIST_PARAMETERS,
  type ListParameter,
  QUERY_PARAMETERS,
  type QueryParameter,
} from "./types.ts";

const ENCODED_PIPE = "%7C";

function isListParameter(key: string): key is ListParameter {
  return (LIST_PARAMETERS as readonly string[]).includes(key);
}

function isQueryParameter(key: string): key is QueryParameter {
  return (QUERY_PARAMETERS as readonly string[]).includes(key);
}

/** The query string (without "?") in QUERY_PARAMETERS order; list values are joined with %7C, never a raw "|". */
export function encodeQuery(q: EventQuery): string {
  const pairs: string[] = [];
  for (const key of QUERY_PARAMETERS) {
    const value = q[key];
    if (value === undefined) continue;
    const text = Array.isArray(value)
      ? value.map(encodeURIComponent).join(ENCODED_PIPE)
      : encodeURIComponent(value);
    pairs.push(`${key}=${text}`);
  }
  return pairs.join("&");
}

export interface ParsedQuery {
  query: EventQuery;
  /** Keys that occurred more than once, each listed once; the query keeps the first occurrence (spec 4.1 rule 2). */
  repeated: string[];
  /** Keys that are not among the nine parameters of spec 4.1. */
  unknown: string[];
  /** Keys sent with an empty value. */
  empty: string[];
}

/** The values of a decoded list parameter: split on "|"; an empty value has no values. */
export function splitListValue(decoded: string): string[] {
  return decoded === "" ? [] : decoded.split("|");
}

function decodeFormComponent(raw: string): string {
  const spaced = raw.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A stray "%" is kept as written rather than dropping the whole query.
    return spaced.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/**
 * The pairs of a query string as written: split on "&", empty pairs left out, each split at its first "=" into a key
 * and a value ("" where there is no "="). Nothing is decoded.
 */
export function queryStringPairs(text: string): [key: string, value: string][] {
  return text
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq < 0 ? [pair, ""] : [pair.slice(0, eq), pair.slice(eq + 1)];
    });
}

function addOnce(list: string[], key: string): void {
  if (!list.includes(key)) list.push(key);
}

/**
 * Reads a GET /events query string (a leading "?" is tolerated) with form decoding. A list parameter with an
 * empty value is kept as an empty list (it selects nothing); a time parameter with an empty value is left out
 * of the query. Both are reported in `empty`.
 */
export function parseQueryString(raw: string): ParsedQuery {
  const parsed: ParsedQuery = { query: {}, repeated: [], unknown: [], empty: [] };
  const seen = new Set<string>();
  const text = raw.startsWith("?") ? raw.slice(1) : raw;
  for (const [rawKey, rawValue] of queryStringPairs(text)) {
    const key = decodeFormComponent(rawKey);
    const value = decodeFormComponent(rawValue);
    const first = !seen.has(key);
    seen.add(key);
    if (!first) addOnce(parsed.repeated, key);
    if (value === "") addOnce(parsed.empty, key);
    if (!isQueryParameter(key)) {
      addOnce(parsed.unknown, key);
      continue;
    }
    if (!first) continue;
    if (isListParameter(key)) parsed.query[key] = splitListValue(value);
    else if (value !== "") parsed.query[key] = value;
  }
  return parsed;
}
