// Following the links of a link set: an epcis link read as a query interface (every page), a masterData link
// read as a JSON-LD document. The client sends the key only where the link stays on an allowed origin.
import { eventsOf } from "../../../src/harness/baseline.ts";
import type { RunContext } from "../../../src/harness/context.ts";
import { pageBudget, targetClient } from "../../../src/harness/target.ts";
import type { ExchangeRecord } from "../../../src/harness/types.ts";
import { followPages, HttpError } from "../../../src/http/index.ts";
import { type EpcisEvent, type EventQuery, encodeQuery } from "../../../src/model/index.ts";

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
  | { kind: "broken"; message: string; exchange?: ExchangeRecord };

/** The events an epcis href answers, every rel="next" page followed; 413 is "refused" (spec 7). */
export async function eventsAt(ctx: RunContext, href: string): Promise<LinkedEvents> {
  let read: Awaited<ReturnType<typeof followPages>>;
  try {
    read = await followPages(targetClient(ctx), href, {
      ...pageBudget(ctx),
      request: { redirect: "follow" },
    });
  } catch (err) {
    if (err instanceof HttpError) return { kind: "broken", message: err.message, exchange: err.exchange };
    throw err;
  }
  const { pages, problem } = read;
  const first = pages[0];
  const stopped = problem?.result;
  if (first === undefined && stopped?.status === 413) return { kind: "refused", exchange: stopped.exchange };
  if (problem) return { kind: "broken", message: problem.message, exchange: problem.exchange };
  if (first === undefined) return { kind: "broken", message: `${href} answered no page` };
  const events: EpcisEvent[] = [];
  for (const page of pages) {
    let list: EpcisEvent[] | undefined;
    try {
      list = eventsOf(page.json());
    } catch {
      list = undefined;
    }
    if (list === undefined) {
      return {
        kind: "broken",
        message: `${page.url} answered ${page.status} without an EPCIS query document holding an eventList`,
        exchange: page.exchange,
      };
    }
    events.push(...list);
  }
  return { kind: "events", events, exchange: first.exchange };
}

export type LinkedDocument =
  | { kind: "document"; doc: unknown; exchange: ExchangeRecord }
  | { kind: "broken"; message: string; exchange?: ExchangeRecord };

/** The JSON-LD document a masterData href answers (spec 4.2: a client follows the href it is given). */
export async function documentAt(ctx: RunContext, href: string): Promise<LinkedDocument> {
  try {
    const result = await targetClient(ctx).get(href, {
      accept: "application/ld+json, application/json;q=0.9",
      redirect: "follow",
    });
    if (result.status < 200 || result.status > 299) {
      return {
        kind: "broken",
        message: `the masterData link answered ${result.status}`,
        exchange: result.exchange,
      };
    }
    try {
      return { kind: "document", doc: result.json(), exchange: result.exchange };
    } catch {
      return {
        kind: "broken",
        message: "the masterData link answered a body that is not JSON",
        exchange: result.exchange,
      };
    }
  } catch (err) {
    if (err instanceof HttpError) return { kind: "broken", message: err.message, exchange: err.exchange };
    throw err;
  }
}
