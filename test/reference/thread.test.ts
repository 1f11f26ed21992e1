// The reference on a thread of its own (src/reference/thread.ts) serves what startReference serves in the caller's
// thread, refuses to start in startReference's own words, and ends its thread when closed.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import { type RunningReference, startReference } from "../../src/reference/index.ts";
import { startReferenceThread, type ThreadReference } from "../../src/reference/thread.ts";
import { REPO_ROOT } from "../support/cli.ts";

const KEY = "thread-test-key";
const START = { seed: 7, events: 30, apiKeys: [KEY], faults: ["lt-event-inclusive"] };
/** The thread's compiled code, as a run from dist/ starts it (the sources need a loader a thread lacks). */
const WORKER = path.join(REPO_ROOT, "dist", "src", "reference", "thread-worker.js");

let threaded: ThreadReference | undefined;
let inThread: RunningReference | undefined;

beforeAll(async () => {
  // A no-op after `npm test`'s own build; after an edit it brings dist/ up to date.
  await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, "scripts", "build.js")], {
    cwd: REPO_ROOT,
  });
  threaded = await startReferenceThread(START, WORKER);
  inThread = await startReference({
    dataset: generateDataset({ seed: START.seed, events: START.events }),
    apiKeys: START.apiKeys,
    faults: START.faults,
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
    const all = await events(threaded!.eventsBase, "");
    expect(all.status).toBe(200);
    expect(all.list).toHaveLength(START.events);
    expect(all).toEqual(await events(inThread!.eventsBase, ""));
    // lt-event-inclusive: the strict bound is answered as inclusive, in both.
    const times = all.list.map((e) => String(e.eventTime)).sort();
    const bound = `?LT_eventTime=${encodeURIComponent(times[10]!)}`;
    const bounded = await events(threaded!.eventsBase, bound);
    expect(bounded).toEqual(await events(inThread!.eventsBase, bound));
    expect(bounded.list.some((e) => e.eventTime === times[10])).toBe(true);
  });

  test("refuses a key it did not issue", async () => {
    const response = await fetch(`${threaded!.eventsBase}/events`, { headers: { "X-API-Key": "other" } });
    await response.arrayBuffer();
    expect(response.status).toBe(401);
  });

  test("does not start with an unknown fault, and says so as startReference does", async () => {
    const dataset = generateDataset({ seed: 1, events: 5 });
    const own = await startReference({ dataset, apiKeys: [KEY], faults: ["no-such-fault"] }).then(
      () => "started",
      (err: Error) => err.message,
    );
    await expect(startReferenceThread({ ...START, faults: ["no-such-fault"] }, WORKER)).rejects.toThrow(own);
  });

  test("ends its thread when closed, once however often it is asked", async () => {
    const reference = await startReferenceThread({ ...START, events: 5 }, WORKER);
    await expect(Promise.all([reference.close(), reference.close()])).resolves.toEqual([
      undefined,
      undefined,
    ]);
  });
});
