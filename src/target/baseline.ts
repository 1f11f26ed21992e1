// The baseline: the events the target holds, as the harness knows them before any suite runs (ARCHITECTURE.md).
// Unfiltered first; on its refusal (413, or another 4xx: spec 7 shows no other status), eventTime windows bisected
// until each is answered; if windows are refused too, a crawl from --start-from through the resolver and the
// identifiers its events reach. Pages are read one at a time into a spool (baseline-file.ts), and each answer is
// bounded by a page budget: what the target serves costs the harness a bounded amount of memory and at most the
// budget of disk and time.

import type { Handover, HttpClient, HttpResult, PageBudget, PageResult } from "../http/index.ts";
import { readPages } from "../http/index.ts";
import { canonicalId, encodeQuery, eventIdentity, formatInstant, isDigitalLink } from "../model/index.ts";
import { classesOf, type EpcisEvent, type EventQuery, epcsOf } from "../model/types.ts";
import { type Baseline, type BaselineMethod, EventSpool, type SpoolOptions } from "./baseline-file.ts";
import { EPCIS_LINK, linksetEntries, linksOf } from "./linkset.ts";
import { identifierLinksetUrl, LINKSET_ACCEPT } from "./resolver.ts";

export interface DiscoveryOptions {
  eventsBase: string;
  resolverBase: string;
  startFrom?: string;
  /** Upper bound on requests spent discovering. */
  maxRequests?: number;
  /** What one answer may cost (--max-pages, --max-answer-bytes); src/http's defaults where absent. */
  budget?: Partial<PageBudget>;
  /** Where the events are spooled, and how many characters of them stay in memory (baseline-file.ts). */
  spool?: SpoolOptions;
  /**
   * The target's answer to the unfiltered GET /events (eventsBase + "/events", no options), when the caller asked
   * it already: discovery takes it as that query's first page rather than ask again.
   */
  unfilteredAnswer?: Handover<HttpResult>;
}

/** A baseline as discovery returns it: its events spooled, in memory up to a bound and on disk past it. */
export type DiscoveredBaseline = Omit<Baseline, "events"> & { events: EventSpool };

/** The events of a 2xx query document, or undefined when the body is not one. */
export function eventsOf(body: unknown): EpcisEvent[] | undefined {
  const b = body as {
    epcisBody?: { queryResults?: { resultsBody?: { eventList?: unknown } }; eventList?: unknown };
  };
  const list = b?.epcisBody?.queryResults?.resultsBody?.eventList ?? b?.epcisBody?.eventList;
  return Array.isArray(list) ? (list as EpcisEvent[]) : undefined;
}

type Outcome =
  | { kind: "events"; events: EventSpool }
  /** Refused before any page: with 413, or (`status`) another 4xx the caller may take as a refusal. */
  | { kind: "refused"; status: number }
  /**
   * The pages loop or leave the origin: the pages read until then are the target's own, and no more than it
   * holds, which pages that never end need not be.
   */
  | { kind: "misPaged"; message: string; events: EventSpool }
  | { kind: "failed"; message: string };

/**
 * Whether a status refuses the unfiltered query itself: spec 7 names 413 for a query too broad to run and shows no
 * other status, so a sender may refuse it with any 4xx. A refused key (401, 403) or a request to wait (429) is no
 * answer to the query, and time windows would meet it too.
 */
export function refusesUnfiltered(status: number): boolean {
  return status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429;
}

/**
 * Reads every page of one answer into a spool of its own, a page at a time. Only an answer read to its end is the
 * target's answer: the events of one that fails are dropped with its spool.
 */
async function fetchAll(
  client: HttpClient,
  opts: DiscoveryOptions,
  url: string,
  spool: SpoolOptions,
  firstAnswer?: Handover<HttpResult>,
  refusals: (status: number) => boolean = () => false,
): Promise<Outcome> {
  const staged = new EventSpool(spool);
  let failed: string | undefined;
  const read = await readPages(
    client,
    url,
    (page) => {
      const list = parseEvents(page);
      if (list === undefined) {
        failed = `${page.url} did not answer an EPCIS query document`;
        return false;
      }
      for (const e of list) staged.add(e);
      return true;
    },
    // Redirects followed, as every reading of GET /events does (events.ts).
    { ...opts.budget, request: { redirect: "follow" }, ...(firstAnswer ? { firstAnswer } : {}) },
  );
  if (read.problem === undefined && failed === undefined) return { kind: "events", events: staged };
  const kind = read.problem?.kind;
  if (kind === "loop" || kind === "off-origin") {
    return { kind: "misPaged", message: read.problem!.message, events: staged };
  }
  staged.clear();
  // A page that is not a 2xx answer is not handed over; it is the problem's result.
  const status = read.pages === 0 ? read.problem?.result?.status : undefined;
  if (status === 413 || (status !== undefined && refusals(status))) return { kind: "refused", status };
  return { kind: "failed", message: read.problem?.message ?? failed! };
}

function parseEvents(page: PageResult): EpcisEvent[] | undefined {
  try {
    return eventsOf(page.json());
  } catch {
    return undefined;
  }
}

function queryUrl(base: string, q: EventQuery): string {
  const qs = encodeQuery(q);
  return `${base}/events${qs ? `?${qs}` : ""}`;
}

/**
 * The baseline being gathered, its events in a spool. Nothing that grows with the events is held while an answer
 * is read, so an answer that never ends costs memory for one page: each answer is spooled apart, taken once read
 * whole, and its events kept once per identity when the answers are all in (dedupe). The crawl alone needs to
 * know as it goes which events are new, and keeps their identities (addNew).
 */
class Collected {
  readonly #ids = new Set<string>();
  #events: EventSpool;

  constructor(readonly spool: SpoolOptions) {
    this.#events = new EventSpool(spool);
  }

  get events(): EventSpool {
    return this.#events;
  }

  /** Events known to addNew. */
  get size(): number {
    return this.#ids.size;
  }

  /** Takes the events of an answer read whole, and clears its spool; the first answer's spool becomes this one. */
  take(answer: EventSpool): void {
    if (this.#events.length === 0 && this.#ids.size === 0) {
      this.#events.clear();
      this.#events = answer;
      return;
    }
    for (const e of answer) this.#events.add(e);
    answer.clear();
  }

  addNew(events: Iterable<EpcisEvent>): void {
    for (const e of events) {
      const id = eventIdentity(e);
      if (this.#ids.has(id)) continue;
      this.#ids.add(id);
      this.#events.add(e);
    }
  }

  /**
   * Keeps the first event of each identity, and returns the further copies; a spool without repeats is kept as it
   * is.
   */
  dedupe(): EpcisEvent[] {
    const ids = new Set<string>();
    let repeated = false;
    for (const e of this.#events) {
      const id = eventIdentity(e);
      if (ids.has(id)) {
        repeated = true;
        break;
      }
      ids.add(id);
    }
    if (!repeated) return [];
    ids.clear();
    const kept = new EventSpool(this.spool);
    const repeats: EpcisEvent[] = [];
    for (const e of this.#events) {
      const id = eventIdentity(e);
      if (ids.has(id)) {
        repeats.push(e);
        continue;
      }
      ids.add(id);
      kept.add(e);
    }
    this.#events.clear();
    this.#events = kept;
    return repeats;
  }

  clear(): void {
    this.#ids.clear();
    this.#events.clear();
  }
}

const MIN_SECONDS = -62135596800n; // 0001-01-01T00:00:00Z
// The last second with a four-digit year: a five-digit year is not a dateTimeStamp many servers parse.
const MAX_SECONDS = 253402300799n; // 9999-12-31T23:59:59Z

async function bisectWindows(
  client: HttpClient,
  opts: DiscoveryOptions,
  into: Collected,
  budget: { left: number },
) {
  const stack: [bigint, bigint][] = [[MIN_SECONDS, MAX_SECONDS]];
  while (stack.length > 0) {
    if (budget.left <= 0) return "budget" as const;
    const [lo, hi] = stack.pop()!;
    budget.left -= 1;
    const q: EventQuery = {
      GE_eventTime: formatInstant({ epochSeconds: lo, fraction: "" }),
      LT_eventTime: formatInstant({ epochSeconds: hi, fraction: "" }),
    };
    const outcome = await fetchAll(client, opts, queryUrl(opts.eventsBase, q), into.spool);
    if (outcome.kind === "events") {
      into.take(outcome.events);
      continue;
    }
    // A window that fails ends the windows, and what was taken is cleared with the rest.
    if (outcome.kind === "misPaged") outcome.events.clear();
    if (outcome.kind !== "refused") return outcome.message;
    if (hi - lo <= 1n) return "refused" as const;
    const mid = lo + (hi - lo) / 2n;
    stack.push([mid, hi], [lo, mid]);
  }
  return "done" as const;
}

/**
 * Identifiers an event leads to: the EPCs and classes a receiver would follow when tracing (spec 1), as the oracle
 * reads them (epcsOf, classesOf).
 */
export function identifiersOf(e: EpcisEvent): { epcs: string[]; classes: string[] } {
  return { epcs: epcsOf(e), classes: classesOf(e) };
}

/**
 * The epcis link of the identifier's link set, in any spelling of the link type (linksOf). A link without a query
 * string names the query interface itself (spec 1, step 2): it adds nothing to the crawl, which queries the
 * identifier anyway, so only a link that selects events is returned.
 */
async function epcisLinkFor(
  client: HttpClient,
  resolverBase: string,
  id: string,
): Promise<string | undefined> {
  const url = identifierLinksetUrl(resolverBase, isDigitalLink(id) ? id : canonicalId(id));
  const res = await client.get(url, { accept: LINKSET_ACCEPT });
  if (res.status !== 200) return undefined;
  try {
    for (const entry of linksetEntries(res.json())) {
      for (const link of linksOf(entry, EPCIS_LINK)) {
        if (URL.canParse(link.href) && new URL(link.href).search !== "") return link.href;
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** One answer of the crawl, or undefined when it cannot be read: the crawl skips it and goes on. */
async function crawlAnswer(
  client: HttpClient,
  opts: DiscoveryOptions,
  into: Collected,
  url: string,
): Promise<EventSpool | undefined> {
  const outcome = await fetchAll(client, opts, url, into.spool);
  if (outcome.kind === "events") return outcome.events;
  if (outcome.kind === "misPaged") outcome.events.clear();
  return undefined;
}

async function crawl(client: HttpClient, opts: DiscoveryOptions, into: Collected, budget: { left: number }) {
  const start = opts.startFrom!;
  const seen = new Set<string>();
  const queue: { kind: "epc" | "class"; id: string }[] = [];
  budget.left -= 1;
  const link =
    isDigitalLink(start) || canonicalId(start) !== start
      ? await epcisLinkFor(client, opts.resolverBase, start)
      : undefined;
  if (link) {
    budget.left -= 1;
    const first = await crawlAnswer(client, opts, into, link);
    if (first !== undefined) {
      into.addNew(first);
      first.clear();
    }
  }
  queue.push({ kind: "epc", id: start }, { kind: "class", id: start });
  const enqueueFrom = (events: Iterable<EpcisEvent>) => {
    for (const e of events) {
      const { epcs, classes } = identifiersOf(e);
      for (const id of epcs) queue.push({ kind: "epc", id });
      for (const id of classes) queue.push({ kind: "class", id });
    }
  };
  enqueueFrom(into.events);
  while (queue.length > 0 && budget.left > 0) {
    const next = queue.shift()!;
    const key = `${next.kind}:${canonicalId(next.id)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    budget.left -= 1;
    const q: EventQuery =
      next.kind === "epc" ? { MATCH_anyEPC: [next.id] } : { MATCH_anyEPCClass: [next.id] };
    const answer = await crawlAnswer(client, opts, into, queryUrl(opts.eventsBase, q));
    if (answer === undefined) continue;
    const before = into.size;
    into.addNew(answer);
    if (into.size > before) enqueueFrom(answer);
    answer.clear();
  }
  return queue.length === 0 ? "done" : "budget";
}

/**
 * The events the target holds, as far as it lets them be read. The events come back spooled; whoever takes the
 * baseline clears the spool (or names a folder it removes).
 */
export async function discoverBaseline(
  client: HttpClient,
  opts: DiscoveryOptions,
): Promise<DiscoveredBaseline> {
  const startCount = client.requestCount;
  const budget = { left: opts.maxRequests ?? 20_000 };
  const into = new Collected(opts.spool ?? {});
  const finish = (
    method: BaselineMethod,
    complete: boolean,
    note: string,
    repeats: EpcisEvent[] = [],
  ): DiscoveredBaseline => ({
    method,
    complete,
    note,
    events: into.events,
    ...(repeats.length > 0 ? { repeats } : {}),
    requests: client.requestCount - startCount,
  });

  const unfiltered = await fetchAll(
    client,
    opts,
    `${opts.eventsBase}/events`,
    into.spool,
    opts.unfilteredAnswer,
    refusesUnfiltered,
  );
  if (unfiltered.kind === "events") {
    into.take(unfiltered.events);
    const repeats = into.dedupe();
    return finish("unfiltered", true, "every event, from the unfiltered query", repeats);
  }
  if (unfiltered.kind === "misPaged") {
    // Paging that loops or leaves the origin is EVT-PAGING's to judge; the pages before it are the target's own
    // events, a part of them, so that the run goes on to judge the rest.
    into.take(unfiltered.events);
    // Pages that loop repeat events the repository need not hold twice: their repeats are not taken as copies.
    into.dedupe();
    const note = `the events of the unfiltered query's pages up to where its paging went wrong (${unfiltered.message})`;
    return finish("unfiltered", false, note);
  }
  if (unfiltered.kind === "failed") {
    return finish("none", false, `the unfiltered query failed: ${unfiltered.message}`);
  }
  // Windows are refused as too broad with 413 alone: another 4xx of a window may refuse a bound the harness
  // chose (a year as far as 0001 or 9999), which narrower windows would not mend.
  const windows = await bisectWindows(client, opts, into, budget);
  if (windows === "done") {
    // The windows do not overlap: an identity two of them answer, or one twice, is held more than once.
    const repeats = into.dedupe();
    return finish(
      "windows",
      true,
      `the unfiltered query was refused with ${unfiltered.status}; every event from eventTime windows`,
      repeats,
    );
  }
  into.clear();
  if (!opts.startFrom) {
    return finish(
      "none",
      false,
      "the target refuses broad queries and no --start-from was given: pass a product identifier to crawl from",
    );
  }
  const crawled = await crawl(client, opts, into, budget);
  return finish(
    "crawl",
    false,
    `broad queries and time windows were refused; ${into.size} events reached by crawling from ${opts.startFrom}` +
      (crawled === "budget" ? " (request budget spent before the crawl ended)" : ""),
  );
}
