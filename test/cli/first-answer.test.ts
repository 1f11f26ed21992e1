// A run asks GET /events once to learn whether its key is accepted. Discovery reads a 2xx answer to it as the
// unfiltered query's first page rather than ask again, and asks again after any other answer, which a target may
// give in passing: through a proxy in front of `tracecheck serve` that counts the unfiltered queries, and can answer
// the first one 503 itself.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DelayingProxy, startDelayingProxy } from "../../bench/delaying-proxy.ts";
import { runCli, tempDir } from "../support/cli.ts";
import { type ServeProcess, startServe } from "../support/serve.ts";

const KEY = "first-answer-key-5309";
const EVENTS = 20;
// A bound on a hang only: each run below checks the auth class.
const RUN = 120_000;

let work: Awaited<ReturnType<typeof tempDir>>;
let serve: ServeProcess;
let proxy: DelayingProxy;
/** Unfiltered GET /events the proxy received, and whether it answers the first of them 503 itself. */
let unfiltered = 0;
let refuseFirst = false;

beforeAll(async () => {
  work = await tempDir("first-answer");
  serve = await startServe(["--seed", "3", "--events", String(EVENTS), "--api-key", KEY]);
  proxy = await startDelayingProxy({
    upstreamPort: Number(new URL(serve.eventsBase).port),
    delayMs: 0,
    answer: (req, res) => {
      if (req.url !== "/events") return false;
      unfiltered += 1;
      if (!refuseFirst || unfiltered > 1) return false;
      res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ title: "warming up" }));
      return true;
    },
  });
});

afterAll(async () => {
  await proxy?.close();
  await serve?.stop();
  await work?.remove();
});

describe("the run's first GET /events", () => {
  it.each([
    { first: "answered 2xx: discovery reads it as its first page", refuse: false, asked: 1 },
    { first: "answered otherwise: discovery asks again, and the run goes on", refuse: true, asked: 2 },
  ])(
    "$first",
    async ({ refuse, asked }) => {
      unfiltered = 0;
      refuseFirst = refuse;
      const reports = path.join(work.dir, refuse ? "refused-once" : "answered");
      const result = await runCli([
        "run",
        "--target",
        proxy.origin,
        "--resolver",
        serve.resolverBase,
        "--api-key",
        KEY,
        "--suite",
        "auth",
        "--quiet",
        "--report-dir",
        reports,
      ]);
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(await readFile(path.join(reports, "report.json"), "utf8")) as {
        baseline: { events: number };
      };
      expect(report.baseline.events).toBe(EVENTS);
      expect(unfiltered).toBe(asked);
    },
    RUN,
  );
});
