// What a reader needs from one evidence item to judge it without reading JSON: the query asked in words, each
// missing or extra event with the value of the field the filter reads, the counterexample in words, and a key
// that groups exchanges differing only in identifier values. Pure: reporters never touch the network.
import type { EventValues, Evidence } from "../engine/types.ts";
import {
  type EpcisEvent,
  type EventQuery,
  formatInstant,
  matchesQuery,
  parseInstant,
  parseQueryString,
  QUERY_PARAMETERS,
  type QueryParameter,
} from "../model/index.ts";
import { jsonText } from "./text.ts";

/** One query parameter of spec 4.1 with the event field it reads (spec 2.1) and what it asks of that field. */
export interface ParameterFact {
  parameter: QueryParameter;
  /** The field the filter reads, as spec 2.1 names it ("EPCs" and "EPC classes" for the lists they gather). */
  field: string;
  /** What the parameter asks, in words with its value, e.g. "eventTime strictly before 2021-07-09T16:58:46Z". */
  asks: string;
}

/** A missing or extra event, with what it holds in each field the query reads. */
export interface EventFact {
  id: string;
  side: "missing" | "extra";
  /** Absent when neither the answer nor the evidence holds more of the event than its id. */
  values?: { parameter: QueryParameter; value: string; meets: boolean | undefined }[];
}

/** A labelled value in words, e.g. { label: "offset", text: "+00:00" }; a value that is no object has no label. */
export interface WordFact {
  label: string;
  text: string;
}

/** The field each parameter reads (spec 2.1), named short for a column and in full for a sentence. */
const FIELDS: Record<QueryParameter, { column: string; full: string }> = {
  LT_recordTime: { column: "recordTime", full: "recordTime" },
  GE_recordTime: { column: "recordTime", full: "recordTime" },
  LT_eventTime: { column: "eventTime", full: "eventTime" },
  GE_eventTime: { column: "eventTime", full: "eventTime" },
  MATCH_anyEPC: {
    column: "EPCs",
    full: "an EPC of epcList, childEPCs, inputEPCList or outputEPCList, or the parentID,",
  },
  MATCH_anyEPCClass: {
    column: "EPC classes",
    full: "an EPC class of quantityList, childQuantityList, inputQuantityList or outputQuantityList",
  },
  EQ_bizStep: { column: "bizStep", full: "bizStep" },
  EQ_transformationID: { column: "transformationID", full: "transformationID" },
  EQ_bizLocation: { column: "bizLocation", full: "bizLocation" },
};

function isQueryParameter(key: string): key is QueryParameter {
  return (QUERY_PARAMETERS as readonly string[]).includes(key);
}

/** An xsd:dateTimeStamp in UTC with all its digits, or undefined when it is not one. */
export function utcOf(written: string): string | undefined {
  try {
    return formatInstant(parseInstant(written));
  } catch {
    return undefined;
  }
}

/**
 * A time written at an offset, followed by the same instant in UTC, so that a reader compares like with like; one
 * written in UTC already stands as it is.
 */
function timeInWords(written: string): string {
  const utc = utcOf(written);
  return utc === undefined || written.endsWith("Z") ? written : `${written} (${utc})`;
}

/** What a parameter asks of an event, in words, e.g. "eventTime strictly before 2021-07-09T16:58:46Z". */
function asks(parameter: QueryParameter, query: EventQuery): string {
  const field = FIELDS[parameter].full;
  const value = query[parameter];
  if (typeof value === "string") {
    const bound = timeInWords(value);
    return `${field} ${parameter.startsWith("LT_") ? "strictly before" : "at or after"} ${bound}`;
  }
  const values = value ?? [];
  if (values.length === 0) return `${field} equal to one of no value (selects nothing)`;
  const listed = values.length === 1 ? values[0] : `one of ${values.join(" | ")}`;
  if (parameter === "EQ_bizStep") return `${field} equal to ${listed} (in any of its three forms)`;
  if (parameter.startsWith("MATCH_")) return `${field} matching ${listed}`;
  return `${field} equal to ${listed}`;
}

/** The request URL's query, when it is a GET /events query of spec 4.1. */
export function eventQueryOf(url: string): { query: EventQuery; facts: ParameterFact[] } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!parsed.pathname.endsWith("/events")) return undefined;
  const { query } = parseQueryString(parsed.search);
  const facts = QUERY_PARAMETERS.filter((p) => query[p] !== undefined).map((parameter) => ({
    parameter,
    field: FIELDS[parameter].column,
    asks: asks(parameter, query),
  }));
  return { query, facts };
}

/** A URL as a person reads it: the query's percent-escapes decoded, the origin kept. */
export function readableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const pairs = parsed.search
      .slice(1)
      .split("&")
      .filter((p) => p !== "")
      .map((pair) => {
        const eq = pair.indexOf("=");
        const decode = (s: string) => {
          try {
            return decodeURIComponent(s.replace(/\+/g, " "));
          } catch {
            return s;
          }
        };
        return eq < 0 ? decode(pair) : `${decode(pair.slice(0, eq))}=${decode(pair.slice(eq + 1))}`;
      });
    return `${parsed.origin}${parsed.pathname}${pairs.length > 0 ? `?${pairs.join("&")}` : ""}`;
  } catch {
    return url;
  }
}

/** Every object with a string eventID found in the values, by that id (the first one found wins). */
function eventsById(values: readonly unknown[]): Map<string, EpcisEvent> {
  const found = new Map<string, EpcisEvent>();
  const visit = (v: unknown, depth: number): void => {
    if (depth > 8 || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (const item of v) visit(item, depth + 1);
      return;
    }
    const record = v as Record<string, unknown>;
    if (typeof record["eventID"] === "string" && !found.has(record["eventID"])) {
      found.set(record["eventID"], record as EpcisEvent);
    }
    for (const member of Object.values(record)) visit(member, depth + 1);
  };
  for (const v of values) visit(v, 0);
  return found;
}

/** The response body as JSON, or undefined when it is not JSON (or its excerpt was cut). */
export function bodyJson(e: Evidence): unknown {
  const text = e.response?.bodyExcerpt;
  if (text === undefined || text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Up to `max` values, and how many more there are, `hidden` of them not recorded at all. */
function list(values: readonly string[], max = 4, hidden = 0): string {
  const shown = values.slice(0, max).join(", ");
  const more = Math.max(0, values.length - max) + hidden;
  return more > 0 ? `${shown} and ${more} more` : shown;
}

/** What an event holds in the field a parameter reads, in words; `more` counts values recorded evidence left out. */
function fieldValue(event: EpcisEvent, parameter: QueryParameter, more: Record<string, number> = {}): string {
  const missing = "(none)";
  switch (parameter) {
    case "LT_recordTime":
    case "GE_recordTime":
    case "LT_eventTime":
    case "GE_eventTime": {
      const written = event[FIELDS[parameter].column as "eventTime" | "recordTime"];
      return typeof written === "string" ? timeInWords(written) : missing;
    }
    case "MATCH_anyEPC": {
      const parts: string[] = [];
      for (const field of ["epcList", "childEPCs", "inputEPCList", "outputEPCList"] as const) {
        const epcs = event[field];
        if (Array.isArray(epcs) && epcs.length > 0) {
          parts.push(`${field}: ${list(epcs.map(String), undefined, more[field])}`);
        }
      }
      if (typeof event.parentID === "string") parts.push(`parentID: ${event.parentID}`);
      return parts.length > 0 ? parts.join("; ") : missing;
    }
    case "MATCH_anyEPCClass": {
      const parts: string[] = [];
      for (const field of [
        "quantityList",
        "childQuantityList",
        "inputQuantityList",
        "outputQuantityList",
      ] as const) {
        const classes = (event[field] ?? []).map((q) => q?.epcClass).filter((c) => typeof c === "string");
        if (classes.length > 0) parts.push(`${field}: ${list(classes, undefined, more[field])}`);
      }
      return parts.length > 0 ? parts.join("; ") : missing;
    }
    case "EQ_bizStep":
      return typeof event.bizStep === "string" ? event.bizStep : missing;
    case "EQ_transformationID":
      return typeof event.transformationID === "string" ? event.transformationID : missing;
    case "EQ_bizLocation":
      return typeof event.bizLocation?.id === "string" ? event.bizLocation.id : missing;
  }
}

function meets(event: EpcisEvent, parameter: QueryParameter, query: EventQuery): boolean | undefined {
  try {
    return matchesQuery(event, { [parameter]: query[parameter] } as EventQuery);
  } catch {
    return undefined;
  }
}

/** Deciding values recorded for an event (Evidence.eventValues), as the event they were read from. */
function asEvent(values: EventValues): EpcisEvent {
  const { more: _more, ...fields } = values;
  return { type: "", ...fields };
}

/**
 * Each missing and extra event of an event-set comparison, with the value of every field its query reads. The
 * values come from what the evidence records of it (eventValues), else from the answer's body (an extra event is
 * in it) or from any event object the evidence records under expected, actual or counterexample; an event found
 * nowhere keeps only its id.
 */
export function eventFacts(e: Evidence): { facts: ParameterFact[]; events: EventFact[] } | undefined {
  const ids = [
    ...(e.missing ?? []).map((id) => ({ id, side: "missing" as const })),
    ...(e.extra ?? []).map((id) => ({ id, side: "extra" as const })),
  ];
  if (ids.length === 0) return undefined;
  const asked = e.request === undefined ? undefined : eventQueryOf(e.request.url);
  const facts = asked?.facts ?? [];
  let found: Map<string, EpcisEvent> | undefined;
  const known = (id: string): EpcisEvent | undefined => {
    const recorded = e.eventValues?.[id];
    if (recorded !== undefined) return asEvent(recorded);
    // Older reports, and evidence of other comparisons, record events whole or not at all.
    found ??= eventsById([bodyJson(e), e.expected, e.actual, e.counterexample]);
    return found.get(id);
  };
  const events = ids.map(({ id, side }): EventFact => {
    const event = known(id);
    if (event === undefined || asked === undefined) return { id, side };
    return {
      id,
      side,
      values: facts.map((f) => ({
        parameter: f.parameter,
        value: fieldValue(event, f.parameter, e.eventValues?.[id]?.more),
        meets: meets(event, f.parameter, asked.query),
      })),
    };
  });
  return { facts, events };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** camelCase and snake_case keys as words; query parameters stay as the spec writes them. */
function label(key: string): string {
  if (isQueryParameter(key)) return key;
  if (key === "q") return "query";
  return key
    .replace(/_/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

/** A query string as written on the wire, percent-escapes decoded, when the text is one. */
function queryText(text: string): string | undefined {
  const pairs = text.split("&");
  if (!pairs.every((p) => /^[A-Za-z_]+=/.test(p))) return undefined;
  if (!pairs.some((p) => isQueryParameter(p.slice(0, p.indexOf("="))))) return undefined;
  return readableUrl(`http://x/?${text}`).replace(/^http:\/\/x\/\?/, "");
}

/** An object whose members are all query parameters, written as the query it is: "EQ_bizStep=a|b & LT_eventTime=…". */
function queryObjectText(v: Record<string, unknown>): string | undefined {
  const keys = Object.keys(v);
  if (keys.length === 0 || !keys.every(isQueryParameter)) return undefined;
  return keys
    .map((k) => {
      const value = v[k];
      return `${k}=${Array.isArray(value) ? value.map(String).join("|") : String(value)}`;
    })
    .join(" & ");
}

const WORDS_MAX = 240;

/** One value in words: a string as it is, a list joined, a query as a query; undefined when it needs JSON. */
function valueText(v: unknown): string | undefined {
  if (v === null) return "null";
  if (typeof v === "string") return queryText(v) ?? (v === "" ? '""' : v);
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return "none";
    // Event objects a suite recorded are shown in the table of missing and extra events, not here.
    if (v.every((item) => isPlainObject(item) && typeof item["eventID"] === "string")) {
      return `${v.length} event(s): ${list(v.map((item) => String((item as Record<string, unknown>)["eventID"])))}`;
    }
    const parts = v.map(valueText);
    if (parts.some((p) => p === undefined)) return undefined;
    const text = parts.join(", ");
    return text.length > WORDS_MAX ? undefined : text;
  }
  if (isPlainObject(v)) {
    const query = queryObjectText(v);
    if (query !== undefined) return query;
    // A small object of plain members reads as "key: value; key: value".
    const parts = Object.entries(v).map(([k, m]) => {
      const text = isPlainObject(m) ? (queryObjectText(m) ?? undefined) : valueText(m);
      return text === undefined ? undefined : `${label(k)}: ${text}`;
    });
    if (parts.some((p) => p === undefined)) return undefined;
    const text = parts.join("; ");
    return text.length > WORDS_MAX ? undefined : text;
  }
  return undefined;
}

/**
 * A value a suite recorded (a counterexample, an expected or actual value) as labelled words: one fact per
 * member of an object, a query object as its query. Undefined when it cannot be said in words; the reader then
 * gets the indented JSON.
 */
export function inWords(value: unknown): WordFact[] | undefined {
  if (isPlainObject(value)) {
    const query = queryObjectText(value);
    if (query !== undefined) return [{ label: "query", text: query }];
    const facts: WordFact[] = [];
    for (const [key, member] of Object.entries(value)) {
      const text = valueText(member);
      if (text === undefined) return undefined;
      facts.push({ label: label(key), text });
    }
    return facts;
  }
  const text = valueText(value);
  return text === undefined ? undefined : [{ label: "", text }];
}

/** Indented JSON of a body when it parses, else the body as it came. */
export function prettyBody(text: string): { text: string; json: boolean } {
  try {
    return { text: jsonText(JSON.parse(text) as unknown), json: true };
  } catch {
    return { text, json: false };
  }
}

// Identifier values: URIs and URNs, UUIDs, runs of three or more digits, quoted text.
const IDENTIFIER_VALUE =
  /(https?:\/\/[^\s"'),;]+|urn:[^\s"'),;]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|"[^"]*"|'[^']*'|\d{3,})/gi;

/** A message with its identifier values replaced, so that two findings of one defect compare equal. */
function messageShape(message: string): string {
  return message.replace(IDENTIFIER_VALUE, "…");
}

/**
 * A request URL with its identifier values replaced: every path segment that holds a digit (a Digital Link's
 * application identifiers and values, spec 4.2) and every query value.
 */
function urlShape(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return messageShape(url);
  }
  const path = parsed.pathname
    .split("/")
    .map((s) => (/\d/.test(s) ? "…" : s))
    .join("/");
  const keys = [...new Set(parsed.searchParams.keys())].map((k) => `${k}=…`).join("&");
  return `${path}${keys === "" ? "" : `?${keys}`}`;
}

/**
 * Evidence items with the same key differ only in identifier values: requests of the same shape answered with
 * the same status, or findings without a request whose messages differ only in the values they name.
 */
export function groupKey(e: Evidence): string {
  if (e.request === undefined) return `\n${messageShape(e.message ?? "")}`;
  return `${e.request.method} ${urlShape(e.request.url)}\n${e.response?.status ?? "no answer"}`;
}

/** The message with its identifier values replaced, to pick differing findings out of a group. */
export function findingShape(e: Evidence): string {
  return messageShape(e.message ?? "");
}

/** What a group of like exchanges is called: "link sets", "queries", or plain "exchanges". */
export function groupNoun(e: Evidence, count: number): string {
  const url = e.request?.url ?? "";
  const one = count === 1;
  if (/[?&]linkType=linkset\b/.test(url)) return one ? "link set" : "link sets";
  if (/\/events(\?|$)/.test(url)) return one ? "query" : "queries";
  if (e.request === undefined) return one ? "finding" : "findings";
  return one ? "exchange" : "exchanges";
}
