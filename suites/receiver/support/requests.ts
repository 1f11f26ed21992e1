// The recorded requests of a receiver, read once: where each went (the resolver, the query interface, anything
// else), what the sender answered, the link sets it was given and the events it received. Every check of the
// receiver class reads these views rather than the raw recording.

import type { RunContext } from "../../../src/engine/context.ts";
import type { Evidence } from "../../../src/engine/types.ts";
import { parseLinkHeader } from "../../../src/http/link-header.ts";
import { carriesSecret, REDACTED, redact } from "../../../src/http/redact.ts";
import { ALPHABETIC_AI_ALIASES, type EpcisEvent } from "../../../src/model/index.ts";

import { traceIdentity } from "../../../src/model/trace-set.ts";
import { EPCIS_LINK, linksetEntries, linksOf } from "../../../src/target/linkset.ts";
import { masterDataKeyOf } from "./paths.ts";

/** One request as the sender received it in recording mode, as the session hands it over in the run context. */
type RecordedExchange = NonNullable<RunContext["receiver"]>["exchanges"][number];

export type RequestKind = "events" | "resolver" | "other";

export interface ReceivedRequest {
  exchange: RecordedExchange;
  /** The absolute URL the request asked, as the sender's listener reads it. */
  url: URL;
  /**
   * The URL for comparison: percent-escapes upper-cased (RFC 3986 6.2.2.1: %7c and %7C are the same), and any
   * query parameter that carries the key left out, since where the key goes is RCV-KEY-*'s to judge alone.
   */
  normalized: string;
  /** The raw query string, undecoded, without "?" ("" when there is none). */
  rawQuery: string;
  kind: RequestKind;
  /** The path after the base of the listener that took it, for resolver requests. */
  resolverPath?: string;
  /** Header values by lower-cased name, one entry per header line. */
  headers: Map<string, string[]>;
}

export interface SenderBases {
  eventsBase: string;
  resolverBase: string;
}

/** The path a resolver request asked, after the resolver's base. */
export function resolverPathOf(r: ReceivedRequest): string {
  return r.resolverPath ?? r.url.pathname;
}

/** A character RFC 3986 leaves unreserved: its percent-escape and itself are the same URL (section 6.2.2.2). */
const UNRESERVED = /^[A-Za-z0-9._~-]$/;

/** Every percent-escape of an unreserved character decoded, every other one's hex digits upper-cased. */
function escapesNormalized(text: string): string {
  return text.replace(/%[0-9a-f]{2}/gi, (escaped) => {
    const character = String.fromCharCode(Number.parseInt(escaped.slice(1), 16));
    return UNRESERVED.test(character) ? character : escaped.toUpperCase();
  });
}

/** A URL with its escapes normalized (RFC 3986 6.2.2), so that two spellings of one URL compare equal. */
export function normalizeUrl(url: string, base?: string): string | undefined {
  try {
    const parsed = new URL(url, base);
    parsed.hash = "";
    return escapesNormalized(parsed.href);
  } catch {
    return undefined;
  }
}

function isAiSegment(segment: string): boolean {
  return /^\d{2,4}$/.test(segment) || segment.toLowerCase() in ALPHABETIC_AI_ALIASES;
}

function pathAfter(pathname: string, basePath: string): string | undefined {
  const base = basePath.replace(/\/+$/, "");
  if (base === "") return pathname;
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : undefined;
}

function originOf(listener: RecordedExchange["listener"], bases: SenderBases): URL {
  return new URL(listener === "resolver" ? bases.resolverBase : bases.eventsBase);
}

function headerMap(lines: readonly [string, string][]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [name, value] of lines) {
    const key = name.toLowerCase();
    map.set(key, [...(map.get(key) ?? []), value]);
  }
  return map;
}

/** The URL without the query parameters that carry the key; the URL itself when none does. */
function withoutKey(url: URL, rawQuery: string, key: string | undefined): URL {
  const pairs = rawQuery.split("&");
  const kept = pairs.filter((pair) => !carriesSecret(pair, key));
  if (kept.length === pairs.length) return url;
  const keyless = new URL(url.href);
  keyless.search = kept.length === 0 ? "" : `?${kept.join("&")}`;
  return keyless;
}

/** Reads the recording, oldest request first; `key` is the one given to the receiver at setup. */
export function readRequests(
  exchanges: readonly RecordedExchange[],
  bases: SenderBases,
  key?: string,
): ReceivedRequest[] {
  return [...exchanges]
    .sort((a, b) => a.seq - b.seq)
    .flatMap((exchange) => {
      const listenerBase = originOf(exchange.listener, bases);
      let url: URL;
      try {
        // An origin-form target ("/path?query") is read under the listener's origin; "//x" is a path there too.
        url = new URL(
          exchange.rawUrl.startsWith("/") ? listenerBase.origin + exchange.rawUrl : exchange.rawUrl,
        );
      } catch {
        return [];
      }
      const mark = exchange.rawUrl.indexOf("?");
      const rawQuery = mark < 0 ? "" : exchange.rawUrl.slice(mark + 1).replace(/#.*$/, "");
      const method = exchange.method.toUpperCase();
      let kind: RequestKind = "other";
      let resolverPath: string | undefined;
      const basePath = exchange.listener === "resolver" ? new URL(bases.resolverBase).pathname : "";
      const after = pathAfter(url.pathname, basePath);
      if ((method === "GET" || method === "HEAD") && isEventsPath(url.pathname)) kind = "events";
      else if (after !== undefined && isAiSegment(after.split("/")[1] ?? "")) {
        kind = "resolver";
        resolverPath = after;
      }
      const request: ReceivedRequest = {
        exchange,
        url,
        normalized: normalizeUrl(withoutKey(url, rawQuery, key).href) ?? url.href,
        rawQuery,
        kind,
        headers: headerMap(exchange.rawHeaders),
      };
      if (resolverPath !== undefined) request.resolverPath = resolverPath;
      return [request];
    });
}

export function answered(r: ReceivedRequest): boolean {
  return r.exchange.status >= 200 && r.exchange.status <= 299;
}

function jsonBody(r: ReceivedRequest): unknown {
  if (r.exchange.responseBody === undefined) return undefined;
  try {
    return JSON.parse(r.exchange.responseBody);
  } catch {
    return undefined;
  }
}

/** The hrefs a link set answered to this request gave (any link type, or one), normalized; empty for others. */
export function linksetHrefsOf(r: ReceivedRequest, linkType?: string): string[] {
  if (r.kind !== "resolver" || !answered(r)) return [];
  const hrefs: string[] = [];
  for (const entry of linksetEntries(jsonBody(r))) {
    const links =
      linkType === undefined
        ? Object.values(entry).flatMap((v) => (Array.isArray(v) ? v : []))
        : linksOf(entry, linkType);
    for (const link of links) {
      const href = (link as { href?: unknown } | null)?.href;
      const normalized = typeof href === "string" ? normalizeUrl(href, r.url.href) : undefined;
      if (normalized !== undefined) hrefs.push(normalized);
    }
  }
  return hrefs;
}

/** The linkType values a request carries, decoded, in order. */
export function linkTypesOf(r: ReceivedRequest): string[] {
  return new URLSearchParams(r.rawQuery).getAll("linkType");
}

/**
 * Where the resolver's own redirect sent a request (a 3xx answer with a Location), normalized; undefined for any
 * other request. Whatever linkType the request carried, or none (the default link), the Location is what the
 * resolver returned: spec 1 step 2 has the resolver return "the location of the Sender's EPCIS repository", and
 * a receiver that follows it learns the location from the resolver as surely as one that reads a link set.
 */
export function redirectOf(r: ReceivedRequest): string | undefined {
  const status = r.exchange.status;
  const location = r.exchange.responseHeaders["location"];
  if (r.kind !== "resolver" || status < 300 || status > 399 || location === undefined) return undefined;
  return normalizeUrl(location, r.url.href);
}

/** Whether a URL's path is a query interface's: its last segment is events, a trailing slash or not. */
export function isEventsPath(pathname: string): boolean {
  return escapesNormalized(pathname).replace(/\/+$/, "").split("/").at(-1) === "events";
}

/** The origin and path of a URL, without a trailing slash: where a query interface is, compared. */
export function interfaceOf(url: URL): string {
  return `${url.origin}${escapesNormalized(url.pathname).replace(/\/+$/, "")}`;
}

/** Every href the resolver gave in answer to this request: a link set's, of any link type, or a redirect's. */
export function learnedHrefsOf(r: ReceivedRequest): string[] {
  const redirect = redirectOf(r);
  return redirect === undefined ? linksetHrefsOf(r) : [redirect];
}

/**
 * A master data fetch: a request for neither the resolver nor GET /events that asks an href the resolver returned
 * before it, or whose path names a master data key; with the earlier request whose answer gave its href.
 */
export interface HrefUse {
  request: ReceivedRequest;
  /** Absent where no link set or redirect returned the href before: the receiver built the path itself. */
  source?: ReceivedRequest;
  /** The master data key (AI 01, 414 or 417) the path names, canonical, where it names one. */
  key?: string;
}

/**
 * Whether a request other than the resolver's and GET /events fetches something: a GET or HEAD. An OPTIONS is a
 * browser's CORS preflight, which fetches nothing, and a path under /.well-known/ (RFC 8615) is a site's fixed
 * description, such as the GS1 resolver's /.well-known/gs1resolver, which no link set gives and a client may ask
 * by its fixed name.
 */
function fetchesHref(r: ReceivedRequest): boolean {
  const method = r.exchange.method.toUpperCase();
  return (method === "GET" || method === "HEAD") && !r.url.pathname.includes("/.well-known/");
}

/**
 * Every master data fetch, in order: each GET or HEAD that is neither a resolver request nor a query of GET
 * /events and that asks an href the resolver returned before it (a link set's, or a resolver redirect's
 * Location), with the first request whose answer returned it, or whose path names a master data key (spec 4.2:
 * gs1:masterData is about a GTIN, GLN or PGLN). Any other request (GET / as a health check, /openapi.json) is no
 * master data fetch: spec 4.2's "A client must use the href that the link set returns" is about master data only.
 */
export function hrefUses(requests: readonly ReceivedRequest[]): HrefUse[] {
  const given = new Map<string, ReceivedRequest>();
  const uses: HrefUse[] = [];
  for (const r of requests) {
    if (r.kind === "other" && fetchesHref(r)) {
      const source = given.get(r.normalized);
      const key = masterDataKeyOf(r.url.pathname);
      if (source !== undefined || key !== undefined) {
        const use: HrefUse = { request: r };
        if (source !== undefined) use.source = source;
        if (key !== undefined) use.key = key;
        uses.push(use);
      }
    }
    for (const href of learnedHrefsOf(r)) if (!given.has(href)) given.set(href, r);
  }
  return uses;
}

/**
 * The query interfaces the resolver named, origin and path without the query or a trailing slash, each with the
 * first request whose answer named it: the epcis links of the answered link sets, and the Locations of the
 * resolver's redirects that lead to a query interface (a path ending in events), whatever link type was asked.
 */
export function epcisInterfaces(requests: readonly ReceivedRequest[]): Map<string, ReceivedRequest> {
  const out = new Map<string, ReceivedRequest>();
  for (const r of requests) {
    const redirect = redirectOf(r);
    const named =
      redirect === undefined
        ? linksetHrefsOf(r, EPCIS_LINK)
        : [redirect].filter((href) => isEventsPath(new URL(href).pathname));
    for (const href of named) {
      const at = interfaceOf(new URL(href));
      if (!out.has(at)) out.set(at, r);
    }
  }
  return out;
}

/** The events a GET /events answer delivered, by the identity the trace is matched on. */
export function deliveredEvents(r: ReceivedRequest): string[] {
  if (r.kind !== "events" || !answered(r)) return [];
  const doc = jsonBody(r) as { epcisBody?: Record<string, unknown> } | undefined;
  const results = doc?.epcisBody?.queryResults as { resultsBody?: { eventList?: unknown } } | undefined;
  const list = results?.resultsBody?.eventList ?? doc?.epcisBody?.eventList;
  return Array.isArray(list) ? (list as EpcisEvent[]).map(traceIdentity) : [];
}

/** Every event any answer of GET /events delivered to the receiver. */
export function fetchedEvents(requests: readonly ReceivedRequest[]): Set<string> {
  return new Set(requests.flatMap(deliveredEvents));
}

/** The rel="next" target of an answered page, normalized, or undefined on a last page. */
export function nextPageOf(r: ReceivedRequest): string | undefined {
  const header = r.exchange.responseHeaders["link"];
  if (header === undefined || !answered(r)) return undefined;
  const next = parseLinkHeader(header).find((l) => l.rel.includes("next"));
  return next === undefined ? undefined : normalizeUrl(next.url, r.url.href);
}

/** The request as evidence: what the receiver sent, the key redacted wherever it appears, and the answer. */
export function requestEvidence(r: ReceivedRequest, key: string, extra: Partial<Evidence> = {}): Evidence {
  const headers: Record<string, string> = {};
  for (const [name, values] of r.headers) {
    headers[name] = name === "x-api-key" ? REDACTED : redact(values.join(", "), key);
  }
  const body = r.exchange.responseBody ?? "";
  return {
    request: { method: r.exchange.method, url: redact(r.url.origin + r.exchange.rawUrl, key), headers },
    response: {
      status: r.exchange.status,
      headers: Object.fromEntries(
        Object.entries(r.exchange.responseHeaders).map(([k, v]) => [k, redact(v, key)]),
      ),
      bodyExcerpt: redact(body.slice(0, 2000), key),
      bodyBytes: Buffer.byteLength(body),
      truncated: false,
    },
    ...extra,
  };
}

/** The request in a few words for a verdict's reason, key redacted. */
export function described(r: ReceivedRequest, key: string): string {
  return `${r.exchange.method} ${redact(r.url.origin + r.exchange.rawUrl, key)}`;
}
