// The reference sender's EPCIS 2.0 capture interface (REST binding): limits announced and enforced, the key
// checked as on GET /events, capture jobs followed to their end, captured events queryable, an eventID never
// stored twice; and the store's insert, which must index like a load.
import { afterEach, describe, expect, it } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import type { EpcisEvent, EventQuery } from "../../src/model/index.ts";
import { runOracle } from "../../src/model/index.ts";
import { EventStore, type RunningReference, startReference } from "../../src/reference/index.ts";
import { fixtureEvents, IDS, LOAD_START } from "./events-fixture.ts";

const KEY = "capture-test-key";
const started: RunningReference[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
});

async function start(capture: { events?: number; bytes?: number } = {}): Promise<RunningReference> {
  const ref = await startReference({ dataset: { events: [], masterData: [] }, apiKeys: [KEY], capture });
  started.push(ref);
  return ref;
}

function documentOf(events: readonly EpcisEvent[]): string {
  return JSON.stringify({
    "@context": ["https://ref.gs1.org/standards/epcis/epcis-context.jsonld"],
    type: "EPCISDocument",
    schemaVersion: "2.0",
    creationDate: "2024-01-01T00:00:00Z",
    epcisBody: { eventList: events },
  });
}

function capture(
  ref: RunningReference,
  body: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${ref.eventsBase}/capture`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": KEY, ...headers },
    body,
  });
}

/** Follows a capture job to its end, as a client does: GET on its Location until running is false. */
async function finished(ref: RunningReference, answer: Response): Promise<Record<string, unknown>> {
  expect(answer.status).toBe(202);
  const location = answer.headers.get("location");
  expect(location).toMatch(/^\/capture\/\S+$/);
  for (;;) {
    const job = (await (
      await fetch(new URL(location!, ref.eventsBase), { headers: { "x-api-key": KEY } })
    ).json()) as Record<string, unknown>;
    if (job.running === false) return job;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function served(ref: RunningReference): Promise<string[]> {
  const answer = await fetch(`${ref.eventsBase}/events`, { headers: { "x-api-key": KEY } });
  const doc = (await answer.json()) as {
    epcisBody: { queryResults: { resultsBody: { eventList: EpcisEvent[] } } };
  };
  return doc.epcisBody.queryResults.resultsBody.eventList.map((e) => e.eventID as string);
}

const events = generateDataset({ seed: 3, events: 12 }).events;

describe("the capture interface", () => {
  it("announces its limits on OPTIONS /capture", async () => {
    const ref = await start({ events: 4, bytes: 100_000 });
    const answer = await fetch(`${ref.eventsBase}/capture`, {
      method: "OPTIONS",
      headers: { "x-api-key": KEY },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get("gs1-epcis-capture-limit")).toBe("4");
    expect(answer.headers.get("gs1-epcis-capture-file-size-limit")).toBe("100000");
    expect(answer.headers.get("allow")).toContain("POST");
  });

  it("checks the key as GET /events does", async () => {
    const ref = await start();
    expect((await capture(ref, documentOf(events), { "x-api-key": "wrong" })).status).toBe(401);
    expect(await served(ref)).toEqual([]);
  });

  it("captures through a job, after which the events are served by GET /events", async () => {
    const ref = await start();
    const job = await finished(ref, await capture(ref, documentOf(events.slice(0, 5))));
    expect(job).toMatchObject({
      running: false,
      success: true,
      errors: [],
      captureErrorBehaviour: "rollback",
    });
    expect(await served(ref)).toEqual(events.slice(0, 5).map((e) => e.eventID));
    expect(ref.store.events.every((e) => typeof e.recordTime === "string")).toBe(true);
  });

  it("refuses more events than its capture limit with 413, naming the limits", async () => {
    const ref = await start({ events: 4 });
    const answer = await capture(ref, documentOf(events.slice(0, 5)));
    expect(answer.status).toBe(413);
    expect(answer.headers.get("gs1-epcis-capture-limit")).toBe("4");
    expect(((await answer.json()) as { type: string }).type).toBe(
      "epcisException:CaptureLimitExceededException",
    );
    expect(await served(ref)).toEqual([]);
  });

  it("refuses a body over its file size limit with 413, naming the limits", async () => {
    const body = documentOf(events);
    const ref = await start({ bytes: body.length - 1 });
    const answer = await capture(ref, body);
    expect(answer.status).toBe(413);
    expect(answer.headers.get("gs1-epcis-capture-file-size-limit")).toBe(String(body.length - 1));
    expect((await capture(ref, documentOf(events.slice(0, 2)))).status).toBe(202);
  });

  it("stores no eventID twice: under rollback a job with a repeat stores nothing, under proceed the rest", async () => {
    const ref = await start();
    await finished(ref, await capture(ref, documentOf(events.slice(0, 3))));
    const rolledBack = await finished(ref, await capture(ref, documentOf(events.slice(2, 6))));
    expect(rolledBack.success).toBe(false);
    expect(JSON.stringify(rolledBack.errors)).toContain(events[2]!.eventID);
    expect(ref.store.size).toBe(3);
    const proceeded = await finished(
      ref,
      await capture(ref, documentOf(events.slice(2, 6)), { "gs1-capture-error-behaviour": "proceed" }),
    );
    expect(proceeded.success).toBe(false);
    expect(await served(ref)).toEqual(events.slice(0, 6).map((e) => e.eventID));
  });

  it("refuses what is not an EPCIS document, and a body that is not JSON by its media type", async () => {
    const ref = await start();
    expect((await capture(ref, "{}")).status).toBe(400);
    expect((await capture(ref, "not json")).status).toBe(400);
    expect((await capture(ref, documentOf(events), { "content-type": "text/plain" })).status).toBe(415);
    expect((await capture(ref, documentOf(events), { "content-type": "application/ld+json" })).status).toBe(
      202,
    );
  });

  it("answers 404 for a capture job it never started", async () => {
    const ref = await start();
    const answer = await fetch(`${ref.eventsBase}/capture/nope`, { headers: { "x-api-key": KEY } });
    await answer.arrayBuffer();
    expect(answer.status).toBe(404);
  });
});

describe("EventStore.insert", () => {
  const queries: EventQuery[] = [
    {},
    { GE_eventTime: "2000-01-01T00:00:00Z" },
    { LT_eventTime: "2024-03-01T10:00:00Z" },
    { GE_eventTime: "2024-03-01T10:00:00Z", MATCH_anyEPC: [IDS.itemA1, IDS.pallet] },
    { MATCH_anyEPCClass: [IDS.gtinPattern] },
    { EQ_bizLocation: [IDS.plant] },
    { LT_recordTime: "2099-01-01T00:00:00Z" },
  ];

  it("leaves the store as one load of the same events would", () => {
    const all = fixtureEvents();
    const whole = new EventStore(all, { loadStart: LOAD_START });
    const split = new EventStore(all.slice(0, 4), { loadStart: LOAD_START });
    const inserted = split.insert(all.slice(4));
    expect(inserted).toEqual(whole.events.slice(4));
    expect(split.events).toEqual(whole.events);
    for (const q of queries) {
      expect(split.query(q).events).toEqual(whole.query(q).events);
      expect(split.query(q).events).toEqual(runOracle(split.events, q));
    }
  });
});
