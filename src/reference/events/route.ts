import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply } from "fastify";
import {
  type EpcisEvent,
  type EventQuery,
  isDigitalLink,
  parseDigitalLink,
  parseInstant,
} from "../../model/index.ts";
import { sendProblem } from "../problem.ts";
import { type EventStore, idKey } from "../store/index.ts";
import type { ReferenceContext } from "../types.ts";
import { shapeEvents } from "./answer-shape.ts";
import { faultOn } from "./faults.ts";
import { matchRulesFor } from "./match-rules.ts";
import { decodePageToken, encodePageToken, pageUrl } from "./paging.ts";
import { queryDocumentText } from "./query-document.ts";
import { readQuery } from "./read-query.ts";

export const QUERY_PARAMETER_EXCEPTION = "epcisException:QueryParameterException";
export const QUERY_TOO_COMPLEX_EXCEPTION = "epcisException:QueryTooComplexException";

/** Parameters that narrow a query to a few identifiers; a query without any of them may be too broad (spec 7). */
const SELECTIVE_PARAMETERS = [
  "MATCH_anyEPC",
  "MATCH_anyEPCClass",
  "EQ_transformationID",
  "EQ_bizLocation",
] as const;

/** How many events the unfiltered query answers under the unfiltered-truncated fault. */
const TRUNCATED_UNFILTERED = 10;

/** How many events each capture of a repository that grows while it is read (captureEvery) adds. */
const CAPTURED_PER_TURN = 3;

/**
 * GET /events (spec 4.1), answered from the indexed store. `capture` is the repository's growth (capturing), one
 * for the server however many homes the query interface has, so that the requests to all of them count together.
 */
export function registerEvents(
  app: FastifyInstance,
  ctx: ReferenceContext,
  store: EventStore,
  capture: (() => void) | undefined,
): void {
  const faulted = matchRulesFor(ctx.faults);
  // Matching EPCs only as written is a freedom (the spec states form equivalence for bizStep alone), not a fault.
  const rules = ctx.config.epcsAsWritten ? { ...faulted, epcAsWritten: true } : faulted;
  // The redirect-events configuration answers at /events/ and redirects /events there, query kept, as a framework
  // that puts a slash after a collection's path does; the Location is relative, so it holds under a path prefix.
  if (ctx.config.redirectEvents) {
    app.get("/events", async (request, reply) => {
      const url = request.raw.url ?? "";
      const mark = url.indexOf("?");
      return reply
        .code(308)
        .header("location", `events/${mark < 0 ? "" : url.slice(mark)}`)
        .send();
    });
  }
  app.get(ctx.config.redirectEvents ? "/events/" : "/events", async (request, reply) => {
    const url = request.raw.url ?? "";
    const mark = url.indexOf("?");
    const reading = readQuery(mark < 0 ? "" : url.slice(mark + 1), ctx.faults, ctx.config);
    // Captured after the answer is made, so that the events are new to the requests that follow it.
    capture?.();
    if (!reading.ok) return refuseParameter(reply, reading.detail);
    const refusal = ctx.config.refuseUnfiltered;
    if (refusal !== 0 && Object.keys(reading.query).length === 0 && reading.nextPageToken === undefined) {
      // Spec 7 names 413 for a query too broad to run and shows no other status: this sender uses another.
      return sendProblem(
        reply,
        refusal,
        QUERY_PARAMETER_EXCEPTION,
        "A query parameter is required",
        "GET /events needs at least one query parameter; select the events with MATCH_anyEPC, EQ_bizStep, a time window or another parameter.",
      );
    }

    let offset = 0;
    if (reading.nextPageToken !== undefined) {
      const cursor = decodePageToken(reading.nextPageToken);
      if (cursor === undefined || cursor.filter !== reading.filterPart) {
        return refuseParameter(
          reply,
          "nextPageToken was not issued for this query; follow the next link exactly as the previous page gave it.",
        );
      }
      offset = cursor.offset;
    }

    const query = reading.query;
    if (faultOn(ctx.faults, "narrow-413") && query.MATCH_anyEPC?.length === 1) {
      return refuseTooComplex(reply, "A query for one EPC is refused.");
    }
    const found = store.query(query, rules).events;
    if (!isSelective(query) && found.length > ctx.config.broadLimit) {
      return refuseTooComplex(
        reply,
        `The query matches ${found.length} events, more than ${ctx.config.broadLimit} allowed without MATCH_anyEPC, MATCH_anyEPCClass, EQ_transformationID or EQ_bizLocation; add one of them or narrow the time window.`,
      );
    }
    // Spec 8: the threshold is the sender's own; a query for one EPC, lot class or transformation stays answered,
    // since refusing it would leave the parameter unsupported (spec 4.1: "Every one must be supported").
    const largeLimit = ctx.config.largeLimit;
    if (!isNarrow(query) && found.length > largeLimit) {
      return refuseTooComplex(
        reply,
        `The query matches ${found.length} events, more than the ${largeLimit} this server answers at once; narrow it with a time window, or ask for one EPC, one lot or one transformation.`,
      );
    }
    const matched = ctx.config.shuffled ? inOwnOrder(found) : found;

    const filtered = Object.keys(query).length > 0;
    const answer =
      !filtered && faultOn(ctx.faults, "unfiltered-truncated")
        ? matched.slice(0, TRUNCATED_UNFILTERED)
        : matched;
    const perPage = reading.perPage ?? ctx.config.pageSize;
    const nextOffset = nextPageOffset(answer.length, offset, perPage, ctx.faults);
    if (nextOffset !== undefined) {
      const token = encodePageToken({ filter: reading.filterPart, offset: nextOffset });
      reply.header(
        "link",
        `<${pageUrl(ctx.config.relativeLinks ? undefined : ctx.eventsBase(), reading.filterPart, reading.perPage, token)}>; rel="next"`,
      );
    }
    const page: EpcisEvent[] = answer.slice(offset, offset + perPage);
    const served = shapeEvents(page, {
      faults: ctx.faults,
      answerInDigitalLink: ctx.config.answerInDigitalLink,
      extensionField: ctx.config.shuffled,
      filtered,
    });
    const body = queryDocumentText(served, { withContext: !faultOn(ctx.faults, "shape-no-context") });
    // The spec names no media type (untested in suites/requirements.yaml); plain JSON is a legal choice.
    const type = ctx.config.shuffled ? "application/json" : "application/ld+json";
    return reply.code(200).header("content-type", type).send(body);
  });
}

/**
 * What a repository that grows while it is read does after every `captureEvery`-th GET /events (undefined when it
 * does not): it captures a few events, copies of loaded ones in turn under eventIDs of their own, happening and
 * recorded now. Called as a request is taken, it captures on the next turn of the event loop, after that request's
 * answer is made.
 */
export function capturing(ctx: ReferenceContext, store: EventStore): (() => void) | undefined {
  const every = ctx.config.captureEvery;
  const loaded = ctx.dataset.events;
  if (!Number.isFinite(every) || loaded.length === 0) return undefined;
  let taken = 0;
  let next = 0;
  return () => {
    taken += 1;
    if (taken % every !== 0) return;
    setImmediate(() => {
      const now = new Date().toISOString();
      const events: EpcisEvent[] = [];
      for (let i = 0; i < CAPTURED_PER_TURN; i++) {
        const { recordTime: _, ...copy } = structuredClone(loaded[next % loaded.length] as EpcisEvent);
        next += 1;
        events.push({
          ...copy,
          eventID: `urn:uuid:${randomUUID()}`,
          eventTime: now,
          eventTimeZoneOffset: "+00:00",
        });
      }
      store.insert(events, parseInstant(now));
    });
  };
}

/** Where the next page starts, or undefined when this page is the last one (as the faults see it). */
function nextPageOffset(
  total: number,
  offset: number,
  perPage: number,
  faults: ReadonlySet<string>,
): number | undefined {
  const next = offset + perPage;
  if (next < total) {
    const nextIsLast = next + perPage >= total;
    return nextIsLast && faultOn(faults, "paging-drops-last-page") ? undefined : next;
  }
  return total > perPage && faultOn(faults, "paging-loop") ? 0 : undefined;
}

function isSelective(q: EventQuery): boolean {
  return SELECTIVE_PARAMETERS.some((p) => q[p] !== undefined);
}

/** One EPC, one lot class (an lgtin, or /01/{gtin}/10/{lot}) or one transformation: as narrow as a query gets. */
function isNarrow(q: EventQuery): boolean {
  const [epcClass, ...more] = q.MATCH_anyEPCClass ?? [];
  return (
    q.MATCH_anyEPC?.length === 1 ||
    q.EQ_transformationID?.length === 1 ||
    (epcClass !== undefined && more.length === 0 && isLotClass(epcClass))
  );
}

function isLotClass(value: string): boolean {
  const id = idKey(value);
  if (!isDigitalLink(id)) return false;
  const ais = parseDigitalLink(id).elements.map((e) => e.ai);
  return ais.length === 2 && ais[0] === "01" && ais[1] === "10";
}

/**
 * The events in an order of this sender's own (spec 4.1 shows none): by a hash of the eventID, the same for every
 * page of one answer, so that paging stays a stable cursor.
 */
function inOwnOrder(events: readonly EpcisEvent[]): EpcisEvent[] {
  const keyed = events.map((e) => ({ e, key: fnv1a(typeof e.eventID === "string" ? e.eventID : "") }));
  return keyed.sort((a, b) => a.key - b.key).map((k) => k.e);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function refuseParameter(reply: FastifyReply, detail: string): FastifyReply {
  return sendProblem(reply, 400, QUERY_PARAMETER_EXCEPTION, "Invalid query parameter", detail);
}

function refuseTooComplex(reply: FastifyReply, detail: string): FastifyReply {
  return sendProblem(reply, 413, QUERY_TOO_COMPLEX_EXCEPTION, "Query too complex", detail);
}
