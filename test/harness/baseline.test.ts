import { afterAll, afterEach, describe, expect, it } from "vitest";
import { discoverBaseline, eventsOf, identifiersOf } from "../../src/harness/baseline.ts";
import { HttpClient } from "../../src/http/index.ts";
import { eventIdentity } from "../../src/model/index.ts";
import type { EpcisEvent } from "../../src/model/types.ts";
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

const ids = (events: readonly EpcisEvent[]) => events.map(eventIdentity).sort();

const clients: HttpClient[] = [];
let repository: Repository | undefined;

async function discover(
  policy: Parameters<typeof startRepository>[1],
  opts: { startFrom?: string; maxRequests?: number } = {},
) {
  repository = await startRepository(ALL, policy);
  const client = new HttpClient({ allowedOrigins: [repository.origin], retries: 0 });
  clients.push(client);
  const baseline = await discoverBaseline(client, {
    eventsBase: repository.origin,
    resolverBase: repository.origin,
    ...opts,
  });
  return { baseline, repository, client };
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
    expect(baseline.events).toEqual([]);
    expect(baseline.note).toBe(
      "the target refuses broad queries and no --start-from was given: pass a product identifier to crawl from",
    );
  });

  it("does not claim windows complete when the request budget runs out first", async () => {
    const { baseline } = await discover({ maxEvents: 1 }, { maxRequests: 4 });
    expect(baseline.method).toBe("none");
    expect(baseline.complete).toBe(false);
    expect(baseline.events).toEqual([]);
  });

  it("reports an unfiltered query that fails other than with 413 as method none", async () => {
    const { baseline } = await discover({ unfilteredStatus: 500 });
    expect(baseline.method).toBe("none");
    expect(baseline.complete).toBe(false);
    expect(baseline.note).toContain("the unfiltered query failed");
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
