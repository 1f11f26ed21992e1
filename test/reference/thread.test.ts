// The reference on a thread of its own (src/reference/thread.ts) serves what startReference serves in the caller's
// thread, refuses to start in startReference's own words, and ends its thread when closed.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { threadEntry } from "../../scripts/compiled.js";
import { type EarlyThread, startEarlyThread, startGatedThread } from "../../scripts/early-thread.js";
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
 * The thread's compiled code, as a run from dist/ starts it (the sources need a loader a thread lacks); the tests'
 * global setup builds dist/ first (test/support/build.ts).
 */
const WORKER = path.join(REPO_ROOT, "dist", "src", "reference", "thread-worker.js");
/**
 * The bundle's thread (its CommonJS file, run by scripts/bundle-thread.js), which the command starts early
 * (scripts/early-thread.js); the global setup builds it too.
 */
const BUNDLED_WORKER = threadEntry(REPO_ROOT, "bundle");

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
    await withThread({ ...start(), data: { dataset } }, WORKER, undefined, async (given) => {
      const { eventsBase } = await given.ready;
      const served = await events(eventsBase, "");
      expect(served.list).toHaveLength(EVENTS);
      expect(served).toEqual(await events(threadedBase, ""));
    });
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

/** Resolves once the worker has exited, however it came to. */
const exited = (worker: { once(event: "exit", listener: () => void): unknown }) =>
  new Promise<void>((resolve) => worker.once("exit", () => resolve()));

/** A start of `file`'s code offered `early`: it must leave the early thread and serve from a thread of its own. */
async function expectOwnThread(file: string, early: EarlyThread | undefined): Promise<void> {
  await withThread(start(5), file, early, async (reference) => {
    expect(early?.taken).toBe(false);
    await expect(reference.ready).resolves.toMatchObject({ eventsBase: expect.any(String) });
  });
}

/** Starts a reference thread on `file`'s code (offered `early`), runs `use` with it, and closes it whatever happens. */
async function withThread(
  threadStart: ThreadStart,
  file: string,
  early: EarlyThread | undefined,
  use: (reference: ReferenceThread) => Promise<void>,
): Promise<void> {
  const reference = startReferenceThread(threadStart, file, early);
  try {
    await use(reference);
  } finally {
    await reference.close();
  }
}

describe("a thread started early, before the command knows its options", () => {
  test("is started only for a run that may serve the embedded reference", () => {
    for (const argv of [
      ["serve"],
      ["run", "--target", "http://127.0.0.1:9"],
      ["run", "--target=http://127.0.0.1:9"],
      ["run", "--dataset", "d.json"],
      ["run", "--dataset=d.json"],
      ["run", "--help"],
      ["run", "-h"],
      [],
    ]) {
      expect(startEarlyThread(REPO_ROOT, argv), argv.join(" ")).toBeUndefined();
    }
  });

  test("is taken by a start of the same code, and serves what it is then told", async () => {
    const early = startEarlyThread(REPO_ROOT, ["run", "--seed", "7"]);
    expect(early?.file).toBe(BUNDLED_WORKER);
    const ended = exited(early!.worker);
    await withThread(start(12), BUNDLED_WORKER, early, async (reference) => {
      expect(early!.taken).toBe(true);
      // Taken, it is the run's to close: ending the early thread no longer ends it.
      early!.end();
      const { eventsBase } = await reference.ready;
      const served = await events(eventsBase, "");
      expect(served.status).toBe(200);
      expect(served.list).toHaveLength(12);
    });
    await ended;
  });

  test("loads Node's modules, then waits at its gate until a run takes it, which opens the gate", async () => {
    // A wait for the gate only a hang would end: the thread goes on only when the gate is opened.
    const early = startEarlyThread(REPO_ROOT, ["run"], { gateWaitMs: 600_000 });
    const ended = exited(early!.worker);
    early!.awaitLoaded(60_000);
    expect(early!.loaded).toBe(true);
    expect(early!.running).toBe(false);
    await withThread(start(3), BUNDLED_WORKER, early, async (reference) => {
      early!.awaitRunning(60_000);
      expect(early!.running).toBe(true);
      const { eventsBase } = await reference.ready;
      expect((await events(eventsBase, "")).list).toHaveLength(3);
    });
    await ended;
  });

  test("ended while it waits at its gate, ends there without running its code", async () => {
    const early = startEarlyThread(REPO_ROOT, ["run"], { gateWaitMs: 600_000 });
    const ended = exited(early!.worker);
    early!.awaitLoaded(60_000);
    early!.end();
    await ended;
    expect(early!.running).toBe(false);
  });

  test("is not taken by a start of other code, which gets a thread of its own, and ends when ended", async () => {
    const early = startEarlyThread(REPO_ROOT, ["run"]);
    const ended = exited(early!.worker);
    await expectOwnThread(WORKER, early);
    early!.end();
    early!.end();
    await ended;
  });

  test("its first code loads the modules on its list and says so before the thread's own file runs", async () => {
    await withTempDir("gated", async (dir) => {
      // A file that tells what was loaded by the time it ran, and whether the gate said so already; it imports
      // nothing that loads zlib.
      const file = path.join(dir, "tell.mjs");
      await writeFile(
        file,
        `import { parentPort, workerData } from "node:worker_threads";
        const gate = Object.values(workerData).find((v) => v instanceof Int32Array);
        parentPort.postMessage({
          zlib: process.moduleLoadList.includes("NativeModule zlib"),
          loaded: Atomics.load(gate, 0),
        });`,
      );
      const told = async (builtins: string[]) => {
        const { worker } = startGatedThread(file, builtins);
        const ended = exited(worker);
        const message = await new Promise((resolve) => worker.once("message", resolve));
        await ended;
        return message;
      };
      expect(await told(["node:zlib"])).toEqual({ zlib: true, loaded: 1 });
      // Without it on the list, the thread never loads zlib: the first answer is the list's doing.
      expect(await told([])).toEqual({ zlib: false, loaded: 1 });
    });
  });

  test("is not taken from the moment it fails to load, though it has not exited yet", async () => {
    // A folder without a bundle: the early thread's code is missing, so the thread fails as it loads.
    await withTempDir("early", async (dir) => {
      const early = startEarlyThread(dir, ["run"]);
      const ended = exited(early!.worker);
      // Its 'error' comes a turn before its 'exit': a start asked for in between must not take it.
      const taken = await new Promise<boolean>((resolve) => {
        early!.worker.once("error", () => {
          const reference = startReferenceThread(start(5), early!.file, early);
          resolve(early!.taken);
          reference.ready.catch(() => undefined);
          void reference.close();
        });
      });
      expect(taken).toBe(false);
      await ended;
    });
  });

  test("is not taken once it has ended", async () => {
    const early = startEarlyThread(REPO_ROOT, ["run"]);
    const ended = exited(early!.worker);
    early!.end();
    await ended;
    await expectOwnThread(BUNDLED_WORKER, early);
  });
});
