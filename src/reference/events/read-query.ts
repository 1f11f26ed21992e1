import type { EventQuery, ListParameter, QueryParameter } from "../../model/index.ts";
import {
  CBV_BIZSTEPS,
  LIST_PARAMETERS,
  parseInstant,
  parseQueryString,
  QUERY_PARAMETERS,
  TIME_PARAMETERS,
} from "../../model/index.ts";
import { faultOn } from "./faults.ts";

/** Paging parameters in the EPCIS 2.0 REST style; spec 4.1 neither shows nor forbids them. */
export const PAGING_PARAMETERS = ["perPage", "nextPageToken"] as const;

export type QueryReading =
  | {
      ok: true;
      query: EventQuery;
      /** The filter as the client wrote it: the raw pairs other than the paging ones, in their order. */
      filterPart: string;
      perPage?: number;
      nextPageToken?: string;
    }
  | { ok: false; detail: string };

/** What a sender configured to be strict refuses beyond what the spec requires it to (a freedom, not a fault). */
export interface Strictness {
  /** Time bounds only in UTC: spec 4.1 types them "ISO date-time in UTC (xsd:dateTimeStamp)". */
  utcOnly?: boolean;
  /** A bare EQ_bizStep word only when it is a CBV 2.0 step. */
  strictBizSteps?: boolean;
  /** An sgtin class pattern only over one GTIN (CP.IR.*), not over a whole company prefix (CP.*.*). */
  gtinPatternsOnly?: boolean;
}

const PREFIX_WIDE_PATTERN = /^urn:epc:idpat:sgtin:[^.]*\.\*\.\*$/;

const UTC_ZONE = /(Z|[+-]00:00)$/;
const BARE_WORD = /^[A-Za-z0-9_-]+$/;
const CBV_STEPS: ReadonlySet<string> = new Set(CBV_BIZSTEPS);

/** Reads the raw query string of GET /events (without "?"); a refusal says what is wrong and how to fix it. */
export function readQuery(raw: string, faults: ReadonlySet<string>, strict: Strictness = {}): QueryReading {
  if (/%(?![0-9A-Fa-f]{2})/.test(raw)) {
    return {
      ok: false,
      detail: `The query string has a '%' that starts no percent-escape; encode it as %25.`,
    };
  }
  const parsed = parseQueryString(raw);
  const unknown = parsed.unknown.filter((k) => !(PAGING_PARAMETERS as readonly string[]).includes(k));
  if (unknown.length > 0) {
    return {
      ok: false,
      detail: `Unknown query parameter ${unknown.join(", ")}: GET /events takes only the nine parameters of spec 4.1 (and perPage, nextPageToken); remove it.`,
    };
  }
  const query: EventQuery = { ...parsed.query };
  for (const key of parsed.repeated) {
    const refusal = resolveRepeat(key, raw, query, faults);
    if (refusal !== undefined) return { ok: false, detail: refusal };
  }
  if (parsed.empty.length > 0) {
    return {
      ok: false,
      detail: `Query parameter ${parsed.empty.join(", ")} has an empty value; give it a value or leave it out.`,
    };
  }
  for (const p of LIST_PARAMETERS) {
    const values = query[p];
    if (values?.includes("")) {
      return {
        ok: false,
        detail: `Query parameter ${p} has an empty value between pipes; join only non-empty values with %7C.`,
      };
    }
    if (values !== undefined) query[p] = adjustValues(values, faults);
  }
  const unknownStep = strict.strictBizSteps
    ? query.EQ_bizStep?.find((v) => BARE_WORD.test(v) && !CBV_STEPS.has(v))
    : undefined;
  if (unknownStep !== undefined) {
    return {
      ok: false,
      detail: `EQ_bizStep ${unknownStep} is not a business step of the CBV; give a CBV step such as shipping, or a step's full URI.`,
    };
  }
  const wide = strict.gtinPatternsOnly
    ? query.MATCH_anyEPCClass?.find((v) => PREFIX_WIDE_PATTERN.test(v))
    : undefined;
  if (wide !== undefined) {
    return {
      ok: false,
      detail: `MATCH_anyEPCClass ${wide} covers a whole company prefix; give a class or a pattern over one GTIN, like urn:epc:idpat:sgtin:CP.IR.*.`,
    };
  }
  for (const p of TIME_PARAMETERS) {
    const value = query[p];
    if (value === undefined) continue;
    try {
      parseInstant(value);
    } catch {
      // A '+' of an offset sent unencoded arrives as a space under form decoding.
      const hint = value.includes(" ") ? " and encode a '+' offset as %2B" : "";
      return {
        ok: false,
        detail: `Query parameter ${p} is not a date-time with a time zone (${value}); write it like 2024-05-01T10:00:00Z${hint}.`,
      };
    }
    if (strict.utcOnly && !UTC_ZONE.test(value)) {
      return {
        ok: false,
        detail: `Query parameter ${p} must be a date-time in UTC (${value}); write it with Z, like 2024-05-01T10:00:00Z.`,
      };
    }
  }
  const filterPart = rawPairs(raw)
    .filter((pair) => !(PAGING_PARAMETERS as readonly string[]).includes(keyOf(pair)))
    .join("&");
  const reading: QueryReading = { ok: true, query, filterPart };
  const perPage = pairValue(raw, "perPage");
  if (perPage !== undefined) {
    if (!/^[1-9][0-9]{0,8}$/.test(perPage)) {
      return {
        ok: false,
        detail: `perPage must be a positive whole number, got '${perPage}'; send for example perPage=100.`,
      };
    }
    reading.perPage = Number(perPage);
  }
  const token = pairValue(raw, "nextPageToken");
  if (token !== undefined) reading.nextPageToken = token;
  return reading;
}

/** Handles a key sent more than once (spec 4.1 rule 2: not equivalent, must not be used); returns a refusal. */
function resolveRepeat(
  key: string,
  raw: string,
  query: EventQuery,
  faults: ReadonlySet<string>,
): string | undefined {
  const refusal = `Query parameter ${key} is repeated; send it once, with its values joined by %7C (spec 4.1 rule 2).`;
  if (!(QUERY_PARAMETERS as readonly string[]).includes(key)) return refusal;
  const p = key as QueryParameter;
  const occurrences = allValues(raw, p);
  if ((faultOn(faults, "repeat-as-or") || faultOn(faults, "repeat-as-own-pipe")) && isList(p)) {
    query[p] = occurrences.flatMap((o) => (o as string[] | undefined) ?? []);
    return undefined;
  }
  if (faultOn(faults, "repeat-last-wins")) {
    const last = occurrences[occurrences.length - 1];
    if (isList(p)) query[p] = last as string[];
    else query[p as (typeof TIME_PARAMETERS)[number]] = last as string;
    return undefined;
  }
  return refusal;
}

function isList(p: QueryParameter): p is ListParameter {
  return (LIST_PARAMETERS as readonly string[]).includes(p);
}

/** The value of every occurrence of a parameter, each read as the model reads a single one. */
function allValues(raw: string, p: QueryParameter): (string | string[] | undefined)[] {
  return rawPairs(raw)
    .filter((pair) => keyOf(pair) === p)
    .map((pair) => parseQueryString(pair).query[p]);
}

function adjustValues(values: string[], faults: ReadonlySet<string>): string[] {
  let out = values;
  if (faultOn(faults, "encoding-double-decode")) out = out.map(decodeLeniently);
  if (faultOn(faults, "pipe-not-split")) out = [out.join("|")];
  return out;
}

function decodeLeniently(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function rawPairs(raw: string): string[] {
  return (raw.startsWith("?") ? raw.slice(1) : raw).split("&").filter((p) => p !== "");
}

function keyOf(pair: string): string {
  const eq = pair.indexOf("=");
  return decodeLeniently((eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, " "));
}

/** The decoded value of the first occurrence of a key the model does not read (the paging parameters). */
function pairValue(raw: string, key: string): string | undefined {
  for (const pair of rawPairs(raw)) {
    if (keyOf(pair) !== key) continue;
    const eq = pair.indexOf("=");
    return decodeLeniently((eq < 0 ? "" : pair.slice(eq + 1)).replace(/\+/g, " "));
  }
  return undefined;
}
