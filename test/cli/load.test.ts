// Loading by capture through the real CLI, the CI journey: `tracecheck serve` started empty, `tracecheck load`
// into it through POST /capture in batches its capture limit allows, a second load that captures nothing, then
// `tracecheck run --load capture` judging the events class against the loaded dataset; and a target without a
// capture interface, which gets one sentence and exit 2.
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDataset, writeDatasetFile } from "../../src/generate/index.ts";
import { runCli, tempDir } from "../support/cli.ts";
import { type ServeProcess, startServe } from "../support/serve.ts";

// A bound on a hang only: the run below checks one class with five cases a property.
const RUN = 300_000;
const KEY = "load-key-4711";
const SEED = "6";
const EVENTS = "30";
const CAPTURE_LIMIT = 7;

let dir: string;
let remove: () => Promise<void>;
let serve: ServeProcess;
let emptyFile: string;

/** The eventIDs the target serves to an unfiltered GET /events. */
async function servedIds(base: string): Promise<string[]> {
  const answer = await fetch(`${base}/events`, { headers: { "x-api-key": KEY } });
  expect(answer.status).toBe(200);
  const doc = (await answer.json()) as {
    epcisBody: { queryResults: { resultsBody: { eventList: { eventID: string }[] } } };
  };
  return doc.epcisBody.queryResults.resultsBody.eventList.map((e) => e.eventID);
}

/** `tracecheck run --load capture` of the test's dataset into `target`, its reports in `reports`, with --json. */
function runLoading(target: string, reports: string, more: readonly string[]) {
  return runCli([
    "run",
    "--target",
    target,
    "--api-key",
    KEY,
    "--load",
    "capture",
    "--seed",
    SEED,
    "--events",
    EVENTS,
    ...more,
    "--report-dir",
    reports,
    "--json",
  ]);
}

beforeAll(async () => {
  ({ dir, remove } = await tempDir("load"));
  emptyFile = path.join(dir, "empty.jsonld");
  await writeDatasetFile({ events: [], masterData: [] }, emptyFile);
  serve = await startServe([
    "--dataset",
    emptyFile,
    "--api-key",
    KEY,
    "--capture-limit",
    String(CAPTURE_LIMIT),
  ]);
});

afterAll(async () => {
  await serve?.stop();
  await remove();
});

describe("tracecheck load and run --load capture against tracecheck serve", () => {
  const expected = generateDataset({ seed: Number(SEED), events: Number(EVENTS) }).events.map(
    (e) => e.eventID,
  );

  it(
    "loads the dataset in batches the capture limit allows, captures nothing twice, and the run judges it",
    async () => {
      expect(await servedIds(serve.eventsBase)).toEqual([]);

      const first = await runCli([
        "load",
        "--target",
        serve.eventsBase,
        "--api-key",
        KEY,
        "--seed",
        SEED,
        "--events",
        EVENTS,
      ]);
      expect(first.stderr).not.toContain(KEY);
      expect(first.code, first.stderr).toBe(0);
      const requests = Math.ceil(Number(EVENTS) / CAPTURE_LIMIT);
      expect(first.stdout).toContain(`captured ${EVENTS} events in ${requests} request(s)`);
      expect(new Set(await servedIds(serve.eventsBase))).toEqual(new Set(expected));

      const again = await runCli([
        "load",
        "--target",
        serve.eventsBase,
        "--api-key",
        KEY,
        "--seed",
        SEED,
        "--events",
        EVENTS,
      ]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain("captured nothing");
      expect(await servedIds(serve.eventsBase)).toHaveLength(Number(EVENTS));

      const run = await runLoading(serve.eventsBase, path.join(dir, "reports"), [
        "--suite",
        "events",
        "--runs",
        "5",
      ]);
      expect(run.code, run.stderr).toBe(0);
      const summary = JSON.parse(run.stdout) as { verdict: string; summary: { fail: number; error: number } };
      expect(summary.verdict).toBe("pass");
      expect(summary.summary).toMatchObject({ fail: 0, error: 0 });
      expect(run.stderr).toContain("captured nothing");
      expect(await servedIds(serve.eventsBase)).toHaveLength(Number(EVENTS));
    },
    RUN,
  );

  it(
    "discovers after loading: the answer the target gave before the load is not taken for what it holds",
    async () => {
      // A target of its own, empty until the run loads it: the run's first GET /events finds nothing.
      const empty = await startServe(["--dataset", emptyFile, "--api-key", KEY]);
      try {
        const reports = path.join(dir, "reports-fresh");
        const run = await runLoading(empty.eventsBase, reports, ["--suite", "auth"]);
        expect(run.code, run.stderr).toBe(0);
        const report = JSON.parse(await readFile(path.join(reports, "report.json"), "utf8")) as {
          baseline: { events: number };
        };
        expect(report.baseline.events).toBe(Number(EVENTS));
      } finally {
        await empty.stop();
      }
    },
    RUN,
  );

  it("says in one sentence, with exit 2, that a load needs --target, and so does run --load", async () => {
    const result = await runCli(["load", "--api-key", KEY]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^tracecheck: load needs --target/m);
    const embedded = await runCli(["run", "--load", "capture"]);
    expect(embedded.code).toBe(2);
    expect(embedded.stderr).toMatch(/^tracecheck: --load capture needs --target/m);
    const unknown = await runCli(["run", "--target", serve.eventsBase, "--load", "ftp"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^tracecheck: --load: unknown way to load "ftp"/m);
  });
});

describe("a target without a capture interface", () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    // GET /events answers an empty query document; /capture does not exist.
    server = createServer((req, res) => {
      if (req.url === "/events") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            type: "EPCISQueryDocument",
            epcisBody: { queryResults: { resultsBody: { eventList: [] } } },
          }),
        );
        return;
      }
      res.writeHead(req.url === "/capture" && req.method === "POST" ? 405 : 404);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("gets a sentence that names the missing capture interface, and exit 2, from load and from run", async () => {
    const load = await runCli(["load", "--target", base, "--api-key", KEY, "--events", "3", "--quiet"]);
    expect(load.code).toBe(2);
    expect(load.stderr).toMatch(/has no EPCIS capture interface \(POST \/capture answered 405\)/);
    const run = await runCli([
      "run",
      "--target",
      base,
      "--api-key",
      KEY,
      "--load",
      "capture",
      "--events",
      "3",
      "--suite",
      "events",
      "--report-dir",
      path.join(dir, "no-capture"),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/has no EPCIS capture interface/);
  });
});
