// Following the links of a link set: an epcis link read as a query interface (every page), a masterData link
// read as a JSON-LD document. The client sends the key only where the link stays on an allowed origin.

import type { RunContext } from "../engine/context.ts";
import type { ExchangeRecord } from "../http/record.ts";
import { type EpcisEvent, type EventQuery, encodeQuery } from "../model/index.ts";
import { readEventsAnswer } from "./events.ts";
import { readDocument } from "./resolver.ts";

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

export type LinkedEvents =
  | { kind: "events"; events: EpcisEvent[]; exchange: ExchangeRecord }
  | { kind: "refused"; exchange: ExchangeRecord }
  | { kind: "rejected"; status: number; exchange: ExchangeRecord }
  /** No usable answer; `paging` when its pages broke off, went round or never ended (EVT-PAGING's to judge). */
  | { kind: "broken"; message: string; exchange?: ExchangeRecord; paging?: boolean };

/**
 * The events an epcis href answers, every rel="next" page followed; 413 is "refused" (spec 7), another 4xx
 * "rejected" (the caller knows whether the query was of the sender's making or the harness's).
 */
export async function eventsAt(ctx: RunContext, href: string): Promise<LinkedEvents> {
  const answer = await readEventsAnswer(ctx, href, { redirect: "follow" });
  switch (answer.kind) {
    case "events":
      return { kind: "events", events: answer.events, exchange: answer.pages[0]!.exchange };
    case "refused":
      return { kind: "refused", exchange: answer.result.exchange };
    case "rejected":
      return { kind: "rejected", status: answer.result.status, exchange: answer.result.exchange };
    case "throttled":
      return {
        kind: "broken",
        message: `${href} answered status ${answer.result.status}`,
        exchange: answer.result.exchange,
      };
    case "broken": {
      const broken: LinkedEvents = { kind: "broken", message: answer.message };
      if (answer.exchange !== undefined) broken.exchange = answer.exchange;
      if (answer.paging !== undefined) broken.paging = true;
      return broken;
    }
  }
}

export type LinkedDocument =
  | { kind: "document"; doc: unknown; exchange: ExchangeRecord }
  | { kind: "broken"; message: string; exchange?: ExchangeRecord };

/** The JSON-LD document a masterData href answers (spec 4.2: a client follows the href it is given). */
export async function documentAt(ctx: RunContext, href: string): Promise<LinkedDocument> {
  const read = await readDocument(ctx, href);
  if (read.problem === undefined) return { kind: "document", doc: read.body, exchange: read.exchange! };
  const message = `the masterData link: ${read.problem}`;
  return read.exchange === undefined
    ? { kind: "broken", message }
    : { kind: "broken", message, exchange: read.exchange };
}
