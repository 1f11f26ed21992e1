// The baseline: the events the target holds, as the harness knows them before any suite runs (ARCHITECTURE.md).
// Unfiltered first; on 413, eventTime windows bisected until each is answered; if windows are refused too, a
// crawl from --start-from through the resolver and the identifiers its events reach.
import type { HttpClient, HttpResult } from "../http/index.ts";
import { followPages } from "../http/index.ts";
import {
  canonicalId,
  encodeQuery,
  eventIdentity,
  formatInstant,
  isDigitalLink,
  rebaseDigitalLink,
} from "../model/index.ts";
import type { EpcisEvent, EventQuery } from "../model/types.ts";
import { EPCIS_LINK, linksOf } from "./assertions/linkset.ts";

export type BaselineMethod = "unfiltered" | "windows" | "crawl" | "none";

export interface Baseline {
  method: BaselineMethod;
  complete: boolean;
  note: string;
  /** Events as the target serves them (recordTime included), one per identity. */
  events: EpcisEvent[];
  /** The events of --dataset, when given: what the target was loaded with. */
  datasetEvents?: EpcisEvent[];
  requests: number;
}

export interface DiscoveryOptions {
  eventsBase: string;
  resolverBase: string;
  startFrom?: string;
  /** Upper bound on requests spent discovering. */
  maxRequests?: number;
}

/** The events of a 2xx query document, or undefined when the body is not one. */
export function eventsOf(body: unknown): EpcisEvent[] | undefined {
  const b = body as {
    epcisBody?: { queryResults?: { resultsBody?: { eventList?: unknown } }; eventList?: unknown };
  };
  const list = b?.epcisBody?.queryResults?.resultsBody?.eventList ?? b?.epcisBody?.eventList;
  return Array.isArray(list) ? (list as EpcisEvent[]) : undefined;
}

type Outcome =
  | { kind: "events"; events: EpcisEvent[] }
  | { kind: "refused" }
  | { kind: "failed"; message: string };

async function fetchAll(client: HttpClient, url: string): Promise<Outcome> {
  const { pages, problem } = await followPages(client, url);
  // A page that is not a 2xx answer is not among the pages; it is the problem's result.
  const first = pages[0] ?? problem?.result;
  if (first && first.status === 413) return { kind: "refused" };
  if (problem) return { kind: "failed", message: problem.message };
  const events: EpcisEvent[] = [];
  for (const page of pages) {
    const list = parseEvents(page);
    if (!list) return { kind: "failed", message: `${page.url} did not answer an EPCIS query document` };
    events.push(...list);
  }
  return { kind: "events", events };
}

function parseEvents(page: HttpResult): EpcisEvent[] | undefined {
  if (page.status < 200 || page.status > 299) return undefined;
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

class Collected {
  readonly byId = new Map<string, EpcisEvent>();
  add(events: readonly EpcisEvent[]): void {
    for (const e of events) {
      const id = eventIdentity(e);
      if (!this.byId.has(id)) this.byId.set(id, e);
    }
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
    const outcome = await fetchAll(client, queryUrl(opts.eventsBase, q));
    if (outcome.kind === "events") {
      into.add(outcome.events);
      continue;
    }
    if (outcome.kind === "failed") return outcome.message;
    if (hi - lo <= 1n) return "refused" as const;
    const mid = lo + (hi - lo) / 2n;
    stack.push([mid, hi], [lo, mid]);
  }
  return "done" as const;
}

/** Identifiers an event leads to: the EPCs and classes a receiver would follow when tracing (spec 1). */
export function identifiersOf(e: EpcisEvent): { epcs: string[]; classes: string[] } {
  const epcs = [
    ...(e.epcList ?? []),
    ...(e.childEPCs ?? []),
    ...(e.inputEPCList ?? []),
    ...(e.outputEPCList ?? []),
  ];
  if (e.parentID) epcs.push(e.parentID);
  const classes = [
    ...(e.quantityList ?? []),
    ...(e.childQuantityList ?? []),
    ...(e.inputQuantityList ?? []),
    ...(e.outputQuantityList ?? []),
  ].map((q) => q.epcClass);
  return { epcs, classes };
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
  const dl = isDigitalLink(id)
    ? rebaseDigitalLink(id, resolverBase)
    : rebaseDigitalLink(canonicalId(id), resolverBase);
  const sep = dl.includes("?") ? "&" : "?";
  const res = await client.get(`${dl}${sep}linkType=linkset`, { accept: "application/linkset+json" });
  if (res.status !== 200) return undefined;
  try {
    const body = res.json<{ linkset?: unknown }>();
    const entries = Array.isArray(body.linkset) ? body.linkset : [];
    for (const entry of entries) {
      if (typeof entry !== "object" || entry === null) continue;
      for (const link of linksOf(entry as Record<string, unknown>, EPCIS_LINK)) {
        if (URL.canParse(link.href) && new URL(link.href).search !== "") return link.href;
      }
    }
  } catch {
    return undefined;
  }
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
    const first = await fetchAll(client, link);
    if (first.kind === "events") into.add(first.events);
  }
  queue.push({ kind: "epc", id: start }, { kind: "class", id: start });
  const enqueueFrom = (events: readonly EpcisEvent[]) => {
    for (const e of events) {
      const { epcs, classes } = identifiersOf(e);
      for (const id of epcs) queue.push({ kind: "epc", id });
      for (const id of classes) queue.push({ kind: "class", id });
    }
  };
  enqueueFrom([...into.byId.values()]);
  while (queue.length > 0 && budget.left > 0) {
    const next = queue.shift()!;
    const key = `${next.kind}:${canonicalId(next.id)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    budget.left -= 1;
    const q: EventQuery =
      next.kind === "epc" ? { MATCH_anyEPC: [next.id] } : { MATCH_anyEPCClass: [next.id] };
    const outcome = await fetchAll(client, queryUrl(opts.eventsBase, q));
    if (outcome.kind !== "events") continue;
    const before = into.byId.size;
    into.add(outcome.events);
    if (into.byId.size > before) enqueueFrom(outcome.events);
  }
  return queue.length === 0 ? "done" : "budget";
}

export async function discoverBaseline(client: HttpClient, opts: DiscoveryOptions): Promise<Baseline> {
  const startCount = client.requestCount;
  const budget = { left: opts.maxRequests ?? 20_000 };
  const into = new Collected();
  const finish = (method: BaselineMethod, complete: boolean, note: string): Baseline => ({
    method,
    complete,
    note,
    events: [...into.byId.values()],
    requests: client.requestCount - startCount,
  });

  const unfiltered = await fetchAll(client, `${opts.eventsBase}/events`);
  if (unfiltered.kind === "events") {
    into.add(unfiltered.events);
    return finish("unfiltered", true, "every event, from the unfiltered query");
  }
  if (unfiltered.kind === "failed") {
    return finish("none", false, `the unfiltered query failed: ${unfiltered.message}`);
  }
  const windows = await bisectWindows(client, opts, into, budget);
  if (windows === "done") {
    return finish(
      "windows",
      true,
      "the unfiltered query was refused with 413; every event from eventTime windows",
    );
  }
  into.byId.clear();
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
    `broad queries and time windows were refused; ${into.byId.size} events reached by crawling from ${opts.startFrom}` +
      (crawled === "budget" ? " (request budget spent before the crawl ended)" : ""),
  );
}
