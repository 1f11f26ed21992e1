// The reference on a thread of its own (src/reference/thread.ts) serves what startReference serves in the caller's
// thread, refuses to start in startReference's own words, and ends its thread when closed.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import { type RunningReference, startReference } from "../../src/reference/index.ts";
import { type ReferenceThread, startReferenceThread, type ThreadStart } from "../../src/reference/thread.ts";
import { REPO_ROOT, withTempDir } from "../support/cli.ts";

const KEY = "thread-test-key";
const SEED = 7;
const EVENTS = 30;
const FAULTS = ["lt-event-inclusive"];

/** A start of the reference with the test's key and faults, generating `events` events of the test's seed. */
const start = (events = EVENTS, faults = FAULTS): ThreadStart => ({
  apiKeys: [KEY],
  faults,
  data: { seed: SEED, events },
});
/**
 * The thread's code in the bundle, as a run from the bundle starts it (the sources need a loader a thread lacks);
 * the tests' global setup builds the bundle first (test/support/build.ts).
 */
const WORKER = path.join(REPO_ROOT, "dist", "src", "reference", "thread-worker.js");

let threaded: ReferenceThread | undefined;
let threadedBase = "";
let inThread: RunningReference | undefined;

beforeAll(async () => {
  threaded = startReferenceThread(start(), WORKER);
  threadedBase = (await threaded.ready).eventsBase;
  inThread = await startReference({
    dataset: generateDataset({ seed: SEED, events: EVENTS }),
    apiKeys: [KEY],
    faults: FAULTS,
  });
}, 120_000);

afterAll(async () => {
  await Promise.all([threaded?.close(), inThread?.close()]);
});

/** GET /events with the key: its status and event list, recordTime aside (each server sets it when it loads). */
async function events(
  base: string,
  query: string,
): Promise<{ status: number; list: Record<string, unknown>[] }> {
  const response = await fetch(`${base}/events${query}`, { headers: { "X-API-Key": KEY } });
  const body = (await response.json()) as {
    epcisBody?: { queryResults?: { resultsBody?: { eventList?: Record<string, unknown>[] } } };
  };
  const list = body.epcisBody?.queryResults?.resultsBody?.eventList ?? [];
  return { status: response.status, list: list.map(({ recordTime: _set, ...event }) => event) };
}

describe("the reference on a thread", () => {
  test("answers queries as the reference in this thread does, faults included", async () => {
    const all = await events(threadedBase, "");
    expect(all.status).toBe(200);
    expect(all.list).toHaveLength(EVENTS);
    expect(all).toEqual(await events(inThread!.eventsBase, ""));
    // lt-event-inclusive: the strict bound is answered as inclusive, in both.
    const times = all.list.map((e) => String(e.eventTime)).sort();
    const bound = `?LT_eventTime=${encodeURIComponent(times[10]!)}`;
    const bounded = await events(threadedBase, bound);
    expect(bounded).toEqual(await events(inThread!.eventsBase, bound));
    expect(bounded.list.some((e) => e.eventTime === times[10])).toBe(true);
  });

  test("serves a dataset it is given as the one it generates from the same seed", async () => {
    const dataset = generateDataset({ seed: SEED, events: EVENTS });
    const given = startReferenceThread({ ...start(), data: { dataset } }, WORKER);
    try {
      const { eventsBase } = await given.ready;
      const served = await events(eventsBase, "");
      expect(served.list).toHaveLength(EVENTS);
      expect(served).toEqual(await events(threadedBase, ""));
    } finally {
      await given.close();
    }
  });

  test("takes its start from a function once the thread is made, and throws what that throws", async () => {
    const reference = startReferenceThread(() => start(4), WORKER);
    try {
      const { eventsBase } = await reference.ready;
      expect((await events(eventsBase, "")).list).toHaveLength(4);
    } finally {
      await reference.close();
    }
    const refuse = () => {
      throw new Error("no start for this thread");
    };
    expect(() => startReferenceThread(refuse, WORKER)).toThrow("no start for this thread");
  });

  test("refuses a key it did not issue", async () => {
    const response = await fetch(`${threadedBase}/events`, { headers: { "X-API-Key": "other" } });
    await response.arrayBuffer();
    expect(response.status).toBe(401);
  });

  test("does not start with an unknown fault, and says so as startReference does", async () => {
    const dataset = generateDataset({ seed: 1, events: 5 });
    const own = await startReference({ dataset, apiKeys: [KEY], faults: ["no-such-fault"] }).then(
      () => "started",
      (err: Error) => err.message,
    );
    const refused = startReferenceThread(start(EVENTS, ["no-such-fault"]), WORKER);
    await expect(refused.ready).rejects.toThrow(own);
    await refused.close();
  });

  test("ends its thread when closed, once however often it is asked", async () => {
    const reference = startReferenceThread(start(5), WORKER);
    await reference.ready;
    await expect(Promise.all([reference.close(), reference.close()])).resolves.toEqual([
      undefined,
      undefined,
    ]);
  });

  test("closed while it starts, stops there, and its start is refused", async () => {
    const reference = startReferenceThread(start(50_000), WORKER);
    await reference.close();
    await expect(reference.ready).rejects.toThrow(/ended before it listened/);
  });

  test("closed after its thread ended by itself, closes at once", async () => {
    await withTempDir("thread", async (dir) => {
      // A thread that says it listens and then ends, as one an uncaught error ended would.
      const file = path.join(dir, "ends.mjs");
      await writeFile(
        file,
        `import { parentPort } from "node:worker_threads";
         parentPort.postMessage({ type: "listening", eventsBase: "http://127.0.0.1:9", resolverBase: "http://127.0.0.1:9" });
         setTimeout(() => process.exit(0), 10);`,
      );
      const reference = startReferenceThread(start(5), file);
      await reference.ready;
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect(reference.close()).resolves.toBeUndefined();
    });
  });
});
