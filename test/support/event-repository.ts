// A small EPCIS repository and resolver with the refusal policies a real sender may have (spec 4.1 rule 4,
// spec 7), for testing how the harness learns what a target holds.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gs1CheckDigit, parseQueryString, runOracle } from "../../src/model/index.ts";
import type { EpcisEvent, EventQuery } from "../../src/model/types.ts";
import { queryDocument } from "./events.ts";

export interface RepositoryPolicy {
  /** Answers with more events than this are refused with 413. */
  maxEvents?: number;
  /** Every query without MATCH_anyEPC or MATCH_anyEPCClass is refused with 413. */
  onlyIdentifierQueries?: boolean;
  /** Answers are split into pages of this many events, linked with rel="next". */
  pageSize?: number;
  /** GET /events without parameters answers this status (and no document). */
  unfilteredStatus?: number;
  /** What the repository selects for a query, in place of the oracle: a defect of a sender's own. */
  select?: (events: readonly EpcisEvent[], query: EventQuery) => EpcisEvent[];
}

export interface Repository {
  origin: string;
  /** Every request line received, in order: path and query string. */
  requests: string[];
  /** How many GET /events answers were refused with 413. */
  refused(): number;
  close(): Promise<void>;
}

/** A Digital Link under the canonical base with a valid check digit: 13 digits of GTIN body plus the serial. */
export function serialDl(gtinBody: string, serial: string): string {
  return `https://id.gs1.org/01/${gtinBody}${gs1CheckDigit(gtinBody)}/21/${serial}`;
}

export function ssccDl(body: string): string {
  return `https://id.gs1.org/00/${body}${gs1CheckDigit(body)}`;
}

export function classDl(gtinBody: string, lot: string): string {
  return `https://id.gs1.org/01/${gtinBody}${gs1CheckDigit(gtinBody)}/10/${lot}`;
}

/** Serves GET /events over `events` (filtered by the oracle) and link sets for any Digital Link path. */
export async function startRepository(
  events: readonly EpcisEvent[],
  policy: RepositoryPolicy = {},
): Promise<Repository> {
  const requests: string[] = [];
  let refusals = 0;
  let origin = "";
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/events") {
      if (url.search === "" && policy.unfilteredStatus !== undefined) {
        send(policy.unfilteredStatus, { title: "unavailable" });
        return;
      }
      const { query } = parseQueryString(url.search);
      const byIdentifier = query.MATCH_anyEPC !== undefined || query.MATCH_anyEPCClass !== undefined;
      let answer: EpcisEvent[];
      try {
        answer = (policy.select ?? runOracle)(events, query);
      } catch (err) {
        send(400, { title: (err as Error).message });
        return;
      }
      if (
        (policy.onlyIdentifierQueries && !byIdentifier) ||
        (policy.maxEvents !== undefined && answer.length > policy.maxEvents)
      ) {
        refusals += 1;
        send(413, { type: "QueryTooComplexException", title: "Query too complex" });
        return;
      }
      const size = policy.pageSize ?? Number.POSITIVE_INFINITY;
      const page = Number(url.searchParams.get("page") ?? "0");
      const slice = answer.slice(page * size, (page + 1) * size);
      const headers: Record<string, string> = {};
      if ((page + 1) * size < answer.length) {
        const next = new URL(url);
        next.searchParams.set("page", String(page + 1));
        headers["link"] = `<${next.href}>; rel="next"`;
      }
      send(200, queryDocument(slice), headers);
      return;
    }
    if (url.searchParams.get("linkType") === "linkset") {
      const anchor = `https://id.gs1.org${url.pathname}`;
      const epcis = `${origin}/events?MATCH_anyEPC=${encodeURIComponent(anchor)}`;
      send(200, {
        linkset: [
          {
            anchor,
            itemDescription: null,
            "https://ref.gs1.org/voc/defaultLink": [{ href: epcis, title: "events" }],
            "https://ref.gs1.org/voc/epcis": [{ href: epcis, title: "events" }],
          },
        ],
      });
      return;
    }
    send(404, { title: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    refused: () => refusals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
