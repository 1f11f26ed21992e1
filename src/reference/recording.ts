// The reference sender as a receiver's counterpart: every request it takes is recorded as it arrived, so that a
// receiver can be judged on what it sent (spec 4.1 rules 1-2, 4.2, 5.2). The raw request target is kept undecoded,
// since `%7C` and a raw `|`, or one key and the same key repeated, differ only there. Optionally GET /events refuses
// with 413 any query whose answer would be longer than a handful of events, so that only a receiver that narrows
// its queries (spec 7) gets the whole trace; a query for one EPC, lot or serial is never refused, so that the
// product's own events (a MUST, spec 1 step 3) never hang on narrowing, which the spec leaves open.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { RecordedExchange, RecordedListener } from "../http/recorded.ts";
import { canonicalId, type EventQuery, isDigitalLink, parseDigitalLink } from "../model/index.ts";
import { readQuery } from "./events/read-query.ts";
import { QUERY_TOO_COMPLEX_EXCEPTION } from "./events/route.ts";
import { sendProblem } from "./problem.ts";
import { type EventStore, SPEC_RULES } from "./store/index.ts";

export interface RecordingOptions {
  /** Called once per request, when its answer has been sent. */
  record(exchange: RecordedExchange): void;
  /**
   * Refuse with 413 every GET /events whose answer would hold more than this many events, whatever else it
   * asks, unless it asks for one EPC, lot or serial (oneIdentifier) and refuseOne is not set; undefined refuses
   * none.
   */
  refuseOver?: number;
  /** Refuse a query for one EPC, lot or serial as well, so that only eventTime windows narrow it enough. */
  refuseOne?: boolean;
}

/** Bodies kept per exchange: far above any page or link set of the small datasets a receiver is judged with. */
const BODY_LIMIT = 8 * 1024 * 1024;

const arrivals = new WeakMap<FastifyRequest, { seq: number; at: number }>();
let sequence = 0;

/**
 * Records every request `app` takes (hooks on the instance itself, so that every route registered in it and its
 * not-found answers are recorded) and, with `refuseOver`, refuses broad GET /events queries.
 */
export function registerRecording(
  app: FastifyInstance,
  listener: RecordedListener,
  opts: RecordingOptions,
  store: EventStore,
): void {
  app.addHook("onRequest", async (request) => {
    arrivals.set(request, { seq: sequence++, at: Date.now() });
  });
  if (opts.refuseOver !== undefined && listener !== "resolver") {
    const limit = opts.refuseOver;
    // preHandler runs after the key check of onRequest, so a request without the key is still refused for that.
    app.addHook("preHandler", async (request, reply) => {
      if (request.method !== "GET" || !request.routeOptions.url?.endsWith("/events")) return;
      const raw = request.raw.url ?? "";
      const mark = raw.indexOf("?");
      const reading = readQuery(mark < 0 ? "" : raw.slice(mark + 1), new Set());
      // A query the route refuses for its parameters is left to the route, which says what is wrong with it.
      if (!reading.ok || (opts.refuseOne !== true && oneIdentifier(reading.query))) return;
      const found = store.query(reading.query, SPEC_RULES).events.length;
      if (found <= limit) return;
      return sendProblem(
        reply,
        413,
        QUERY_TOO_COMPLEX_EXCEPTION,
        "Query too complex",
        `The query matches ${found} events, more than the ${limit} this server answers at once; ask for fewer identifiers at a time, or narrow it with an eventTime window.`,
      );
    });
  }
  app.addHook("onSend", async (request, reply, payload) => {
    const arrival = arrivals.get(request) ?? { seq: sequence++, at: Date.now() };
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined)
        headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    }
    const text =
      typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : undefined;
    const exchange: RecordedExchange = {
      seq: arrival.seq,
      at: arrival.at,
      listener,
      method: request.raw.method ?? request.method,
      rawUrl: request.raw.url ?? request.url,
      rawHeaders: headerLines(request.raw.rawHeaders),
      status: reply.statusCode,
      responseHeaders: headers,
    };
    if (text !== undefined && text.length <= BODY_LIMIT) exchange.responseBody = text;
    opts.record(exchange);
    return payload;
  });
}

/**
 * Whether a query asks for one EPC, lot or serial: its MATCH_anyEPC and MATCH_anyEPCClass values, in whatever forms
 * they are written (a Digital Link, an EPC URN), name one identifier, and it is neither a bare GTIN nor a pattern,
 * which stand for every item of a product. Other parameters only narrow it further.
 */
export function oneIdentifier(query: EventQuery): boolean {
  const values = [...(query.MATCH_anyEPC ?? []), ...(query.MATCH_anyEPCClass ?? [])];
  const named = new Set(values.map(canonicalId));
  if (named.size !== 1) return false;
  const only = [...named][0]!;
  if (!isDigitalLink(only)) return false;
  const ais = parseDigitalLink(only).elements.map((e) => e.ai);
  return !(ais.length === 1 && ais[0] === "01");
}

function headerLines(raw: readonly string[]): [string, string][] {
  const lines: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) lines.push([raw[i]!, raw[i + 1]!]);
  return lines;
}
