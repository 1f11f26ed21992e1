// `tracecheck run` end to end against the embedded reference and against a separately started `serve`: exit
// status, the three reports, determinism under a seed, and the key kept out of everything written.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRegistry, type Registry } from "../../src/engine/registry.ts";
import { SENDER_CLASSES } from "../../src/engine/types.ts";
import { validateReport } from "../../src/report/index.ts";
import { type CliResult, runCli, tempDir } from "../support/cli.ts";
import { readReports, reportsExist, statusList } from "../support/run-reports.ts";
import { type ServeProcess, startServe } from "../support/serve.ts";

// A full run against the embedded reference takes a while on a loaded machine; this only bounds a hang.
const FULL_RUN = 600_000;
const KEY = "s3cr3t-value-123";

let dir: string;
let remove: () => Promise<void>;
let registry: Registry;
let serve: ServeProcess | undefined;

beforeAll(async () => {
  ({ dir, remove } = await tempDir("run"));
  const full = await loadRegistry();
  // A sender's report lists the sender classes; the receiver class is tracecheck receiver's.
  registry = { ...full, requirements: full.requirements.filter((r) => SENDER_CLASSES.includes(r.class)) };
});
afterAll(async () => {
  await serve?.stop();
  await remove();
});

/** Runs tracecheck once per name, however many tests ask for the result. */
const started = new Map<string, Promise<CliResult & { reportDir: string }>>();
function runOnce(name: string, args: () => string[]): Promise<CliResult & { reportDir: string }> {
  let run = started.get(name);
  if (!run) {
    const reportDir = path.join(dir, name);
    run = runCli(["run", ...args(), "--report-dir", reportDir]).then((r) => ({ ...r, reportDir }));
    started.set(name, run);
  }
  return run;
}

const embedded7 = () => runOnce("embedded-seed-7", () => ["--seed", "7"]);
const embedded5 = (n: 1 | 2) =>
  runOnce(`embedded-seed-5-${n}`, () => ["--seed", "5", "--runs", "5", "--quiet"]);
const served5 = async () => {
  serve ??= await startServe(["--seed", "5", "--events", "200", "--api-key", KEY]);
  const { eventsBase } = serve;
  return runOnce("served-seed-5", () => [
    "--target",
    eventsBase,
    "--api-key",
    KEY,
    "--seed",
    "5",
    "--runs",
    "5",
  ]);
};

function explain(r: CliResult): string {
  return `exit ${r.code}\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}`;
}

describe("a full run against the embedded reference", () => {
  it(
    "run --seed 7 exits 0 and writes report.json, junit.xml and report.html",
    async () => {
      const r = await embedded7();
      expect(r.code, explain(r)).toBe(0);
      expect(reportsExist(r.reportDir)).toBe(true);
      expect(r.stdout).toContain(r.reportDir);
      expect(r.stderr).toContain("seed 7");
    },
    FULL_RUN,
  );

  it(
    "report.json validates, has seed 7, one entry per requirement, and no fail or warn",
    async () => {
      const r = await embedded7();
      const { json } = readReports(r.reportDir);
      expect(validateReport(json).errors).toEqual([]);
      expect(json.seed).toBe(7);
      expect(json.target.events).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(json.requirements.map((q) => q.id)).toEqual(registry.requirements.map((q) => q.id));
      const bad = json.requirements.filter(
        (q) => q.status === "fail" || q.status === "warn" || q.status === "error",
      );
      expect(bad.map((q) => `${q.id} ${q.status}: ${q.reason ?? ""}`)).toEqual([]);
      expect(json.summary.fail).toBe(0);
      expect(json.summary.warn).toBe(0);
      expect(json.baseline?.method).toBe("unfiltered");
      expect(json.baseline?.complete).toBe(true);
    },
    FULL_RUN,
  );

  it(
    "a pass of the events class carries, as its proof, a query its own check sent",
    async () => {
      const { json } = readReports((await embedded7()).reportDir);
      const passes = json.requirements.filter((q) => q.class === "events" && q.status === "pass");
      expect(passes.length).toBeGreaterThan(20);
      const proven = passes.filter((q) => (q.evidence ?? []).some((e) => e.request !== undefined));
      // Work shared by several checks is done once, by whichever asks first, so a few passes carry none; were the
      // exchanges given to no check, or all to one, nearly none would.
      expect(proven.length).toBeGreaterThanOrEqual(Math.ceil(passes.length * 0.75));
      for (const q of proven) {
        const urls = (q.evidence ?? []).flatMap((e) => (e.request === undefined ? [] : [e.request.url]));
        expect(
          urls.some((url) => url.startsWith(`${json.target.events}/events`)),
          q.id,
        ).toBe(true);
      }
      // Each proof is its own check's: the same query rarely proves two checks.
      const proofs = new Set(proven.map((q) => JSON.stringify(q.evidence?.[0]?.request)));
      expect(proofs.size).toBeGreaterThan(proven.length / 2);
    },
    FULL_RUN,
  );

  it(
    "junit.xml parses and has one testcase per requirement",
    async () => {
      const { junitCases } = readReports((await embedded7()).reportDir);
      expect(junitCases).toHaveLength(registry.requirements.length);
      const named = junitCases.map((c) => c.name.split(" ")[0]).sort();
      expect(named).toEqual(registry.requirements.map((q) => q.id).sort());
    },
    FULL_RUN,
  );

  it(
    "report.html parses and shows every requirement id",
    async () => {
      const { html } = readReports((await embedded7()).reportDir);
      const text = html.text;
      const missing = registry.requirements.filter((q) => !text.includes(q.id)).map((q) => q.id);
      expect(missing).toEqual([]);
      expect(html.querySelector("title")).not.toBeNull();
    },
    FULL_RUN,
  );

  it(
    "the same seed twice gives the same verdict for every requirement",
    async () => {
      const [a, b] = await Promise.all([embedded5(1), embedded5(2)]);
      expect(a.code, explain(a)).toBe(0);
      expect(b.code, explain(b)).toBe(0);
      const first = readReports(a.reportDir).json;
      const second = readReports(b.reportDir).json;
      expect(statusList(second)).toEqual(statusList(first));
      expect(first.seed).toBe(5);
      expect(first.runs).toBe(5);
    },
    FULL_RUN,
  );
});

describe("a full run against a separately started serve", () => {
  it(
    "gives the same verdicts as the embedded reference built from the same seed and event count",
    async () => {
      const [target, embedded] = await Promise.all([served5(), embedded5(1)]);
      expect(target.code, explain(target)).toBe(0);
      const fromTarget = readReports(target.reportDir).json;
      expect(fromTarget.target.events).toBe(serve?.eventsBase);
      expect(statusList(fromTarget)).toEqual(statusList(readReports(embedded.reportDir).json));
    },
    FULL_RUN,
  );

  it(
    "never writes the key: not on the console, not in any report",
    async () => {
      const r = await served5();
      expect(r.code, explain(r)).toBe(0);
      const { text } = readReports(r.reportDir);
      const places = { stdout: r.stdout, stderr: r.stderr, ...text };
      for (const [where, content] of Object.entries(places)) {
        expect(content.includes(KEY), `${where} contains the key`).toBe(false);
        expect(content.includes(encodeURIComponent(KEY)), `${where} contains the key encoded`).toBe(false);
      }
      expect(serve?.output().stdout).not.toContain(KEY);
      expect(serve?.output().stderr).not.toContain(KEY);
    },
    FULL_RUN,
  );
});
