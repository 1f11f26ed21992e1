// Fetching events as a receiver: every page of an answer (Link rel="next"), and a query refused with 413 (spec 4.1
// rule 4, spec 7) narrowed until the sender answers: first fewer values per query, then eventTime windows in UTC,
// halved until each is answered. The spec names no threshold (spec 8), so narrowing goes as far as one
// nanosecond before a part is given up.
import { type FollowPagesOptions, followPages, type HttpClient, HttpError } from "../http/index.ts";
import { type EpcisEvent, type EventQuery, parseInstant, parseQueryString } from "../model/index.ts";
import { listParameters, nanosecondsOf, queryString, timeBound } from "./wire.ts";

/** The window a query without eventTime bounds is split over: from 1970 to a day after now. */
const EARLIEST_NS = 0n;
const DAY_NS = 86_400n * 1_000_000_000n;

export interface EventFetcher {
  client: HttpClient;
  faults: ReadonlySet<string>;
  /** What the sender's answers hold so far; each event is handed here as it arrives. */
  take(events: readonly EpcisEvent[]): void;
  /** Records a part of the trace that could not be fetched, in one sentence. */
  gap(reason: string): void;
  /** Options of every request: the key in the URL instead of the header, for the key-in-query fault. */
  withKey(url: string): { url: string; options: FollowPagesOptions };
}

type Answer = { kind: "events" } | { kind: "refused" } | { kind: "failed"; reason: string };

function eventsOf(doc: unknown): EpcisEvent[] {
  const body = (doc as { epcisBody?: Record<string, unknown> } | undefined)?.epcisBody;
  const results = body?.queryResults as { resultsBody?: { eventList?: unknown } } | undefined;
  const list = results?.resultsBody?.eventList ?? body?.eventList;
  return Array.isArray(list) ? (list as EpcisEvent[]) : [];
}

/** Reads every page of one answer (only the first under the ignore-paging fault) into the fetcher. */
async function readAnswer(f: EventFetcher, url: string): Promise<Answer> {
  const { url: sent, options: keyed } = f.withKey(url);
  // A sender may redirect GET /events (HTTP following REST, spec 1): the receiver follows, as the harness does.
  const options = { ...keyed, request: { ...keyed.request, redirect: "follow" as const } };
  const ignorePaging = f.faults.has("ignore-paging");
  let read: Awaited<ReturnType<typeof followPages>>;
  try {
    read = await followPages(f.client, sent, ignorePaging ? { ...options, maxPages: 1 } : options);
  } catch (error) {
    if (error instanceof HttpError) return { kind: "failed", reason: error.message };
    throw error;
  }
  for (const page of read.pages) f.take(eventsOf(page.json()));
  const problem = read.problem;
  if (problem === undefined || (ignorePaging && problem.kind === "too-many-pages")) return { kind: "events" };
  if (problem.kind === "bad-status" && problem.result?.status === 413 && read.pages.length === 0) {
    return { kind: "refused" };
  }
  return { kind: "failed", reason: problem.message };
}

function windowOf(q: EventQuery): [bigint, bigint] {
  const ge = q.GE_eventTime === undefined ? EARLIEST_NS : nanosecondsOf(parseInstant(q.GE_eventTime));
  const lt =
    q.LT_eventTime === undefined
      ? BigInt(Date.now()) * 1_000_000n + DAY_NS
      : nanosecondsOf(parseInstant(q.LT_eventTime));
  return [ge, lt];
}

/** The query cut in two, or undefined when it cannot be narrowed further. */
function halves(q: EventQuery, faults: ReadonlySet<string>): [EventQuery, EventQuery] | undefined {
  const widest = listParameters(q)
    .map((p) => ({ p, values: q[p] ?? [] }))
    .sort((a, b) => b.values.length - a.values.length)[0];
  if (widest !== undefined && widest.values.length > 1) {
    const cut = Math.ceil(widest.values.length / 2);
    return [
      { ...q, [widest.p]: widest.values.slice(0, cut) },
      { ...q, [widest.p]: widest.values.slice(cut) },
    ];
  }
  const [ge, lt] = windowOf(q);
  if (lt - ge <= 1n) return undefined;
  const mid = ge + (lt - ge) / 2n;
  return [
    { ...q, GE_eventTime: timeBound(ge, faults), LT_eventTime: timeBound(mid, faults) },
    { ...q, GE_eventTime: timeBound(mid, faults), LT_eventTime: timeBound(lt, faults) },
  ];
}

/** Fetches the answer of `q` at the query interface `iface` ({base}/events), narrowing it while it is refused. */
export async function fetchQuery(f: EventFetcher, iface: string, q: EventQuery): Promise<void> {
  const url = `${iface}?${queryString(q, f.faults)}`;
  const answer = await readAnswer(f, url);
  if (answer.kind === "events") return;
  if (answer.kind === "failed") {
    f.gap(answer.reason);
    return;
  }
  await narrow(f, iface, q, url);
}

async function narrow(f: EventFetcher, iface: string, q: EventQuery, refusedUrl: string): Promise<void> {
  if (f.faults.has("give-up-413")) {
    f.gap(`${f.client.redactSecret(refusedUrl)} was refused with 413 and not narrowed.`);
    return;
  }
  const parts = halves(q, f.faults);
  if (parts === undefined) {
    f.gap(
      `${f.client.redactSecret(refusedUrl)} was refused with 413 although it asks one value in a window of one nanosecond; the sender answers nothing narrower.`,
    );
    return;
  }
  for (const part of parts) await fetchQuery(f, iface, part);
}

/**
 * Fetches an epcis link as the sender wrote it; when refused with 413, its query is narrowed like any other, as
 * long as it holds only the parameters of spec 4.1.
 */
export async function fetchLink(f: EventFetcher, href: string): Promise<void> {
  const answer = await readAnswer(f, href);
  if (answer.kind === "events") return;
  if (answer.kind === "failed") {
    f.gap(answer.reason);
    return;
  }
  const mark = href.indexOf("?");
  const parsed = parseQueryString(mark < 0 ? "" : href.slice(mark + 1));
  if (parsed.unknown.length > 0 || parsed.repeated.length > 0) {
    f.gap(
      `${f.client.redactSecret(href)} was refused with 413 and holds parameters this receiver cannot narrow.`,
    );
    return;
  }
  await narrow(f, mark < 0 ? href : href.slice(0, mark), parsed.query, href);
}
