import { createHash } from "node:crypto";
import type { HttpClient } from "./client.ts";
import { HttpError, JsonBodyError } from "./errors.ts";
import { parseLinkHeader } from "./link-header.ts";
import type { GetOptions } from "./options.ts";
import type { ExchangeRecord } from "./record.ts";
import { type BodyParser, type HttpResult, type PageResult, pageResult } from "./result.ts";

export type PageProblemKind =
  | "loop"
  | "off-origin"
  | "bad-status"
  | "too-many-pages"
  | "too-many-bytes"
  | "not-json";

export interface PageProblem {
  /** off-origin: a page linked on another origin than the first page's that could not be read. */
  kind: PageProblemKind;
  message: string;
  exchange: ExchangeRecord;
  /** The response that stopped the reading, for bad-status, not-json and an off-origin page that answered. */
  result?: HttpResult;
}

/**
 * What one answer may cost, whatever its pages say: the body cap bounds a page, this bounds their number and
 * their bytes, so that a target whose pages never end cannot hold the run (spec 8 shows no page size).
 */
export interface PageBudget {
  /** Pages read before giving up. */
  maxPages: number;
  /** Body bytes read, summed over the pages, before giving up; the page that crosses it is the last read. */
  maxBytes: number;
}

/**
 * Far beyond an honest answer: 10,000,000 events paged at 100 is 100,000 pages, and at some 1,700 bytes an
 * event (a generated one is about 700 bytes compact) 16 GiB.
 */
export const DEFAULT_PAGE_BUDGET: Readonly<PageBudget> = { maxPages: 1_000_000, maxBytes: 16 * 1024 ** 3 };

export interface FollowPagesOptions extends Partial<PageBudget> {
  /** Passed to every request. */
  request?: GetOptions;
  /**
   * Asked of each 2xx page before its body is parsed: false stops the reading there (`stopped`), the page not
   * handed over, so that a caller can refuse a page it would not hold.
   */
  admit?: (response: HttpResult, pagesRead: number) => boolean;
  /**
   * The most body bytes the next page may have and still be admitted: the page is read only one byte past it
   * (truncated there), so that a page admit would refuse is never held whole. Default: the client's body cap.
   */
  pageRoom?: () => number;
  /**
   * The first URL's response when the caller has it already, got with the same request options: it is taken and
   * read as the first page instead of asking the target a second time.
   */
  firstAnswer?: Handover<HttpResult>;
  /** Parses each page's body instead of JSON.parse: what it gives and throws must be what JSON.parse would. */
  parse?: BodyParser;
}

/**
 * A value handed over once: the first take gets it, and nothing holds it after, however long the objects that
 * carried it live (an answer handed to discovery is a page, which may be large).
 */
export class Handover<T> {
  #value: T | undefined;

  constructor(value: T) {
    this.#value = value;
  }

  take(): T | undefined {
    const value = this.#value;
    this.#value = undefined;
    return value;
  }
}

export interface PagesResult {
  /** The pages read in order, each a 2xx JSON response; a page that stopped the reading is not among them. */
  pages: PageResult[];
  problem?: PageProblem;
}

export interface PagesRead {
  /** How many pages were handed over. */
  pages: number;
  /** Their body bytes. */
  bytes: number;
  problem?: PageProblem;
  /** onPage asked to stop: the caller has its own reason, and the pages after are not read. */
  stopped?: true;
}

export type PageClient = Pick<HttpClient, "get" | "redactSecret">;

/** What onPage answers: false to stop reading, anything else to go on. */
export type PageVerdict = boolean | undefined;

/**
 * A fixed-size key for a URL read: a target can make its next links as long as it likes. Only an answer that
 * links a next page asks for keys.
 */
function visitKey(url: string): string {
  const hash = url.indexOf("#");
  return createHash("sha256")
    .update(hash === -1 ? url : url.slice(0, hash))
    .digest("base64");
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

/** The page a response makes, or why it cannot be used. */
function usablePage(
  response: HttpResult,
  label: () => string,
  parse: BodyParser | undefined,
): { page: PageResult } | { kind: PageProblemKind; message: string } {
  if (response.status < 200 || response.status > 299) {
    return {
      kind: "bad-status",
      message: `${label()} answered status ${response.status}, so the result set is incomplete.`,
    };
  }
  try {
    return { page: pageResult(response, parse) };
  } catch (error) {
    if (!(error instanceof JsonBodyError)) throw error;
    return { kind: "not-json", message: error.message };
  }
}

function budgetOf(options: FollowPagesOptions): PageBudget {
  const budget = {
    maxPages: options.maxPages ?? DEFAULT_PAGE_BUDGET.maxPages,
    maxBytes: options.maxBytes ?? DEFAULT_PAGE_BUDGET.maxBytes,
  };
  for (const [name, value] of Object.entries(budget)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`${name} is ${value} but must be a whole number of at least 1.`);
    }
  }
  return budget;
}

/**
 * Reads a result set that may be split across pages, the first URL then each Link rel="next" until a page has
 * none, handing each page to `onPage` as it arrives and keeping none, so that an answer of any length costs one
 * page of memory; `onPage` returns false to stop there. Stops at the first problem and reports it; a network
 * failure on the first origin is thrown as the HttpError it is.
 *
 * A next link may lead to another origin than the first page's: spec 4.1 shows no paging and states no rule that
 * keeps an answer's pages on one origin, so the page there is read and taken like any other, and judged on what it
 * holds. It is asked without the key, which the client sends only to the target's own origins; a page there that
 * cannot be read stops the reading as off-origin, naming the origin it left.
 */
export async function readPages(
  client: PageClient,
  firstUrl: string,
  onPage: (page: PageResult) => PageVerdict | Promise<PageVerdict>,
  options: FollowPagesOptions = {},
): Promise<PagesRead> {
  const { maxPages, maxBytes } = budgetOf(options);
  const visited = new Set<string>();
  let pages = 0;
  let bytes = 0;
  /** Set by the first page: the origin that answered it, after any redirect followed. */
  let home: string | undefined;
  let url = firstUrl;
  const stop = (problem: PageProblem): PagesRead => ({ pages, bytes, problem });
  for (;;) {
    // What the page is called in a problem: most pages have none, and these are built only for one.
    const requested = url;
    const number = pages + 1;
    const label = () => client.redactSecret(`Page ${number} (${requested})`);
    const leaves = (at: string) => home !== undefined && originOf(at) !== home;
    const away = () =>
      client.redactSecret(
        `${label()}, linked rel="next" from page ${number - 1}, is on another origin than the first page (${home})`,
      );
    let response: HttpResult;
    try {
      const room = options.pageRoom?.();
      response =
        (number === 1 ? options.firstAnswer?.take() : undefined) ??
        (await client.get(
          url,
          room === undefined ? options.request : { ...options.request, maxBodyBytes: Math.max(0, room) + 1 },
        ));
    } catch (error) {
      if (leaves(url) && error instanceof HttpError) {
        return stop({
          kind: "off-origin",
          message: `${away()} and could not be fetched: ${error.message}`,
          exchange: error.exchange,
        });
      }
      throw error;
    }
    const ok = response.status >= 200 && response.status <= 299;
    if (ok && options.admit?.(response, pages) === false) return { pages, bytes, stopped: true };
    const usable = usablePage(response, label, options.parse);
    if (!("page" in usable)) {
      if (leaves(url) || leaves(response.url)) {
        const withheld = response.exchange.keyWithheld ? ", was requested without the key" : "";
        return stop({
          kind: "off-origin",
          message: `${away()}${withheld} and failed: ${usable.message}`,
          exchange: response.exchange,
          result: response,
        });
      }
      return stop({ ...usable, exchange: response.exchange, result: response });
    }
    home ??= originOf(response.url);
    const { page } = usable;
    pages += 1;
    bytes += page.bodyBytes;
    if ((await onPage(page)) === false) return { pages, bytes, stopped: true };
    const next = nextLink(response);
    if (next === undefined) return { pages, bytes };
    visited.add(visitKey(url));
    if (response.url !== url) visited.add(visitKey(response.url));
    const linked = client.redactSecret(`${label()} links rel="next" to ${next}`);
    if (visited.has(visitKey(next))) {
      return stop({
        kind: "loop",
        message: `${linked}, which was already read; the server's paging goes round in a loop.`,
        exchange: page.exchange,
      });
    }
    if (pages >= maxPages) {
      return stop({
        kind: "too-many-pages",
        message: `Reading stopped after ${pages} pages, the most one answer may take (--max-pages ${maxPages}), although ${linked}; if the answer truly has more pages, raise --max-pages.`,
        exchange: page.exchange,
      });
    }
    if (bytes >= maxBytes) {
      return stop({
        kind: "too-many-bytes",
        message: `Reading stopped after ${pages} pages of ${bytes} bytes, the most one answer may take (--max-answer-bytes ${maxBytes}), although ${linked}; if the answer truly is larger, raise --max-answer-bytes.`,
        exchange: page.exchange,
      });
    }
    url = next;
  }
}

/** readPages keeping every page: for answers read whole before they are judged. */
export async function followPages(
  client: PageClient,
  firstUrl: string,
  options: FollowPagesOptions = {},
): Promise<PagesResult> {
  const pages: PageResult[] = [];
  const { problem } = await readPages(client, firstUrl, (page) => void pages.push(page), options);
  return problem === undefined ? { pages } : { pages, problem };
}
