import type { ExchangeRecord } from "../harness/types.ts";
import type { HttpClient } from "./client.ts";
import { HttpError, JsonBodyError } from "./errors.ts";
import { parseLinkHeader } from "./link-header.ts";
import type { GetOptions } from "./options.ts";
import type { HttpResult } from "./result.ts";

export type PageProblemKind = "loop" | "off-origin" | "bad-status" | "too-many-pages" | "not-json";

export interface PageProblem {
  kind: PageProblemKind;
  message: string;
  exchange: ExchangeRecord;
  /** The response that stopped the reading, for bad-status, not-json and an off-origin page that answered. */
  result?: HttpResult;
}

export interface PagesResult {
  /** The pages read in order, each a 2xx JSON response; a page that stopped the reading is not among them. */
  pages: HttpResult[];
  problem?: PageProblem;
}

export interface FollowPagesOptions {
  /** Pages read before giving up. Default 1000. */
  maxPages?: number;
  /** Passed to every request. */
  request?: GetOptions;
}

export type PageClient = Pick<HttpClient, "get" | "redactSecret">;

function withoutFragment(url: string): string {
  const hash = url.indexOf("#");
  return hash === -1 ? url : url.slice(0, hash);
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The rel="next" target of a page, resolved against the URL that answered; undefined on the last page. */
function nextLink(page: HttpResult): string | undefined {
  const header = page.headers["link"];
  if (header === undefined) return undefined;
  const link = parseLinkHeader(header).find((candidate) => candidate.rel.includes("next"));
  if (link === undefined) return undefined;
  try {
    return new URL(link.url, page.url).href;
  } catch {
    return link.url;
  }
}

/** Why a page cannot be used, or undefined when it is a 2xx JSON answer. */
function pageFailure(
  page: HttpResult,
  label: string,
): { kind: PageProblemKind; message: string } | undefined {
  if (page.status < 200 || page.status > 299) {
    return {
      kind: "bad-status",
      message: `${label} answered status ${page.status}, so the result set is incomplete.`,
    };
  }
  try {
    page.json();
    return undefined;
  } catch (error) {
    if (!(error instanceof JsonBodyError)) throw error;
    return { kind: "not-json", message: error.message };
  }
}

/**
 * Reads a result set that may be split across pages: the first URL, then each Link rel="next" until a page has
 * none. Stops at the first problem and reports it with the pages read so far; a network failure on the first
 * origin is thrown as the HttpError it is.
 */
export async function followPages(
  client: PageClient,
  firstUrl: string,
  options: FollowPagesOptions = {},
): Promise<PagesResult> {
  const maxPages = options.maxPages ?? 1000;
  if (!Number.isInteger(maxPages) || maxPages < 1) {
    throw new RangeError(`maxPages is ${maxPages} but must be a whole number of at least 1.`);
  }
  const firstOrigin = originOf(firstUrl);
  const pages: HttpResult[] = [];
  const visited = new Set<string>();
  let url = firstUrl;
  for (;;) {
    const label = client.redactSecret(`Page ${pages.length + 1} (${url})`);
    const offOrigin = originOf(url) !== firstOrigin;
    visited.add(withoutFragment(url));
    let page: HttpResult;
    try {
      page = await client.get(url, options.request);
    } catch (error) {
      if (offOrigin && error instanceof HttpError) {
        return {
          pages,
          problem: {
            kind: "off-origin",
            message: `${label} is on another origin than the first page and could not be fetched: ${error.message}`,
            exchange: error.exchange,
          },
        };
      }
      throw error;
    }
    visited.add(withoutFragment(page.url));
    const failure = pageFailure(page, label);
    if (failure !== undefined) {
      const problem: PageProblem = offOrigin
        ? {
            kind: "off-origin",
            message: `${label} is on another origin than the first page${page.exchange.keyWithheld ? ", was requested without the key" : ""} and failed: ${failure.message}`,
            exchange: page.exchange,
            result: page,
          }
        : { ...failure, exchange: page.exchange, result: page };
      return { pages, problem };
    }
    pages.push(page);
    const next = nextLink(page);
    if (next === undefined) return { pages };
    if (visited.has(withoutFragment(next))) {
      return {
        pages,
        problem: {
          kind: "loop",
          message: client.redactSecret(
            `${label} links rel="next" to ${next}, which was already read; the server's paging goes round in a loop.`,
          ),
          exchange: page.exchange,
        },
      };
    }
    if (pages.length >= maxPages) {
      return {
        pages,
        problem: {
          kind: "too-many-pages",
          message: client.redactSecret(
            `Reading stopped after ${maxPages} pages although ${label} links rel="next" to ${next}; narrow the query or allow more pages.`,
          ),
          exchange: page.exchange,
        },
      };
    }
    url = next;
  }
}
