// Following the links of a link set: an epcis link read as a query interface (every page), a masterData link
// read as a JSON-LD document, and the link set itself as a receiver asks the resolver for it. The client sends the
// key only where the link stays on an allowed origin.

import type { RunContext } from "../engine/context.ts";
import type { ExchangeRecord } from "../http/record.ts";
import type { HttpResult } from "../http/result.ts";
import { type EpcisEvent, type EventQuery, encodeQuery } from "../model/index.ts";
import { readEventsAnswer } from "./events.ts";
import { type JsonRead, readDocument, readLinkset } from "./resolver.ts";

export interface EventsRequest {
  url: string;
  /** The link named the query interface itself, and the receiver added the query for the identifier. */
  queried: boolean;
  /** The link named the query interface itself and no query was added: the whole repository was asked for. */
  repository: boolean;
}

/**
 * The request a receiver makes from an epcis href (spec 1, steps 2 and 3). A link with a query string already
 * selects events and is followed as it is. A link without one names the query interface itself (the resolver
 * "returns the location of the Sender's EPCIS repository"): the receiver asks its GET /events for the identifier
 * with `query`, or for everything when there is no query to ask.
 */
export function eventsRequest(href: string, query: EventQuery | undefined): EventsRequest {
  const u = new URL(href);
  if (u.search !== "") return { url: href, queried: false, repository: false };
  const path = u.pathname.replace(/\/+$/, "");
  const events = `${u.origin}${path.endsWith("/events") ? path : `${path}/events`}`;
  const search = query === undefined ? "" : encodeQuery(query);
  return search === ""
    ? { url: events, queried: false, repository: true }
    : { url: `${events}?${search}`, queried: true, repository: false };
}

/**
 * Why a refusal may be the harness's doing: the client sends the key only to the target's origins, so a 401 or 403
 * from another origin it was withheld from says nothing of the sender.
 */
export function withheldHint(exchange: ExchangeRecord, status: number | undefined): string | undefined {
  if (exchange.keyWithheld !== true || (status !== 401 && status !== 403)) return undefined;
  return `the key was withheld because ${new URL(exchange.request.url).origin} is not an origin of the target: allow it with --allow-origin`;
}

/**
 * What an epcis href answered, kept whole for each caller to phrase its own verdict: the status of every answer that
 * came, and `withheld`, the hint that the key was withheld from the origin that refused it.
 */
export type LinkedEvents =
  | { kind: "events"; events: EpcisEvent[]; exchange: ExchangeRecord }
  /** 413 Query Too Complex (spec 7). */
  | { kind: "refused"; status: number; exchange: ExchangeRecord; withheld?: string }
  /** Another 4xx. */
  | { kind: "rejected"; status: number; exchange: ExchangeRecord; withheld?: string }
  /** 429 still standing after the client's retries. */
  | { kind: "throttled"; status: number; exchange: ExchangeRecord; withheld?: string }
  /** No usable answer; `paging` when its pages broke off, went round or never ended (EVT-PAGING's to judge). */
  | {
      kind: "broken";
      message: string;
      exchange?: ExchangeRecord;
      status?: number;
      paging?: boolean;
      withheld?: string;
    };

/** An answer of a status, with the hint when the key was withheld from it. */
function statusAnswer<K extends "refused" | "rejected" | "throttled">(
  kind: K,
  status: number,
  exchange: ExchangeRecord,
): { kind: K; status: number; exchange: ExchangeRecord; withheld?: string } {
  const withheld = withheldHint(exchange, status);
  return withheld === undefined ? { kind, status, exchange } : { kind, status, exchange, withheld };
}

/**
 * The events an epcis href answers, every rel="next" page followed; 413 is "refused" (spec 7), another 4xx
 * "rejected" (the caller knows whether the query was of the sender's making or the harness's).
 */
export async function eventsAt(ctx: RunContext, href: string): Promise<LinkedEvents> {
  const answer = await readEventsAnswer(ctx, href);
  switch (answer.kind) {
    case "events":
      return { kind: "events", events: answer.events, exchange: answer.pages[0]!.exchange };
    case "refused":
    case "rejected":
    case "throttled":
      return statusAnswer(answer.kind, answer.result.status, answer.result.exchange);
    case "broken": {
      const broken: LinkedEvents = { kind: "broken", message: answer.message };
      if (answer.exchange !== undefined) broken.exchange = answer.exchange;
      if (answer.status !== undefined) broken.status = answer.status;
      if (answer.paging !== undefined) broken.paging = true;
      const withheld = answer.exchange && withheldHint(answer.exchange, answer.status);
      if (withheld !== undefined) broken.withheld = withheld;
      return broken;
    }
  }
}

/**
 * A read of the resolver or of a link it gave that answered no usable JSON: `problem`, why, with the status when an
 * answer came and the hint when the key was withheld from it.
 */
export interface BrokenRead {
  kind: "broken";
  problem: string;
  status?: number;
  exchange?: ExchangeRecord;
  withheld?: string;
}

/** Why a read answered no usable JSON, kept whole for each caller to phrase its own verdict. */
function brokenRead(read: JsonRead): BrokenRead {
  const { exchange, status } = read;
  const broken: BrokenRead = { kind: "broken", problem: read.problem ?? "no answer" };
  if (status !== undefined) broken.status = status;
  if (exchange !== undefined) {
    broken.exchange = exchange;
    const withheld = withheldHint(exchange, status);
    if (withheld !== undefined) broken.withheld = withheld;
  }
  return broken;
}

/** What a masterData href answered: the parsed document, or why there is none. */
export type LinkedDocument =
  | { kind: "document"; doc: unknown; status: number; exchange: ExchangeRecord }
  | BrokenRead;

/** The JSON-LD document a masterData href answers (spec 4.2: a client follows the href it is given). */
export async function documentAt(ctx: RunContext, href: string): Promise<LinkedDocument> {
  const read = await readDocument(ctx, href);
  const { exchange, status } = read;
  if (read.problem === undefined && exchange !== undefined && status !== undefined) {
    return { kind: "document", doc: read.body, status, exchange };
  }
  return brokenRead(read);
}

/**
 * What a link set URL answered: its JSON, or why there is none. JSON without a linkset member is "json" too: what
 * came is the caller's to judge with its shape (spec 2.3), not a read that broke.
 */
export type LinkedLinkset = { kind: "json"; body: unknown; result: HttpResult } | BrokenRead;

/** The link set a resolver URL answers when asked with linkType=linkset (spec 4.2), redirects followed. */
export async function linksetAt(ctx: RunContext, url: string): Promise<LinkedLinkset> {
  const read = await readLinkset(ctx, url);
  if (read.body !== undefined && read.result !== undefined) {
    return { kind: "json", body: read.body, result: read.result };
  }
  return brokenRead(read);
}
