// A run that cannot be completed exits 2 with one sentence saying why, and, once its report directory has been
// found writable, leaves report.json and junit.xml behind marked incomplete, so that a CI job always has an
// artefact to show. Mistakes found before the first request cost no request at all.
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Report } from "../../src/engine/types.ts";
import { validateReport } from "../../src/report/index.ts";
import { runCli, tempDir } from "../support/cli.ts";
import { expectOneSentence } from "../support/sentence.ts";

let work: Awaited<ReturnType<typeof tempDir>>;
let server: Server;
let origin: string;
let hits = 0;

beforeAll(async () => {
  work = await tempDir("incomplete");
  // A target that never answers: each request waits for the client's timeout.
  server = createServer(() => {
    hits += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await work.remove();
});

async function report(dir: string): Promise<Report> {
  return JSON.parse(await readFile(path.join(dir, "report.json"), "utf8")) as Report;
}

describe("a target that never answers", () => {
  test("exits 2 saying so, and writes report.json and junit.xml marked incomplete", async () => {
    const dir = path.join(work.dir, "silent");
    const r = await runCli([
      "run",
      "--target",
      origin,
      "--api-key",
      "k-1",
      "--timeout",
      "500",
      "--report-dir",
      dir,
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/unreachable .*within 500 ms/);
    const written = await report(dir);
    expect(validateReport(written).valid).toBe(true);
    expect(written.verdict).toBe("incomplete");
    expect(written.exitCode).toBe(2);
    expect(written.incompleteReason).toMatch(/unreachable/);
    expect(written.options?.suites.length).toBeGreaterThan(0);
    expect(written.options?.definition.sha256).toMatch(/^[0-9a-f]{64}$/);
    // Nothing was decided, so nothing passed and nothing failed.
    expect(written.summary.pass + written.summary.fail).toBe(0);
    expect(written.summary.error).toBeGreaterThan(0);
    const junit = await readFile(path.join(dir, "junit.xml"), "utf8");
    expect(junit).toContain("<error");
    expect(r.stdout + r.stderr).not.toContain("k-1");
  });
});

describe("a target that refuses the key", () => {
  test("exits 2 saying the key was refused, not that the vendor failed", async () => {
    const refusing = createServer((_req, res) => {
      res.writeHead(401, { "content-type": "application/problem+json" });
      res.end(JSON.stringify({ title: "Unauthorized", status: 401 }));
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const at = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
    try {
      const dir = path.join(work.dir, "refused");
      const r = await runCli(["run", "--target", at, "--api-key", "mistyped-key", "--report-dir", dir]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/refused the API key .*--api-key/);
      const written = await report(dir);
      expect(written.verdict).toBe("incomplete");
      expect(written.summary.fail).toBe(0);
      expect(JSON.stringify(written)).not.toContain("mistyped-key");
    } finally {
      refusing.closeAllConnections();
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});

describe("mistakes found before the first request", () => {
  test("a report directory that cannot be written: one sentence, exit 2, no request", async () => {
    const before = hits;
    const blocked = path.join(work.dir, "a-file");
    await writeFile(blocked, "not a directory");
    const r = await runCli(["run", "--target", origin, "--report-dir", path.join(blocked, "reports")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/report directory .* cannot be written .*--report-dir/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(hits).toBe(before);
  });

  test("a directory without write permission is found too", async () => {
    // root writes anywhere, so the permission check only means something for other users.
    if (process.getuid?.() === 0) {
      const r = await runCli(["run", "--target", origin, "--report-dir", "/proc/tracecheck-reports"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/report directory .* cannot be written/);
      return;
    }
    const dir = path.join(work.dir, "read-only");
    await mkdir(dir);
    await chmod(dir, 0o500);
    const r = await runCli(["run", "--target", origin, "--report-dir", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/report directory .* cannot be written/);
  });

  test.each([
    ["not JSON", "{ not json"],
    ["JSON but not a report", JSON.stringify({ hello: "world" })],
  ])(
    "a --baseline that is %s: one sentence, exit 2, no request, and an incomplete report over a stale pass",
    async (label, text) => {
      const before = hits;
      const dir = path.join(work.dir, `b-${label.replace(/\W+/g, "-")}`);
      // An earlier run's passing report in the directory, as a CI job that archives reports/ would keep it.
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, "report.json"), JSON.stringify({ verdict: "pass", exitCode: 0 }));
      await writeFile(path.join(dir, "junit.xml"), '<testsuites name="tracecheck" failures="0"/>');
      const file = path.join(dir, "baseline.json");
      await writeFile(file, text);
      const r = await runCli(["run", "--target", origin, "--baseline", file, "--report-dir", dir]);
      expect(r.code).toBe(2);
      const sentence = /--baseline .* (is not a readable JSON file|is not a tracecheck report)/;
      expect(r.stderr).toMatch(sentence);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(hits).toBe(before);
      const written = await report(dir);
      expect([written.verdict, written.exitCode]).toEqual(["incomplete", 2]);
      expect(written.incompleteReason).toMatch(sentence);
      expect(await readFile(path.join(dir, "junit.xml"), "utf8")).toContain("<error");
    },
  );

  test.each([
    ["truncated", '{"type":"EPCISDocument","epcisBody":{"eventList":[{"type":"ObjectEvent"'],
    ["a JSON array", "[]"],
  ])(
    "a --dataset that is %s: one sentence, exit 2, no request, an incomplete report",
    async (label, text) => {
      const before = hits;
      const dir = path.join(work.dir, `dataset-${label.replace(/\W+/g, "-")}`);
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, "dataset.json");
      await writeFile(file, text);
      const r = await runCli(["run", "--target", origin, "--dataset", file, "--report-dir", dir]);
      expect(r.code).toBe(2);
      const line = r.stderr.split("\n").find((l) => l.includes("--dataset"));
      expect(line).toMatch(/^tracecheck: --dataset .* is not a dataset tracecheck can read: /);
      expectOneSentence(line!.slice("tracecheck: ".length));
      expect(r.stderr).not.toMatch(/harness error|\n\s+at /);
      expect(hits).toBe(before);
      expect((await report(dir)).incompleteReason).toBe(line!.slice("tracecheck: ".length));
    },
  );
});

describe("a --target that answers a web page", () => {
  test("exits 2 asking whether --target is the EPCIS query interface, with the exchange in the report", async () => {
    const page = "<!doctype html><html><body><h1>Welcome to our portal</h1></body></html>";
    const portal = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(page);
    });
    await new Promise<void>((resolve) => portal.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(portal.address() as AddressInfo).port}`;
      const dir = path.join(work.dir, "portal");
      const r = await runCli(["run", "--target", base, "--suite", "events", "--report-dir", dir]);
      expect(r.code).toBe(2);
      const reason = `GET ${base}/events answered text/html, not JSON: is --target the base of the EPCIS query interface?`;
      expect(r.stderr).toContain(reason);
      expect(r.stderr).not.toMatch(/no event of the target could be found|body excerpt/);
      const written = await report(dir);
      expect(written.incompleteReason).toBe(reason);
      expect(written.incompleteEvidence).toHaveLength(1);
      expect(written.incompleteEvidence![0]!.request?.url).toBe(`${base}/events`);
      expect(written.incompleteEvidence![0]!.response?.bodyExcerpt).toBe(page);
      const html = await readFile(path.join(dir, "report.html"), "utf8");
      expect(html).toContain('<h2 id="why-incomplete">Why the run is incomplete</h2>');
      expect(html).toContain("Welcome to our portal");
      expect(html).not.toContain("<h1>Welcome");
    } finally {
      portal.closeAllConnections();
      await new Promise<void>((resolve) => portal.close(() => resolve()));
    }
  });

  test("JSON under another media type is not taken for a web page: the checks judge its media type", async () => {
    const json = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end('{"type":"EPCISQueryDocument"}');
    });
    await new Promise<void>((resolve) => json.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(json.address() as AddressInfo).port}`;
      const dir = path.join(work.dir, "plain-json");
      const r = await runCli(["run", "--target", base, "--suite", "events", "--report-dir", dir]);
      expect(r.stderr).not.toContain("not JSON: is --target");
      expect((await report(dir)).incompleteEvidence).toBeUndefined();
    } finally {
      json.closeAllConnections();
      await new Promise<void>((resolve) => json.close(() => resolve()));
    }
  });
});
