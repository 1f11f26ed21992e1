// Loading a target through its EPCIS 2.0 capture interface (REST binding: POST /capture answered 202 with the
// capture job's URL in Location, the job followed until `running` is false), so that a pipeline can load a
// staging server with the fixture dataset and then judge it against that dataset. The spec asks no sender for
// a capture interface (spec 1: "the only EPCIS method required is GET /events"); this is a convenience for
// targets that have one, never a requirement. Master data and link sets are not captured: the resolver serves
// them.
import { setTimeout as delay } from "node:timers/promises";
import { generateDataset, readDatasetFile } from "../generate/index.ts";
import { followPages, type HttpClient, HttpError, type HttpResult } from "../http/index.ts";
import { EPCIS_CONTEXT_URL, type EpcisEvent, EXTENSION_PREFIXES, eventIdentity } from "../model/index.ts";
import { discoverBaseline, eventsOf } from "./baseline.ts";

/** What one capture request may hold, as the target announces it; absent: not announced. */
export interface CaptureLimits {
  /** GS1-EPCIS-Capture-Limit: events per request. */
  events?: number;
  /** GS1-EPCIS-Capture-File-Size-Limit: bytes of the request body. */
  bytes?: number;
}

export interface LoadOptions {
  eventsBase: string;
  resolverBase?: string;
  /** Where discovery starts when the target refuses broad queries (as --start-from for a run). */
  startFrom?: string;
  events: readonly EpcisEvent[];
  /** Longest wait for one capture job to finish. Default: ten minutes. */
  jobWaitMs?: number;
  /** Progress for a person. */
  note?: (line: string) => void;
  signal?: AbortSignal;
}

export type LoadOutcome =
  | {
      ok: true;
      /** Events captured now. */
      captured: number;
      /** Events of the dataset the target held already, which were not captured again. */
      alreadyHeld: number;
      /** Capture requests accepted. */
      requests: number;
      /** The limits the batches kept to, as announced or as a 413 taught them. */
      limits: CaptureLimits;
    }
  | { ok: false; reason: string };

/** A limit the target gave when none was announced: the binding's own example of a capture limit. */
const FALLBACK_EVENTS_PER_REQUEST = 500;
const DEFAULT_JOB_WAIT_MS = 10 * 60 * 1000;
const FIRST_POLL_MS = 50;
const LONGEST_POLL_MS = 2000;
/** Event ids asked for in one GET /events?EQ_eventID=… when the target's events cannot be read whole. */
const IDS_PER_LOOKUP = 50;

class LoadProblem extends Error {}

/** A positive whole number from a header value, else undefined. */
function limitOf(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The limits a response names in GS1-EPCIS-Capture-Limit and GS1-EPCIS-Capture-File-Size-Limit. */
export function limitsFrom(headers: Record<string, string>): CaptureLimits {
  const limits: CaptureLimits = {};
  const events = limitOf(headers["gs1-epcis-capture-limit"]);
  const bytes = limitOf(headers["gs1-epcis-capture-file-size-limit"]);
  if (events !== undefined) limits.events = events;
  if (bytes !== undefined) limits.bytes = bytes;
  return limits;
}

/**
 * How many events from `from` go in the next request: as many as both limits allow, at least one. Undefined when
 * the single next event is already larger than the byte limit.
 */
export function nextBatchSize(
  eventBytes: readonly number[],
  from: number,
  limits: CaptureLimits,
  shellBytes: number,
): number | undefined {
  const most = limits.events ?? FALLBACK_EVENTS_PER_REQUEST;
  let count = 0;
  let bytes = shellBytes;
  while (from + count < eventBytes.length && count < most) {
    const add = (eventBytes[from + count] as number) + (count > 0 ? 1 : 0);
    if (limits.bytes !== undefined && bytes + add > limits.bytes) break;
    bytes += add;
    count += 1;
  }
  return count === 0 ? undefined : count;
}

/**
 * The limits to keep after a 413 to a request of `sent` events and `sentBytes` bytes: those the answer names
 * where they are tighter than what was sent, else half as many events. Undefined when a single event was refused
 * and the answer teaches nothing more.
 */
export function limitsAfter413(
  limits: CaptureLimits,
  told: CaptureLimits,
  sent: number,
  sentBytes: number,
): CaptureLimits | undefined {
  const next: CaptureLimits = { ...limits };
  let learned = false;
  if (told.events !== undefined && told.events < sent) {
    next.events = told.events;
    learned = true;
  }
  if (told.bytes !== undefined && told.bytes < sentBytes) {
    next.bytes = told.bytes;
    learned = true;
  }
  if (learned) return next;
  if (sent <= 1) return undefined;
  return { ...next, events: Math.floor(sent / 2) };
}

/** The text of an EPCISDocument around its event list: the events go between `before` and `after`. */
function documentShell(): { before: string; after: string } {
  const marker = "\u0000events\u0000";
  const text = JSON.stringify({
    "@context": [EPCIS_CONTEXT_URL, { ...EXTENSION_PREFIXES }],
    type: "EPCISDocument",
    schemaVersion: "2.0",
    creationDate: new Date().toISOString(),
    epcisBody: { eventList: marker },
  });
  const quoted = JSON.stringify(marker);
  const at = text.indexOf(quoted);
  return { before: `${text.slice(0, at)}[`, after: `]${text.slice(at + quoted.length)}` };
}

/** A refusal's own words, from an RFC 7807 body (title, detail), when it has them. */
function problemWords(result: HttpResult): string {
  try {
    const body = result.json<{ title?: unknown; detail?: unknown }>();
    const words = [body.title, body.detail].filter((w) => typeof w === "string" && w !== "");
    return words.length > 0 ? `: ${words.join(" — ")}` : "";
  } catch {
    return "";
  }
}

/**
 * The identities of the given events that the target holds already: every event it serves when its events can be
 * read whole (as a run discovers them), else a lookup by eventID. Throws LoadProblem when neither tells.
 */
async function heldAlready(
  client: HttpClient,
  opts: LoadOptions,
  wanted: ReadonlyMap<string, EpcisEvent>,
): Promise<Set<string>> {
  const found = await discoverBaseline(client, {
    eventsBase: opts.eventsBase,
    resolverBase: opts.resolverBase ?? opts.eventsBase,
    ...(opts.startFrom !== undefined ? { startFrom: opts.startFrom } : {}),
  });
  const held = new Set<string>();
  for (const e of found.events) {
    const id = eventIdentity(e);
    if (wanted.has(id)) held.add(id);
  }
  if (found.complete) return held;
  const unknown = [...wanted.keys()].filter((id) => !held.has(id));
  if (unknown.some((id) => id.startsWith("hash:"))) {
    throw new LoadProblem(
      `cannot tell which events ${opts.eventsBase} holds already (${found.note}), and events without an eventID cannot be looked up; load a target that answers GET /events unfiltered.`,
    );
  }
  for (let at = 0; at < unknown.length; at += IDS_PER_LOOKUP) {
    const ids = unknown.slice(at, at + IDS_PER_LOOKUP);
    // EQ_eventID is an EPCIS 2.0 query parameter; its values are pipe-joined as spec 4.1 rule 1 does for a list.
    const url = `${opts.eventsBase}/events?EQ_eventID=${ids.map(encodeURIComponent).join("%7C")}`;
    const { pages, problem } = await followPages(client, url);
    const answered = problem === undefined && pages.length > 0 ? pages.map((p) => eventsOf(p.json())) : [];
    if (answered.length === 0 || answered.some((list) => list === undefined)) {
      throw new LoadProblem(
        `cannot tell which events ${opts.eventsBase} holds already: ${found.note}, and GET /events?EQ_eventID=… ${problem ? `failed (${problem.message})` : "answered no query document"}; load a target that answers GET /events unfiltered.`,
      );
    }
    const asked = new Set(ids);
    for (const list of answered) {
      for (const e of list ?? []) if (asked.has(eventIdentity(e))) held.add(eventIdentity(e));
    }
  }
  return held;
}

/** Follows a capture job until it is no longer running; throws LoadProblem when it failed or never ended. */
async function followJob(
  client: HttpClient,
  jobUrl: string,
  waitMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + waitMs;
  let pause = FIRST_POLL_MS;
  for (;;) {
    const answer = await client.get(jobUrl, { accept: "application/json" });
    if (answer.status < 200 || answer.status > 299) {
      throw new LoadProblem(
        `the capture job ${client.redactSecret(jobUrl)} answered ${answer.status}${problemWords(answer)}; check the target's capture jobs.`,
      );
    }
    let job: { running?: unknown; success?: unknown; errors?: unknown; errorFile?: unknown };
    try {
      job = answer.json();
    } catch {
      throw new LoadProblem(
        `the capture job ${client.redactSecret(jobUrl)} answered no JSON capture job document; check the target's capture jobs.`,
      );
    }
    if (job.running !== true) {
      if (job.success === false) throw new LoadProblem(jobFailure(client, jobUrl, job));
      return;
    }
    if (signal?.aborted) throw new LoadProblem(`interrupted by ${String(signal.reason)} while capturing`);
    if (Date.now() + pause > deadline) {
      throw new LoadProblem(
        `the capture job ${client.redactSecret(jobUrl)} was still running after ${Math.round(waitMs / 1000)} s; check the target, then load again (events already captured are not sent twice).`,
      );
    }
    await delay(pause);
    pause = Math.min(pause * 2, LONGEST_POLL_MS);
  }
}

function refusedKey(opts: LoadOptions, method: string, status: number): string {
  return `${opts.eventsBase} refused the key (${method} /capture answered ${status}); pass a key that may capture with --api-key or TRACECHECK_API_KEY.`;
}

function jobFailure(
  client: HttpClient,
  jobUrl: string,
  job: { errors?: unknown; errorFile?: unknown },
): string {
  const errors = Array.isArray(job.errors) ? job.errors : [];
  const first = errors[0] as { title?: unknown; detail?: unknown } | undefined;
  const said = [first?.title, first?.detail].filter((w) => typeof w === "string" && w !== "").join(" — ");
  const where =
    said !== ""
      ? `${errors.length} error(s), the first: ${said}`
      : typeof job.errorFile === "string"
        ? `its errors are in ${job.errorFile}`
        : "it names no error";
  return client.redactSecret(
    `the capture job ${jobUrl} failed (${where}); fix what it names in the dataset or the target, then load again.`,
  );
}

/**
 * Captures the events the target does not hold yet, in requests that keep to its capture limits, each followed
 * to the end of its capture job. Every sentence it returns says what happened and what to do.
 */
export async function loadByCapture(client: HttpClient, opts: LoadOptions): Promise<LoadOutcome> {
  const captureUrl = `${opts.eventsBase}/capture`;
  const note = opts.note ?? (() => {});
  try {
    // OPTIONS /capture announces the limits (REST binding); a target that does not answer it may still capture.
    const announced = await client.options(captureUrl, { accept: "application/json" });
    if (announced.status === 401 || announced.status === 403)
      throw new LoadProblem(refusedKey(opts, "OPTIONS", announced.status));
    let limits = announced.status >= 200 && announced.status < 300 ? limitsFrom(announced.headers) : {};

    const wanted = new Map<string, EpcisEvent>();
    for (const e of opts.events) wanted.set(eventIdentity(e), e);
    note(`checking which of the ${wanted.size} events ${opts.eventsBase} holds already…`);
    const held = await heldAlready(client, opts, wanted);
    const pending = [...wanted].filter(([id]) => !held.has(id)).map(([, e]) => e);
    const texts = pending.map((e) => JSON.stringify(e));
    const eventBytes = texts.map((t) => Buffer.byteLength(t));
    const shell = documentShell();
    const shellBytes = Buffer.byteLength(shell.before) + Buffer.byteLength(shell.after);

    let at = 0;
    let requests = 0;
    while (at < texts.length) {
      if (opts.signal?.aborted)
        throw new LoadProblem(`interrupted by ${String(opts.signal.reason)} while capturing`);
      const count = nextBatchSize(eventBytes, at, limits, shellBytes);
      if (count === undefined) {
        throw new LoadProblem(
          `an event of ${eventBytes[at]} bytes does not fit the target's capture limit of ${limits.bytes} bytes a request; raise GS1-EPCIS-Capture-File-Size-Limit on the target.`,
        );
      }
      const body = `${shell.before}${texts.slice(at, at + count).join(",")}${shell.after}`;
      const answer = await client.post(captureUrl, body, { accept: "application/json" });
      if (answer.status === 413) {
        const next = limitsAfter413(limits, limitsFrom(answer.headers), count, Buffer.byteLength(body));
        if (next === undefined) {
          throw new LoadProblem(
            `${captureUrl} refused even a single event as too large (413${problemWords(answer)}); raise the target's capture limits.`,
          );
        }
        limits = next;
        continue;
      }
      if (answer.status === 404 || answer.status === 405 || answer.status === 501) {
        throw new LoadProblem(
          `${opts.eventsBase} has no EPCIS capture interface (POST /capture answered ${answer.status}); load the dataset the target's own way and run with --dataset instead of --load capture.`,
        );
      }
      if (answer.status === 401 || answer.status === 403)
        throw new LoadProblem(refusedKey(opts, "POST", answer.status));
      if (answer.status < 200 || answer.status > 299) {
        throw new LoadProblem(
          `POST ${captureUrl} answered ${answer.status}${problemWords(answer)}; check the dataset and the target's capture interface.`,
        );
      }
      const location = answer.headers["location"];
      // A capture answered 202 runs on as a job; a 2xx without a job finished with the answer.
      if (location !== undefined && location !== "") {
        await followJob(
          client,
          new URL(location, captureUrl).href,
          opts.jobWaitMs ?? DEFAULT_JOB_WAIT_MS,
          opts.signal,
        );
      } else if (answer.status === 202) {
        throw new LoadProblem(
          `POST ${captureUrl} answered 202 without a Location header, so the capture job cannot be followed; the EPCIS 2.0 REST binding names the job there.`,
        );
      }
      requests += 1;
      at += count;
      note(`captured ${at} of ${texts.length} events`);
    }
    return { ok: true, captured: texts.length, alreadyHeld: held.size, requests, limits };
  } catch (err) {
    if (err instanceof LoadProblem) return { ok: false, reason: client.redactSecret(err.message) };
    if (err instanceof HttpError) {
      return {
        ok: false,
        reason: `loading ${opts.eventsBase} by capture stopped (${err.message.replace(/\.$/, "")}).`,
      };
    }
    throw err;
  }
}

/**
 * `tracecheck run --load capture`: the dataset (--dataset, else the one --seed and --events generate) captured
 * into the target before the run. Returns its events, the baseline the run judges against, or why it could not.
 */
export async function loadForRun(
  client: HttpClient,
  opts: { dataset?: string; seed: number; embeddedEvents: number; startFrom?: string; quiet: boolean },
  where: { eventsBase: string; resolverBase: string; note: (line: string) => void; signal?: AbortSignal },
): Promise<EpcisEvent[] | string> {
  const dataset = opts.dataset
    ? await readDatasetFile(opts.dataset)
    : generateDataset({ seed: opts.seed, events: opts.embeddedEvents });
  const outcome = await loadByCapture(client, {
    eventsBase: where.eventsBase,
    resolverBase: where.resolverBase,
    events: dataset.events,
    ...(opts.startFrom !== undefined ? { startFrom: opts.startFrom } : {}),
    ...(where.signal !== undefined ? { signal: where.signal } : {}),
    ...(opts.quiet ? {} : { note: (line: string) => where.note(`tracecheck: ${line}`) }),
  });
  if (!outcome.ok) return outcome.reason;
  if (!opts.quiet) where.note(`tracecheck: ${loadSummary(outcome)}`);
  return dataset.events;
}

/** One line on what a load did. */
export function loadSummary(outcome: Extract<LoadOutcome, { ok: true }>): string {
  const limits = [
    outcome.limits.events !== undefined ? `${outcome.limits.events} events` : undefined,
    outcome.limits.bytes !== undefined ? `${outcome.limits.bytes} bytes` : undefined,
  ].filter(Boolean);
  if (outcome.captured === 0) {
    return `captured nothing: the target holds all ${outcome.alreadyHeld} events of the dataset already`;
  }
  return (
    `captured ${outcome.captured} events in ${outcome.requests} request(s)` +
    (limits.length > 0 ? ` (capture limit ${limits.join(", ")} a request)` : "") +
    (outcome.alreadyHeld > 0 ? `; ${outcome.alreadyHeld} held already were not sent again` : "")
  );
}
