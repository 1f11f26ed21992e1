// The one reader of the resolver and of the links it gives: a link set asked with linkType=linkset (spec 4.2),
// a master data document a masterData link leads to (spec 2.2), or any other resolver URL. Redirects are
// followed, as a receiver following a link follows them; the client keeps the key on the allowed origins, and
// every answer keeps its exchange so that a verdict built on it carries the evidence. GET /events answers,
// wherever their URL came from, are read in events.ts.

import type { RunContext } from "../engine/context.ts";
import { HttpError } from "../http/errors.ts";
import type { GetOptions } from "../http/options.ts";
import type { ExchangeRecord } from "../http/record.ts";
import type { HttpResult } from "../http/result.ts";
import { rebaseDigitalLink } from "../model/index.ts";
import { targetClient } from "./client.ts";

export const LINKSET_ACCEPT = "application/linkset+json, application/json;q=0.9";
export const DOCUMENT_ACCEPT = "application/ld+json, application/json;q=0.9";

/**
 * The URL that asks a resolver URL for its link set (spec 4.2: linkType=linkset), after any query the URL already
 * carries. Every link set the harness asks for is asked with a URL built here.
 */
export function linksetUrl(resolverUrl: string): string {
  return `${resolverUrl}${resolverUrl.includes("?") ? "&" : "?"}linkType=linkset`;
}

/** The URL of an identifier's link set at the sender's resolver: its Digital Link URI under the resolver base (spec 4.2). */
export function identifierLinksetUrl(resolverBase: string, uri: string): string {
  return linksetUrl(rebaseDigitalLink(uri, resolverBase));
}

export interface ResolverRequest {
  result?: HttpResult;
  exchange?: ExchangeRecord;
  /** Why no HTTP answer came (a network error, a timeout, a redirect the harness would not follow). */
  error?: string;
}

/** GET of a resolver URL or of a link it gave, redirects followed. */
export async function requestResolver(
  ctx: RunContext,
  url: string,
  options: GetOptions = {},
): Promise<ResolverRequest> {
  try {
    const result = await targetClient(ctx).get(url, {
      accept: LINKSET_ACCEPT,
      redirect: "follow",
      ...options,
    });
    return { result, exchange: result.exchange };
  } catch (err) {
    if (err instanceof HttpError) return { exchange: err.exchange, error: err.message };
    throw err;
  }
}

/** A JSON answer, or why there is none: `problem` is undefined exactly when `body` is the answer's JSON. */
export interface JsonRead {
  url: string;
  result?: HttpResult;
  body?: unknown;
  problem?: string;
  exchange?: ExchangeRecord;
  /** The status answered, when an answer came. */
  status?: number;
}

async function readJson(ctx: RunContext, url: string, accept: string, what: string): Promise<JsonRead> {
  const read: JsonRead = { url };
  const { result, exchange, error } = await requestResolver(ctx, url, { accept });
  if (exchange !== undefined) read.exchange = exchange;
  if (result === undefined) {
    read.problem = error ?? "no answer";
    return read;
  }
  read.result = result;
  read.status = result.status;
  if (result.status < 200 || result.status > 299) {
    read.problem = `${url} answered ${result.status} instead of ${what}`;
    return read;
  }
  try {
    read.body = result.json();
  } catch {
    read.problem = `${url} answered ${result.status} with a body that is not JSON`;
  }
  return read;
}

/** Whether a parsed body is a link set document: an object with a linkset member (spec 2.3). */
export function isLinksetBody(body: unknown): boolean {
  return typeof body === "object" && body !== null && "linkset" in body;
}

/** A link set (spec 4.2): a 2xx JSON answer with a linkset member. */
export async function readLinkset(ctx: RunContext, url: string): Promise<JsonRead> {
  const read = await readJson(ctx, url, LINKSET_ACCEPT, "a link set");
  if (read.problem === undefined && !isLinksetBody(read.body)) {
    read.problem = `${url} answered JSON with no linkset member`;
  }
  return read;
}

/** The JSON-LD document a masterData link leads to (spec 2.2: a client follows the href it is given). */
export function readDocument(ctx: RunContext, href: string): Promise<JsonRead> {
  return readJson(ctx, href, DOCUMENT_ACCEPT, "a master data document");
}
