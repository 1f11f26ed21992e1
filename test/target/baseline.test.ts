import { readdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { Handover, HttpClient } from "../../src/http/index.ts";
import { eventIdentity } from "../../src/model/index.ts";
import type { EpcisEvent } from "../../src/model/types.ts";
import {
  type DiscoveryOptions,
  discoverBaseline,
  eventsOf,
  identifiersOf,
  refusesUnfiltered,
} from "../../src/target/baseline.ts";
import { tempDir } from "../support/cli.ts";
import { classDl, type Repository, serialDl, ssccDl, startRepository } from "../support/event-repository.ts";

const X = serialDl("0950600013435", "1001");
const Y = serialDl("0950600013435", "1002");
const Z = serialDl("0950600013435", "9999");
const P = ssccDl("09506000134352000");
const K = classDl("0950600013436", "LOT7");

function objectEvent(id: string, time: string, extra: Partial<EpcisEvent>): EpcisEvent {
  return {
    type: "ObjectEvent",
    eventID: `urn:uuid:${id}`,
    eventTime: time,
    eventTimeZoneOffset: "+00:00",
    action: "OBSERVE",
    ...extra,
  };
}

// A trace that a crawl from X reaches, link by link, and one event (D) that no identifier of the trace leads to.
const A = objectEvent("a", "2024-03-01T08:00:00Z", { action: "ADD", epcList: [X] });
const B: EpcisEvent = {
  ...objectEvent("b", "2024-03-02T09:30:00.5Z", {}),
  type: "AggregationEvent",
  action: "ADD",
  parentID: P,
  childEPCs: [X, Y],
};
const C = objectEvent("c", "2024-03-03T10:00:00Z", { epcList: [P], bizStep: "shipping" });
const D = objectEvent("d", "2024-03-04T11:00:00+02:00", { epcList: [Z] });
const E: EpcisEvent = {
  type: "TransformationEvent",
  eventID: "urn:uuid:e",
  eventTime: "2024-03-05T12:00:00Z",
  eventTimeZoneOffset: "+00:00",
  inputEPCList: [Y],
  outputQuantityList: [{ epcClass: K, quantity: 5, uom: "KGM" }],
};
const F = objectEvent("f", "2025-01-01T00:00:00Z", {
  quantityList: [{ epcClass: K, quantity: 2, uom: "KGM" }],
});
const ALL = [A, B, C, D, E, F];
const REACHABLE = [A, B, C, E, F];

const ids = (events: Iterable<EpcisEvent>) => [...events].map(eventIdentity).sort();

const clients: HttpClient[] = [];
let repository: Repository | undefined;

/**
 * Discovers the events of a repository of ALL under `policy`; with `askedFirst`, after asking the unfiltered query
 * once as a run does to learn whether its key is accepted, and handing that answer to discovery.
 */
async function discover(
  policy: Parameters<typeof startRepository>[1],
  opts: Omit<DiscoveryOptions, "eventsBase" | "resolverBase"> = {},
  askedFirst = false,
) {
  repository = await startRepository(ALL, policy);
  const client = new HttpClient({ allowedOrigins: [repository.origin], retries: 0 });
  clients.push(client);
  const first = askedFirst ? await client.get(`${repository.origin}/events`) : undefined;
  const baseline = await discoverBaseline(client, {
    eventsBase: repository.origin,
    resolverBase: repository.origin,
    ...opts,
    ...(first === undefined ? {} : { unfilteredAnswer: new Handover(first) }),
  });
  return { baseline, repository, client, first };
}

afterEach(async () => {
  await repository?.close();
  repository = undefined;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

describe("discoverBaseline", () => {
  it("takes every event from the unfiltered query when the target answers it", async () => {
    const { baseline, repository } = await discover({});
    expect(baseline.method).toBe("unfiltered");
    expect(baseline.complete).toBe(true);
    expect(ids(baseline.events)).toEqual(ids(ALL));
    expect(repository.requests).toEqual(["/events"]);
    expect(baseline.requests).toBe(1);
  });

  it("reads every page of the unfiltered answer", async () => {
    const { baseline, repository } = await discover({ pageSize: 2 });
    expect(baseline.method).toBe("unfiltered");
    expect(ids(baseline.events)).toEqual(ids(ALL));
    expect(repository.requests).toHaveLength(3);
  });

  it("reads an unfiltered answer already in hand as its first page, asking only for the pages after it", async () => {
    const { baseline, repository } = await discover({ pageSize: 2 }, {}, true);
    expect(baseline.method).toBe("unfiltered");
    expect(ids(baseline.events)).toEqual(ids(ALL));
    expect(repository.requests).toHaveLength(3);
    expect(repository.requests.filter((r) => r === "/events")).toHaveLength(1);
    expect(baseline.requests).toBe(2);
  });

  it("bisects windows after an unfiltered answer in hand that refused the query with 413", async () => {
    const { baseline, repository, first } = await discover({ maxEvents: 3 }, {}, true);
    expect(first?.status).toBe(413);
    expect(baseline.method).toBe("windows");
    expect(ids(baseline.events)).toEqual(ids(ALL));
    expect(repository.requests.filter((r) => r === "/events")).toHaveLength(1);
  });

  it("bisects eventTime windows when the unfiltered query is refused with 413", async () => {
    const { baseline, repository } = await discover({ maxEvents: 2 });
    expect(baseline.method).toBe("windows");
    expect(baseline.complete).toBe(true);
    expect(ids(baseline.events)).toEqual(ids(ALL));
    expect(baseline.note).toContain("413");
    expect(repository.refused()).toBeGreaterThan(1);
    const windows = repository.requests.filter(
      (r) => r.includes("GE_eventTime=") && r.includes("LT_eventTime="),
    );
    expect(windows.length).toBe(repository.requests.length - 1);
    expect(baseline.requests).toBe(repository.requests.length);
  });

  it("keeps each event once however many windows return it", async () => {
    const { baseline } = await discover({ maxEvents: 3, pageSize: 1 });
    expect(baseline.method).toBe("windows");
    expect(baseline.events).toHaveLength(ALL.length);
    expect(baseline.repeats).toBeUndefined();
  });

  it("keeps apart the further copies of an identity the unfiltered answer holds more than once", async () => {
    // EPCIS makes eventID optional: the same event captured twice is one identity the repository holds twice.
    const { eventID: _, ...withoutId } = D;
    const once = { ...withoutId, recordTime: "2024-05-01T00:00:00Z" } as EpcisEvent;
    const again = { ...once, recordTime: "2024-05-02T00:00:00Z" };
    repository = await startRepository([A, once, B, again], { pageSize: 2 });
    const client = new HttpClient({ allowedOrigins: [repository.origin], retries: 0 });
    clients.push(client);
    const baseline = await discoverBaseline(client, {
      eventsBase: repository.origin,
      resolverBase: repository.origin,
    });
    expect(ids(baseline.events)).toEqual(ids([A, B, once]));
    expect(baseline.repeats).toEqual([again]);
  });

  it("crawls from --start-from when time windows are refused too, and says the result is partial", async () => {
    const { baseline, repository } = await discover({ onlyIdentifierQueries: true }, { startFrom: X });
    expect(baseline.method).toBe("crawl");
    expect(baseline.complete).toBe(false);
    expect(ids(baseline.events)).toEqual(ids(REACHABLE));
    expect(baseline.note).toContain(X);
    expect(baseline.note).toContain(`${REACHABLE.length} events`);
    expect(repository.requests).toContain("/01/09506000134352/21/1001?linkType=linkset");
    expect(repository.requests.some((r) => r.startsWith("/events?MATCH_anyEPCClass="))).toBe(true);
  });

  it("crawls from an EPC URN as well as from a Digital Link", async () => {
    const urn = "urn:epc:id:sgtin:9506000.013435.1001";
    const { baseline } = await discover({ onlyIdentifierQueries: true }, { startFrom: urn });
    expect(baseline.method).toBe("crawl");
    expect(ids(baseline.events)).toEqual(ids(REACHABLE));
  });

  it("gives up with method none and a sentence when broad queries are refused and no --start-from is given", async () => {
    const { baseline } = await discover({ onlyIdentifierQueries: true });
    expect(baseline.method).toBe("none");
    expect(baseline.complete).toBe(false);
    expect([...baseline.events]).toEqual([]);
    expect(baseline.note).toBe(
      "the target refuses broad queries and no --start-from was given: pass a product identifier to crawl from",
    );
  });

  it("does not claim windows complete when the request budget runs out first", async () => {
    const { baseline } = await discover({ maxEvents: 1 }, { maxRequests: 4 });
    expect(baseline.method).toBe("none");
    expect(baseline.complete).toBe(false);
    expect([...baseline.events]).toEqual([]);
  });

  it("reports an unfiltered query that fails other than with 413 as method none", async () => {
    const { baseline } = await discover({ unfilteredStatus: 500 });
    expect(baseline.method).toBe("none");
    expect(baseline.complete).toBe(false);
    expect(baseline.note).toContain("the unfiltered query failed");
  });

  // Spec 7 names 413 for a query too broad to run and shows no other status: another 4xx of the unfiltered query
  // refuses it just as well.
  it.each([400, 404, 422])(
    "bisects eventTime windows when the unfiltered query is refused with %i, as after a 413",
    async (status) => {
      const { baseline, repository } = await discover({ unfilteredStatus: status });
      expect(baseline.method).toBe("windows");
      expect(baseline.complete).toBe(true);
      expect(ids(baseline.events)).toEqual(ids(ALL));
      expect(baseline.note).toBe(
        `the unfiltered query was refused with ${status}; every event from eventTime windows`,
      );
      expect(repository.requests[0]).toBe("/events");
      expect(repository.requests.slice(1).every((r) => r.includes("GE_eventTime="))).toBe(true);
    },
  );

  it("bisects windows after an unfiltered answer in hand that refused the query with 400", async () => {
    const { baseline, repository, first } = await discover({ unfilteredStatus: 400 }, {}, true);
    expect(first?.status).toBe(400);
    expect(baseline.method).toBe("windows");
    expect(ids(baseline.events)).toEqual(ids(ALL));
    expect(repository.requests.filter((r) => r === "/events")).toHaveLength(1);
  });

  it.each([401, 403, 429])(
    "takes %i, which answers the request and not the query, for no refusal of the query",
    async (status) => {
      const { baseline, repository } = await discover({ unfilteredStatus: status });
      expect(baseline.method).toBe("none");
      expect(baseline.note).toContain("the unfiltered query failed");
      expect(repository.requests).toEqual(["/events"]);
    },
  );
});

describe("refusesUnfiltered", () => {
  it("is every 4xx but a refused key and a request to wait, and no other status", () => {
    const refusing = Array.from({ length: 600 }, (_, n) => n).filter(refusesUnfiltered);
    const fourHundreds = Array.from({ length: 100 }, (_, n) => 400 + n);
    expect(refusing).toEqual(fourHundreds.filter((n) => ![401, 403, 429].includes(n)));
  });
});

describe("discoverBaseline against answers that break off or never end", () => {
  let server: Server | undefined;
  let origin = "";
  let served = 0;
  let work: Awaited<ReturnType<typeof tempDir>> | undefined;
  const PAGES = 30;

  const page = (n: number) =>
    [0, 1, 2].map((i) =>
      objectEvent(`page-${n}-${i}`, "2024-03-01T08:00:00Z", { epcList: [X], "ex:pad": "p".repeat(500) }),
    );

  /** GET /events answers pages of fresh events, page n linking rel="next" to next(n), the last where it is undefined. */
  async function serve(next: (n: number) => string | undefined) {
    served = 0;
    server = createServer((req, res) => {
      const n = Number(new URL(req.url ?? "/", origin).searchParams.get("page") ?? "1");
      served += 1;
      const link = next(n);
      res.writeHead(200, {
        "content-type": "application/ld+json",
        ...(link === undefined ? {} : { link: `<${link}>; rel="next"` }),
      });
      res.end(JSON.stringify({ epcisBody: { queryResults: { resultsBody: { eventList: page(n) } } } }));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new HttpClient({ allowedOrigins: [origin], retries: 0 });
    clients.push(client);
    return client;
  }
  const endless = (n: number) => `/events?page=${n + 1}`;

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    await work?.remove();
    work = undefined;
  });

  it("stops at the page budget and says which budget and which flag, keeping none of the pages", async () => {
    const client = await serve(endless);
    const baseline = await discoverBaseline(client, {
      eventsBase: origin,
      resolverBase: origin,
      budget: { maxPages: 25 },
    });
    expect(served).toBe(25);
    expect(baseline.method).toBe("none");
    expect(baseline.complete).toBe(false);
    expect(baseline.events).toHaveLength(0);
    expect(baseline.note).toMatch(
      /the unfiltered query failed: Reading stopped after 25 pages.*--max-pages 25/,
    );
  });

  it("stops at the byte budget", async () => {
    const client = await serve(endless);
    const baseline = await discoverBaseline(client, {
      eventsBase: origin,
      resolverBase: origin,
      budget: { maxBytes: 20_000 },
    });
    // A page is some 1,900 bytes: the budget is reached on the eleventh.
    expect(served).toBeGreaterThan(5);
    expect(served).toBeLessThan(20);
    expect(baseline.method).toBe("none");
    expect(baseline.events).toHaveLength(0);
    expect(baseline.note).toMatch(/Reading stopped after \d+ pages of \d+ bytes.*--max-answer-bytes 20000/);
  });

  // Spec 4.1 states no rule that keeps an answer's pages on one origin: the page there is the answer's too.
  it("takes the page a next link leads to on another origin, like any other", async () => {
    const other = await startRepository([D]);
    try {
      const client = await serve((n) => (n < 3 ? endless(n) : `${other.origin}/events`));
      const baseline = await discoverBaseline(client, { eventsBase: origin, resolverBase: origin });
      expect(baseline.method).toBe("unfiltered");
      expect(baseline.complete).toBe(true);
      expect([...baseline.events]).toEqual([...[1, 2, 3].flatMap(page), D]);
      expect(other.requests).toEqual(["/events"]);
    } finally {
      await other.close();
    }
  });

  it("takes the pages before a page on another origin that cannot be read, and says the baseline is partial", async () => {
    const away = "http://127.0.0.1:1/events";
    const client = await serve((n) => (n < 3 ? endless(n) : away));
    const baseline = await discoverBaseline(client, { eventsBase: origin, resolverBase: origin });
    expect(baseline.method).toBe("unfiltered");
    expect(baseline.complete).toBe(false);
    expect([...baseline.events]).toEqual([1, 2, 3].flatMap(page));
    expect(baseline.note).toContain(`Page 4 (${away})`);
    expect(baseline.note).toContain(`another origin than the first page (${origin})`);
  });

  it("takes the pages before a loop, each event once, and goes on rather than failing", async () => {
    const client = await serve((n) => (n < 4 ? endless(n) : "/events?page=2"));
    const baseline = await discoverBaseline(client, { eventsBase: origin, resolverBase: origin });
    expect(served).toBe(4);
    expect(baseline.method).toBe("unfiltered");
    expect(baseline.complete).toBe(false);
    expect([...baseline.events]).toEqual([1, 2, 3, 4].flatMap(page));
    expect(baseline.note).toMatch(/goes round in a loop/);
  });

  it("spools an answer to disk past the memory bound and reads it back in order", async () => {
    work = await tempDir("baseline-spool");
    const client = await serve((n) => (n < PAGES ? endless(n) : undefined));
    const baseline = await discoverBaseline(client, {
      eventsBase: origin,
      resolverBase: origin,
      spool: { dir: work.dir, memoryChars: 8_000 },
    });
    expect(baseline.method).toBe("unfiltered");
    expect(baseline.events).toHaveLength(3 * PAGES);
    expect(baseline.events.spilled).toBe(true);
    expect(await readdir(work.dir)).toHaveLength(1);
    expect([...baseline.events]).toEqual([...Array(PAGES).keys()].flatMap((n) => page(n + 1)));
    baseline.events.clear();
    expect(await readdir(work.dir)).toEqual([]);
  });

  it("takes nothing from a crawl answer whose pages break off, and crawls on", async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", origin);
      const send = (status: number, events: EpcisEvent[] = [], link?: string) => {
        res.writeHead(status, { "content-type": "application/json", ...(link ? { link } : {}) });
        res.end(JSON.stringify({ epcisBody: { queryResults: { resultsBody: { eventList: events } } } }));
      };
      // Broad queries are refused; the EPC query breaks off after its first page; the class query answers.
      if (url.pathname !== "/events" || url.searchParams.has("GE_eventTime") || url.search === "") send(413);
      else if (url.searchParams.get("page") === "2") send(500);
      else if (url.searchParams.has("MATCH_anyEPC"))
        send(200, [A], `<${url.pathname}${url.search}&page=2>; rel="next"`);
      else send(200, [F]);
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new HttpClient({ allowedOrigins: [origin], retries: 0 });
    clients.push(client);
    const baseline = await discoverBaseline(client, {
      eventsBase: origin,
      resolverBase: origin,
      startFrom: K,
    });
    expect(baseline.method).toBe("crawl");
    expect(ids(baseline.events)).toEqual(ids([F]));
    baseline.events.clear();
  });

  it("removes the spool of an answer that fails after it spilled", async () => {
    work = await tempDir("baseline-spool");
    const client = await serve(endless);
    const baseline = await discoverBaseline(client, {
      eventsBase: origin,
      resolverBase: origin,
      budget: { maxPages: PAGES },
      spool: { dir: work.dir, memoryChars: 8_000 },
    });
    expect(served).toBe(PAGES);
    expect(baseline.method).toBe("none");
    expect(baseline.events).toHaveLength(0);
    expect(await readdir(work.dir)).toEqual([]);
  });
});

describe("eventsOf", () => {
  it("reads the event list of a query document and of a capture document", () => {
    expect(eventsOf({ epcisBody: { queryResults: { resultsBody: { eventList: [A] } } } })).toEqual([A]);
    expect(eventsOf({ epcisBody: { eventList: [B] } })).toEqual([B]);
  });

  it("is undefined for anything else", () => {
    for (const body of [null, undefined, 3, "x", {}, { epcisBody: {} }, { epcisBody: { eventList: {} } }]) {
      expect(eventsOf(body)).toBeUndefined();
    }
  });
});

describe("identifiersOf", () => {
  it("collects every EPC field and parentID, and every class of every quantity list", () => {
    expect(identifiersOf(B)).toEqual({ epcs: [X, Y, P], classes: [] });
    expect(identifiersOf(E)).toEqual({ epcs: [Y], classes: [K] });
    expect(identifiersOf(D)).toEqual({ epcs: [Z], classes: [] });
  });
});
