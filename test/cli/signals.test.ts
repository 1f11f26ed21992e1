// SIGINT and SIGTERM stop a run promptly: the reports of what finished are written, marked interrupted, the
// temporary files are gone, and the exit status is 130 or 143 (CONTRACT.md).
import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Report } from "../../src/engine/types.ts";
import { BIN, childEnv, REPO_ROOT, tempDir } from "../support/cli.ts";

let work: Awaited<ReturnType<typeof tempDir>>;
let server: Server;
let origin: string;
/** Whether the run under way has had its first GET /events answered. */
let answered = false;

beforeAll(async () => {
  work = await tempDir("signals");
  // Answers a run's first GET /events at once, linking a next page, then nothing again: the run is caught
  // mid-discovery, waiting for that page.
  server = createServer((req, res) => {
    if (!answered && req.url === "/events") {
      answered = true;
      res.writeHead(200, { "content-type": "application/json", link: '</events?page=2>; rel="next"' });
      res.end(
        JSON.stringify({
          type: "EPCISQueryDocument",
          epcisBody: { queryResults: { resultsBody: { eventList: [] } } },
        }),
      );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await work.remove();
});

/** Starts a run, sends `signal` once it says it is discovering, and resolves with what it left. */
function interrupted(signal: "SIGINT" | "SIGTERM", label: string) {
  answered = false;
  const reportDir = path.join(work.dir, label, "reports");
  const tmp = path.join(work.dir, label, "tmp");
  return new Promise<{ code: number | null; stdout: string; stderr: string; reportDir: string; tmp: string }>(
    (resolve, reject) => {
      import("node:fs/promises")
        .then((fs) => fs.mkdir(tmp, { recursive: true }))
        .then(() => {
          const child = spawn(
            process.execPath,
            [
              BIN,
              "run",
              "--target",
              origin,
              "--api-key",
              "k",
              "--timeout",
              "60000",
              "--json",
              "--report-dir",
              reportDir,
            ],
            { cwd: REPO_ROOT, env: childEnv({ TMPDIR: tmp }), stdio: ["ignore", "pipe", "pipe"] },
          );
          let stdout = "";
          let stderr = "";
          let sent = false;
          child.stdout.setEncoding("utf8").on("data", (d: string) => {
            stdout += d;
          });
          child.stderr.setEncoding("utf8").on("data", (d: string) => {
            stderr += d;
            if (!sent && stderr.includes("discovering")) {
              sent = true;
              child.kill(signal);
            }
          });
          child.on("error", reject);
          child.on("close", (code) => resolve({ code, stdout, stderr, reportDir, tmp }));
        }, reject);
    },
  );
}

describe.each([
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const)("%s during a run", (signal, exit) => {
  test(`exits ${exit}, writes the reports marked interrupted and removes its temporary files`, async () => {
    const r = await interrupted(signal, signal.toLowerCase());
    expect(r.code, r.stderr).toBe(exit);
    expect(r.stderr).toContain(`${signal} received`);
    const report = JSON.parse(await readFile(path.join(r.reportDir, "report.json"), "utf8")) as Report;
    expect(report.interrupted).toBe(true);
    expect(report.verdict).toBe("incomplete");
    expect(report.exitCode).toBe(exit);
    expect(report.summary.fail).toBe(0);
    await expect(readFile(path.join(r.reportDir, "junit.xml"), "utf8")).resolves.toContain("<testsuite");
    // Only tracecheck's own folders count; the TypeScript loader keeps a cache of its own there.
    expect((await readdir(r.tmp)).filter((name) => name.startsWith("tracecheck-"))).toEqual([]);
    // --json: stdout is the one summary object, and it says the same.
    const summary = JSON.parse(r.stdout) as { verdict: string; exitCode: number; interrupted?: boolean };
    expect(summary).toMatchObject({ verdict: "incomplete", exitCode: exit, interrupted: true });
  });
});
