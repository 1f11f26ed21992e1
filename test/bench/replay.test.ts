import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replay } from "../../bench/bare-replay.ts";
import { RequestRecorder } from "../../bench/request-recorder.ts";
import { generateDataset } from "../../src/generate/index.ts";
import { HttpClient } from "../../src/http/index.ts";
import { type RunningReference, startReference } from "../../src/reference/index.ts";

const KEY = "replay-test-key";
let reference: RunningReference;
let port: number;

beforeAll(async () => {
  reference = await startReference({ dataset: generateDataset({ seed: 3, events: 30 }), apiKeys: [KEY] });
  port = Number(new URL(reference.eventsBase).port);
});
afterAll(async () => {
  await reference.close();
});

describe("RequestRecorder and replay", () => {
  it("records each request to the watched server, with its path and headers, and nothing once stopped", async () => {
    const recorder = new RequestRecorder([port]);
    const client = new HttpClient({ apiKey: KEY, allowedOrigins: [reference.eventsBase] });
    try {
      await client.get(`${reference.eventsBase}/events?EQ_bizStep=shipping`);
      await client.get(`${reference.eventsBase}/events`, { withKey: false });
      recorder.stop();
      await client.get(`${reference.eventsBase}/events`);
    } finally {
      await client.close();
    }
    expect(recorder.requests.map((r) => r.path)).toEqual(["/events?EQ_bizStep=shipping", "/events"]);
    expect(recorder.requests[0]?.headers["x-api-key"]).toBe(KEY);
    expect(recorder.requests[1]?.headers["x-api-key"]).toBeUndefined();
    expect(recorder.requests.every((r) => r.method === "GET" && r.port === port)).toBe(true);
    expect(recorder.requests[0]?.headers.host).toBeUndefined();
  });

  it("ignores servers it was not asked to watch", async () => {
    const recorder = new RequestRecorder([port + 1]);
    const client = new HttpClient({ apiKey: KEY, allowedOrigins: [reference.eventsBase] });
    try {
      await client.get(`${reference.eventsBase}/events`);
    } finally {
      recorder.stop();
      await client.close();
    }
    expect(recorder.requests).toEqual([]);
  });

  it("replays recorded requests to the same server, every one of them", async () => {
    const recorder = new RequestRecorder([port]);
    const client = new HttpClient({ apiKey: KEY, allowedOrigins: [reference.eventsBase] });
    try {
      for (const q of ["", "?EQ_bizStep=receiving", "?MATCH_anyEPC=urn:epc:id:sgtin:0614141.107346.2017"]) {
        await client.get(`${reference.eventsBase}/events${q}`);
      }
    } finally {
      await client.close();
    }
    recorder.stop();
    const recorded = [...recorder.requests];
    const again = new RequestRecorder([port]);
    const outcome = await replay(recorded, "127.0.0.1", 2);
    again.stop();
    expect(outcome.failed).toBe(0);
    expect(again.requests.map((r) => r.path).sort()).toEqual(recorded.map((r) => r.path).sort());
    expect(again.requests.every((r) => r.headers["x-api-key"] === KEY)).toBe(true);
  });
});
