// `tracecheck receiver` and `tracecheck trace` as a vendor's QA engineer runs them: the setup handed over as JSON
// lines and as environment variables, the three ways a recording ends (the command, an idle spell, a signal),
// the reports, and the mistakes a user can make on the command line.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "../../src/cli/parse.ts";
import { receiverCommand, traceCommand } from "../../src/cli/receiver.ts";
import type { Report } from "../../src/engine/types.ts";
import { readDatasetFile } from "../../src/generate/index.ts";
import { resolveRunOptions, UsageError } from "../../src/harness/options.ts";
import { runTrace, TraceError } from "../../src/receiver/index.ts";
import { validateReport } from "../../src/report/index.ts";
import { BIN, childEnv, REPO_ROOT, runCli, tempDir } from "../support/cli.ts";

let tmp: { dir: string; remove(): Promise<void> };

beforeAll(async () => {
  tmp = await tempDir("receiver-cli");
});

afterAll(async () => {
  await tmp?.remove();
});

const SMALL = ["--seed", "1", "--events", "60"];

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function report(dir: string): Promise<Report> {
  const parsed: unknown = JSON.parse(await readFile(path.join(dir, "report.json"), "utf8"));
  expect(validateReport(parsed).errors).toEqual([]);
  return parsed as Report;
}

const status = (r: Report, id: string) => r.requirements.find((x) => x.id === id)?.status;

describe("tracecheck receiver -- a receiver command", () => {
  it("hands the setup over in the command's environment and passes the reference receiver against a sender that refuses all but narrow queries", async () => {
    const dir = path.join(tmp.dir, "narrow");
    const out = path.join(tmp.dir, "trace.json");
    // The receiver reads only the environment, as a vendor's script would.
    const script =
      'exec "$0" "$1" trace "$TRACECHECK_TASK" --target "$TRACECHECK_EVENTS_URL" --resolver "$TRACECHECK_RESOLVER_URL" --api-key "$TRACECHECK_API_KEY" --out "$2" --quiet';
    const run = await runCli([
      "receiver",
      "--json",
      ...SMALL,
      "--reference-config",
      "narrow-windows",
      "--report-dir",
      dir,
      "--",
      "sh",
      "-c",
      script,
      process.execPath,
      BIN,
      out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines[0]).toMatchObject({ kind: "setup", referenceConfig: "narrow-windows" });
    expect(String(lines[0]!.task)).toMatch(/^https:\/\/id\.gs1\.org\/01\/\d{14}\/(10|21)\//);
    expect(String(lines[0]!.party)).toMatch(/^https:\/\/id\.gs1\.org\/417\/\d{13}$/);
    expect(lines.at(-1)).toMatchObject({ kind: "summary", verdict: "pass", exitCode: 0, failed: [] });
    const r = await report(dir);
    expect(new Set(r.requirements.map((x) => x.class))).toEqual(new Set(["receiver"]));
    expect(status(r, "RCV-413-NARROW")).toBe("pass");
    expect(status(r, "RCV-TIME-UTC")).toBe("pass");
    // Every pass carries the recorded request(s) that decide it.
    for (const x of r.requirements.filter((q) => q.status === "pass")) {
      expect(x.evidence.length, x.id).toBeGreaterThan(0);
      for (const e of x.evidence) expect(e.request?.url, x.id).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    }
    expect(JSON.stringify(r)).not.toContain(String(lines[0]!.apiKey));
    const trace = await readDatasetFile(out);
    expect(trace.events.length).toBeGreaterThanOrEqual(r.baseline!.events);
    expect(trace.masterData.length).toBeGreaterThan(0);
  }, 120_000);

  it("passes the reference receiver, warning-free, against a sender that matches identifiers only as its events write them", async () => {
    // The same product is written as a Digital Link in some events and as an EPC URN in others: a receiver
    // that asks only one form misses the events of the other and warns under RCV-TRACE-EVENTS.
    const dir = path.join(tmp.dir, "as-written");
    const run = await runCli([
      "receiver",
      "--json",
      "--seed",
      "1",
      "--events",
      "200",
      "--reference-config",
      "as-written",
      "--report-dir",
      dir,
      "--",
      process.execPath,
      BIN,
      "trace",
      "--quiet",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const r = await report(dir);
    expect(r.requirements.filter((x) => x.status === "warn" || x.status === "fail").map((x) => x.id)).toEqual(
      [],
    );
    expect(status(r, "RCV-TRACE-EVENTS")).toBe("pass");
  }, 120_000);

  it("ends after --until-idle seconds without a request, and fails a receiver that fetched nothing", async () => {
    const dir = path.join(tmp.dir, "idle");
    const run = await runCli(["receiver", "--json", ...SMALL, "--until-idle", "0.5", "--report-dir", dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("no request for 0.5 s");
    const summary = jsonLines(run.stdout).at(-1)!;
    expect(summary.failed).toEqual(expect.arrayContaining(["RCV-PRODUCT-EVENTS", "RCV-CANONICAL-REBASE"]));
    const r = await report(dir);
    expect(r.interrupted).toBeUndefined();
  }, 60_000);

  it("takes SIGINT as the end of the recording and judges what was sent before it", async () => {
    const dir = path.join(tmp.dir, "signal");
    const child = spawn(process.execPath, [BIN, "receiver", "--json", ...SMALL, "--report-dir", dir], {
      cwd: REPO_ROOT,
      env: childEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stderr.resume();
    const setup = await new Promise<Record<string, string>>((resolve) => {
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        const first = stdout === "" || !stdout.includes("\n");
        stdout += d;
        if (first && stdout.includes("\n")) resolve(JSON.parse(stdout.split("\n")[0]!));
      });
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const path01 = setup.task!.slice("https://id.gs1.org".length);
    const answer = await fetch(`${setup.resolverUrl}${path01}?linkType=linkset`, {
      headers: { "X-API-Key": setup.apiKey! },
    });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    child.kill("SIGINT");
    expect(await exited).toBe(1);
    const r = await report(dir);
    expect(r.interrupted).toBeUndefined();
    expect(status(r, "RCV-KEY-HEADER")).toBe("pass");
    expect(status(r, "RCV-LINKSET")).toBe("pass");
    expect(status(r, "RCV-CANONICAL-REBASE")).toBe("pass");
    expect(status(r, "RCV-PRODUCT-EVENTS")).toBe("fail");
    expect(jsonLines(stdout).at(-1)).toMatchObject({ kind: "summary", exitCode: 1 });
  }, 60_000);
});

describe("mistakes on the command line", () => {
  it("exit 2 with a sentence that says what to do", async () => {
    const run = await runCli(["receiver", "--reference-config", "no-such"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown configuration "no-such"; known: paged, refuse-broad/);
  }, 30_000);

  it.each([
    [["--until-idle", "0"], /--until-idle must be a number of seconds above 0/],
    [["--"], /-- must be followed by the receiver's command/],
    [["stray"], /put the receiver's command after --/],
    [["--dataset", "x.json", "--seed", "2"], /either --dataset or --seed/],
  ])("receiver %j is refused before anything starts", async (args, message) => {
    await expect(receiverCommand(args, parse, "")).rejects.toThrow(message);
  });

  it.each([
    [["--target", "http://127.0.0.1:9"], /trace needs the product to trace/],
    [["https://id.gs1.org/01/09506000134352/21/A"], /trace needs --target/],
    [
      ["https://id.gs1.org/01/09506000134352/21/A", "--target", "ftp://x"],
      /--target must be an absolute http/,
    ],
    [
      ["https://id.gs1.org/01/09506000134352/21/A", "--target", "http://x", "--faults", "nope"],
      /unknown receiver fault nope/,
    ],
    [
      ["https://id.gs1.org/01/09506000134352/21/A", "--target", "http://x", "--resolve", "guess"],
      /--resolve must be linkset or redirect, got "guess"/,
    ],
  ])("trace %j is refused before anything starts", async (args, message) => {
    const saved = { ...process.env };
    for (const k of Object.keys(process.env)) if (k.startsWith("TRACECHECK_")) delete process.env[k];
    try {
      await expect(traceCommand(args, parse, "")).rejects.toThrow(message);
    } finally {
      Object.assign(process.env, saved);
    }
  });

  it("trace names an identifier that is no product for what it is", async () => {
    const run = await runTrace({
      identifier: "https://example.com/nothing",
      eventsBase: "http://127.0.0.1:9",
    }).catch((e: unknown) => e);
    expect(run).toBeInstanceOf(TraceError);
    expect((run as Error).message).toMatch(/neither a GS1 Digital Link URI nor an EPC URN/);
  });

  it("tracecheck run does not take the receiver class and says which command does", () => {
    expect(() => resolveRunOptions({ suite: ["receiver"] }, {}, {})).toThrow(UsageError);
    expect(() => resolveRunOptions({ suite: ["receiver"] }, {}, {})).toThrow(
      /check a receiver with tracecheck receiver/,
    );
    expect(resolveRunOptions({}, {}, {}).suites).not.toContain("receiver");
  });
});
