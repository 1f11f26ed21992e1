// The crawl's use of the resolver (spec 1, step 2): the epcis link of the start identifier's link set, in any
// spelling of the link type, followed when it selects events; one that names the query interface itself adds
// nothing the crawl does not ask anyway.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HttpClient } from "../../src/http/index.ts";
import { type EpcisEvent, eventIdentity, parseQueryString, runOracle } from "../../src/model/index.ts";
import { discoverBaseline } from "../../src/target/baseline.ts";
import { serialDl } from "../support/event-repository.ts";

const X = serialDl("0950600013435", "1001");
const Z = serialDl("0950600013435", "2002");
const PLANT = "https://id.gs1.org/414/9506000000015";

function observe(id: string, epc: string): EpcisEvent {
  return {
    type: "ObjectEvent",
    eventID: `urn:uuid:${id}`,
    eventTime: "2024-03-01T08:00:00Z",
    eventTimeZoneOffset: "+00:00",
    action: "OBSERVE",
    epcList: [epc],
    bizLocation: { id: PLANT },
  };
}

// B names nothing the crawl reaches from X: only the epcis link, which selects by location, leads to it.
const A = observe("a", X);
const B = observe("b", Z);

interface Running {
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

/** A repository that refuses every query not naming an identifier or a location, and a resolver beside it. */
async function start(linkType: string, epcisPath: (origin: string) => string): Promise<Running> {
  const requests: string[] = [];
  let origin = "";
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/events") {
      const { query } = parseQueryString(url.search);
      if (query.MATCH_anyEPC === undefined && query.EQ_bizLocation === undefined) {
        send(413, { title: "Query too complex" });
        return;
      }
      const eventList = runOracle([A, B], query);
      send(200, { type: "EPCISQueryDocument", epcisBody: { queryResults: { resultsBody: { eventList } } } });
      return;
    }
    const href = epcisPath(origin);
    send(200, {
      linkset: [
        {
          anchor: `https://id.gs1.org${url.pathname}`,
          itemDescription: null,
          [linkType]: [{ href, title: "events" }],
        },
      ],
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let running: Running | undefined;
let client: HttpClient | undefined;
afterEach(async () => {
  await client?.close();
  await running?.close();
  running = undefined;
  client = undefined;
});

async function crawl(linkType: string, epcisPath: (origin: string) => string) {
  running = await start(linkType, epcisPath);
  client = new HttpClient({ allowedOrigins: [running.origin], retries: 0 });
  const baseline = await discoverBaseline(client, {
    eventsBase: running.origin,
    resolverBase: running.origin,
    startFrom: X,
    maxRequests: 200,
  });
  return { baseline, requests: running.requests };
}

const byLocation = (origin: string) => `${origin}/events?EQ_bizLocation=${encodeURIComponent(PLANT)}`;

describe("the crawl's epcis link", () => {
  for (const linkType of [
    "https://ref.gs1.org/voc/epcis",
    "https://gs1.org/voc/epcis",
    "https://www.gs1.org/voc/epcis",
    "http://gs1.org/voc/epcis",
  ]) {
    it(`is followed when the link set writes it ${linkType}`, async () => {
      const { baseline, requests } = await crawl(linkType, byLocation);
      expect(baseline.method).toBe("crawl");
      expect(requests).toContain(`/events?EQ_bizLocation=${encodeURIComponent(PLANT)}`);
      expect([...baseline.events].map(eventIdentity).sort()).toEqual(["urn:uuid:a", "urn:uuid:b"]);
    });
  }

  it("is not asked as it is when it names the query interface itself; the identifier is queried instead", async () => {
    const { baseline, requests } = await crawl("https://gs1.org/voc/epcis", (origin) => `${origin}/events`);
    expect(baseline.method).toBe("crawl");
    expect(requests.filter((r) => r === "/events")).toHaveLength(1);
    expect([...baseline.events].map(eventIdentity)).toEqual(["urn:uuid:a"]);
  });

  it("is not taken from a link type of another name", async () => {
    const { baseline, requests } = await crawl("https://gs1.org/voc/pip", byLocation);
    expect(requests.some((r) => r.startsWith("/events?EQ_bizLocation="))).toBe(false);
    expect([...baseline.events].map(eventIdentity)).toEqual(["urn:uuid:a"]);
  });
});
