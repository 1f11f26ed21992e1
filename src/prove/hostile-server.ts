// A hostile target: a proxy in front of the reference sender that misbehaves, on the requests it is told to, in
// the ways real servers break. Requests outside the chosen scope are answered by the reference unchanged, so a
// run can show that it reports the broken requirements and still checks the rest. A second server on another
// origin records what reaches it, to show that the key never leaves the target's origin.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { request } from "undici";
import { generateDataset } from "../generate/index.ts";
import { type RunningReference, startReference } from "../reference/index.ts";
import { ownIdentifiers } from "../reference/resolver/own.ts";

export const MISBEHAVIOURS = [
  "silent",
  "trickle",
  "huge-body",
  "invalid-json",
  "wrong-content-type",
  "reset",
  "redirect-loop",
  "redirect-off-origin",
  "status-500",
  "status-429",
  "linkset-off-origin",
  "linkset-unreachable",
  "paging-loop",
  "paging-off-origin",
  "html-body",
  "slow-headers",
  "endless-pages",
  "endless-large-pages",
] as const;
export type Misbehaviour = (typeof MISBEHAVIOURS)[number];

/**
 * Which requests misbehave: every request; every GET /events; only filtered GET /events (so that discovery,
 * which starts unfiltered, still works); only those filtering by MATCH_anyEPC (so that a slow misbehaviour
 * costs a few checks their time, not all); only the resolver and master data; or every request but the unfiltered
 * GET /events by which a run discovers what the target holds, so that every other kind of request meets it.
 */
export type Scope = "all" | "events" | "filtered" | "epc" | "resolver" | "all-but-discovery";

/** What a huge body grows to when nobody stops reading it. */
export const HUGE_BODY_BYTES = 1024 ** 3;
const HUGE_CHUNK = Buffer.alloc(64 * 1024, 0x20);
const TRICKLE_INTERVAL_MS = 1000;
const RETRY_AFTER_SECONDS = 1;
/** How long a slow-headers answer keeps the client waiting for its status line: past any timeout a test sets. */
const SLOW_HEADERS_MS = 30_000;
/** Marks the second page of a paging loop; stripped before the request reaches the reference. */
const LOOP_MARK = "hostile-page";
/** Numbers the pages of an answer that never ends; stripped before the request reaches the reference. */
const PAGE_MARK = "hostile-next";
/** The size of each page of endless-large-pages unless told: what a target was seen to send. */
export const LARGE_PAGE_BYTES = 15 * 1024 * 1024;

export interface Received {
  path: string;
  /** The X-API-Key value, or undefined when the request had none. */
  key: string | undefined;
  /** Every header value, joined, so that a key hidden in any header can be found. */
  headerText: string;
}

export interface Recorder {
  origin: string;
  received: Received[];
}

export interface HostileTarget {
  /** The target's base: events at {origin}/events, resolver at {origin}/01/…. */
  origin: string;
  /** Another origin, which answers 404 to everything and records what reached it. */
  other: Recorder;
  /** An origin on which nothing listens. */
  unreachable: string;
  /**
   * The party of the dataset behind the proxy (…/417/{pgln}), as a vendor exchanges it at setup: with it, a run
   * knows the identifiers under its prefix for the target's own, so that a resolver that misbehaves on them fails.
   */
  party: string | undefined;
  /** Requests that reached the hostile origin. */
  received: Received[];
  /** The largest number of body bytes a huge-body response got out before the client hung up. */
  hugeBytesSent(): number;
  /** How many huge-body responses were started. */
  hugeResponses(): number;
  misbehave(misbehaviour: Misbehaviour, scope: Scope): void;
  close(): Promise<void>;
}

interface Listening {
  server: Server;
  origin: string;
}

function record(req: IncomingMessage, into: Received[]): void {
  const key = req.headers["x-api-key"];
  into.push({
    path: req.url ?? "",
    key: Array.isArray(key) ? key.join(",") : key,
    headerText: req.rawHeaders.join("\n"),
  });
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Listening> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

/**
 * An address nothing answers: port 1 is privileged and outside the ephemeral range, so no process is handed it, as
 * a port just closed may be (by the next test's server, say).
 */
const UNREACHABLE = "http://127.0.0.1:1";

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

function isEvents(path: string): boolean {
  return path === "/events" || path.startsWith("/events?");
}

function inScope(scope: Scope, path: string): boolean {
  switch (scope) {
    case "all":
      return true;
    case "events":
      return isEvents(path);
    case "filtered":
      return path.startsWith("/events?");
    case "epc":
      return path.startsWith("/events?") && /[?&]MATCH_anyEPC=/.test(path);
    case "resolver":
      return !isEvents(path);
    case "all-but-discovery":
      return path !== "/events";
  }
}

function withMark(path: string): string {
  return `${path}${path.includes("?") ? "&" : "?"}${LOOP_MARK}=1`;
}

function withoutMark(raw: string): string {
  const mark = `(${LOOP_MARK}=1|${PAGE_MARK}=\\d+)`;
  return raw.replace(new RegExp(`[?&]${mark}$`), "").replace(new RegExp(`([?&])${mark}&`), "$1");
}

/** The number of the page `raw` asks for: 1 unless it carries the page mark. */
function pageOf(raw: string): number {
  const found = new RegExp(`[?&]${PAGE_MARK}=(\\d+)`).exec(raw);
  return found ? Number(found[1]) : 1;
}

function withPage(path: string, page: number): string {
  return `${path}${path.includes("?") ? "&" : "?"}${PAGE_MARK}=${page}`;
}

interface Forwarded {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Starts the reference with a generated dataset behind a hostile proxy; `apiKey` is the only key it accepts. */
export async function startHostileTarget(opts: {
  apiKey: string;
  seed: number;
  events: number;
  /** The size of each page of endless-large-pages; default LARGE_PAGE_BYTES. */
  pageBytes?: number;
}): Promise<HostileTarget> {
  const dataset = generateDataset({ seed: opts.seed, events: opts.events });
  const reference: RunningReference = await startReference({ dataset, apiKeys: [opts.apiKey] });
  const pageBytes = opts.pageBytes ?? LARGE_PAGE_BYTES;
  const received: Received[] = [];
  const otherReceived: Received[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let current: { misbehaviour: Misbehaviour; scope: Scope } | undefined;
  let hugeMax = 0;
  let hugeCount = 0;

  const other = await listen((req, res) => {
    record(req, otherReceived);
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ title: "Not here", status: 404 }));
  });
  let self = "";

  // The reference writes its own origin into link hrefs and Link headers; the client must only ever see ours.
  const rewrite = (text: string) => text.split(reference.eventsBase).join(self);

  async function forward(req: IncomingMessage, path: string): Promise<Forwarded> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && name !== "host" && name !== "connection") {
        headers[name] = Array.isArray(value) ? value.join(", ") : value;
      }
    }
    const answer = await request(`${reference.eventsBase}${path}`, { method: "GET", headers });
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (
        value === undefined ||
        ["content-length", "connection", "transfer-encoding", "keep-alive"].includes(name)
      ) {
        continue;
      }
      out[name] = rewrite(Array.isArray(value) ? value.join(", ") : value);
    }
    return { status: answer.statusCode, headers: out, body: rewrite(await answer.body.text()) };
  }

  function send(res: ServerResponse, f: Forwarded): void {
    res.writeHead(f.status, f.headers);
    res.end(f.body);
  }

  function rehref(body: string, origin: string): string {
    return body.replace(/("href"\s*:\s*")https?:\/\/[^/"]+/g, `$1${origin}`);
  }

  async function hugeBody(res: ServerResponse): Promise<void> {
    hugeCount += 1;
    res.writeHead(200, { "content-type": "application/ld+json" });
    let sent = 0;
    const closed = new Promise<void>((resolve) => res.once("close", resolve));
    res.write('{"type":"EPCISQueryDocument","epcisBody":{"queryResults":{"resultsBody":{"eventList":[');
    while (sent < HUGE_BODY_BYTES && !res.destroyed) {
      sent += HUGE_CHUNK.length;
      hugeMax = Math.max(hugeMax, sent);
      if (!res.write(HUGE_CHUNK)) {
        // Once closed, the loop ends; the one drain listener left behind goes with the response.
        await Promise.race([closed, new Promise<void>((resolve) => res.once("drain", resolve))]);
      }
    }
    if (!res.destroyed) res.end("]}}}}");
  }

  /**
   * A valid query document of about `pageBytes`: the dataset's events over and over, each copy with an eventID of
   * its own, so that no page repeats another's events and nothing read can be set aside as seen.
   */
  function largePage(page: number): string {
    const templates = dataset.events.map((event) => JSON.stringify({ ...event, eventID: "@ID@" }));
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < pageBytes; i++) {
      const id = `urn:uuid:00000000-0000-4000-8000-${String(page).padStart(5, "0")}${String(i).padStart(7, "0")}`;
      const text = templates[i % templates.length]!.replace("@ID@", id);
      parts.push(text);
      size += text.length + 1;
    }
    const results = `"resultsBody":{"eventList":[${parts.join(",")}]}`;
    return `{"@context":["https://ref.gs1.org/standards/epcis/epcis-context.jsonld"],"type":"EPCISQueryDocument","schemaVersion":"2.0","creationDate":"2024-01-01T00:00:00Z","epcisBody":{"queryResults":{"queryName":"SimpleEventQuery",${results}}}}`;
  }

  function trickle(res: ServerResponse, body: string): void {
    res.writeHead(200, { "content-type": "application/ld+json" });
    let at = 0;
    const timer = setInterval(() => {
      if (res.destroyed || at >= body.length) {
        clearInterval(timer);
        timers.delete(timer);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(body.slice(at, at + 1));
      at += 1;
    }, TRICKLE_INTERVAL_MS);
    timers.add(timer);
  }

  /** `raw` is the URL as requested; `path` is it without the loop mark, as the reference must see it. */
  async function misbehave(
    m: Misbehaviour,
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    raw: string,
  ) {
    switch (m) {
      case "silent":
        return;
      case "trickle":
        return trickle(res, (await forward(req, path)).body);
      case "huge-body":
        return hugeBody(res);
      case "invalid-json":
        res.writeHead(200, { "content-type": "application/ld+json" });
        res.end('{"type":"EPCISQueryDocument","epcisBody":{"queryResults":{"resultsBody":{"eventList":[{,]');
        return;
      case "wrong-content-type": {
        const f = await forward(req, path);
        return send(res, { ...f, headers: { ...f.headers, "content-type": "text/html; charset=utf-8" } });
      }
      case "reset": {
        const f = await forward(req, path);
        res.writeHead(f.status, { ...f.headers, "content-length": String(Buffer.byteLength(f.body)) });
        res.write(f.body.slice(0, Math.floor(f.body.length / 2)));
        // A TCP reset once half the promised body is out: the client sees the connection die mid-body.
        setImmediate(() => res.socket?.resetAndDestroy());
        return;
      }
      case "redirect-loop":
        res.writeHead(302, { location: `${self}${raw === path ? withMark(path) : path}` });
        res.end();
        return;
      case "redirect-off-origin":
        res.writeHead(307, { location: `${other.origin}${path}` });
        res.end();
        return;
      case "status-500":
        res.writeHead(500, { "content-type": "application/problem+json" });
        res.end(JSON.stringify({ type: "about:blank", title: "Internal Server Error", status: 500 }));
        return;
      case "status-429":
        res.writeHead(429, {
          "retry-after": String(RETRY_AFTER_SECONDS),
          "content-type": "application/problem+json",
        });
        res.end(JSON.stringify({ type: "about:blank", title: "Too Many Requests", status: 429 }));
        return;
      case "linkset-off-origin":
      case "linkset-unreachable": {
        const f = await forward(req, path);
        const to = m === "linkset-off-origin" ? other.origin : UNREACHABLE;
        return send(res, { ...f, body: rehref(f.body, to) });
      }
      case "paging-off-origin": {
        // A next page on another origin, with the rest of the query, where only 404 answers: the page is followed
        // (without the key) and leads to no page.
        const f = await forward(req, path);
        return send(res, {
          ...f,
          headers: { ...f.headers, link: `<${other.origin}${withMark(path)}>; rel="next"` },
        });
      }
      case "html-body":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(
          "<!doctype html><html><head><title>Welcome</title></head><body><h1>It works!</h1></body></html>",
        );
        return;
      case "slow-headers": {
        // The connection is accepted and the request read, but the status line comes too late for the client.
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) send(res, { status: 503, headers: {}, body: "" });
        }, SLOW_HEADERS_MS);
        timers.add(timer);
        return;
      }
      case "paging-loop": {
        const f = await forward(req, path);
        const next = raw === path ? withMark(path) : path;
        return send(res, { ...f, headers: { ...f.headers, link: `<${self}${next}>; rel="next"` } });
      }
      case "endless-pages": {
        // The reference's own answer on every page, each linking to a page never read before.
        const f = await forward(req, path);
        const link = `<${self}${withPage(path, pageOf(raw) + 1)}>; rel="next"`;
        return send(res, { ...f, headers: { ...f.headers, link } });
      }
      case "endless-large-pages": {
        const page = pageOf(raw);
        res.writeHead(200, {
          "content-type": "application/ld+json",
          link: `<${self}${withPage(path, page + 1)}>; rel="next"`,
        });
        res.end(largePage(page));
        return;
      }
    }
  }

  const hostile = await listen((req, res) => {
    record(req, received);
    const raw = req.url ?? "/";
    const path = withoutMark(raw);
    const chosen = current;
    const act =
      chosen && inScope(chosen.scope, path)
        ? misbehave(chosen.misbehaviour, req, res, path, raw)
        : forward(req, path).then((f) => send(res, f));
    act.catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.destroy();
    });
  });
  hostile.server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  self = hostile.origin;

  return {
    origin: hostile.origin,
    other: { origin: other.origin, received: otherReceived },
    unreachable: UNREACHABLE,
    party: ownIdentifiers(dataset.events).party,
    received,
    hugeBytesSent: () => hugeMax,
    hugeResponses: () => hugeCount,
    misbehave: (misbehaviour, scope) => {
      current = { misbehaviour, scope };
    },
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await Promise.all([stop(hostile.server), stop(other.server)]);
      await reference.close();
    },
  };
}
