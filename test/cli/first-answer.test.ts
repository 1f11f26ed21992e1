// A run asks GET /events once to learn whether its key is accepted. Discovery reads a 2xx answer to it as the
// unfiltered query's first page rather than ask again, and asks again after any other answer, which a target may
// give in passing: through a proxy in front of `tracecheck serve` that counts the unfiltered queries, and can answer
// the first one 503.
import { readFile } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../support/cli.ts";
import { type ServeProcess, startServe } from "../support/serve.ts";

const KEY = "first-answer-key-5309";
const EVENTS = 20;
// A bound on a hang only: each run below checks the auth class.
const RUN = 120_000;

let work: Awaited<ReturnType<typeof tempDir>>;
let serve: ServeProcess;
let proxy: Server;
let proxyBase: string;
/** Unfiltered GET /events the proxy received, and whether it answers the first of them 503 itself. */
let unfiltered = 0;
let refuseFirst = false;

beforeAll(async () => {
  work = await tempDir("first-answer");
  serve = await startServe(["--seed", "3", "--events", String(EVENTS), "--api-key", KEY]);
  const upstream = new URL(serve.eventsBase);
  proxy = createServer((req, res) => {
    if (req.url === "/events") {
      unfiltered += 1;
      if (refuseFirst && unfiltered === 1) {
        res.writeHead(503, { "content-type": "application/json" });
        res.end(JSON.stringify({ title: "warming up" }));
        return;
      }
    }
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: `${upstream.pathname.replace(/\/$/, "")}${req.url}`,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on("error", () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  await serve?.stop();
  await work?.remove();
});

/** A run of the auth class through the proxy; its exit, and the events its baseline holds. */
async function run(label: string): Promise<{ code: number | null; events: number; stderr: string }> {
  const reports = path.join(work.dir, label);
  const result = await runCli([
    "run",
    "--target",
    proxyBase,
    "--resolver",
    serve.resolverBase,
    "--api-key",
    KEY,
    "--suite",
    "auth",
    "--quiet",
    "--report-dir",
    reports,
    "--json",
  ]);
  const report = JSON.parse(await readFile(path.join(reports, "report.json"), "utf8")) as {
    baseline?: { events: number };
  };
  return { code: result.code, events: report.baseline?.events ?? -1, stderr: result.stderr };
}

describe("the run's first GET /events", () => {
  it(
    "is read by discovery as the unfiltered query's first page when it answered 2xx",
    async () => {
      unfiltered = 0;
      refuseFirst = false;
      const { code, events, stderr } = await run("answered");
      expect(code, stderr).toBe(0);
      expect(events).toBe(EVENTS);
      expect(unfiltered).toBe(1);
    },
    RUN,
  );

  it(
    "is asked again by discovery when it answered otherwise, and the run goes on",
    async () => {
      unfiltered = 0;
      refuseFirst = true;
      const { code, events, stderr } = await run("refused-once");
      expect(code, stderr).toBe(0);
      expect(events).toBe(EVENTS);
      expect(unfiltered).toBe(2);
    },
    RUN,
  );
});
