// The exit status against a reference with a named fault, and what --baseline and diff make of the change.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/engine/types.ts";
import { type CliResult, runCli, tempDir } from "../support/cli.ts";
import { readReports } from "../support/run-reports.ts";

// Runs of the events class only, on a loaded machine; this only bounds a hang.
const RUN = 600_000;
const FAULT = "lt-event-inclusive";
const VIOLATED = "EVT-TIME-LT-EVENT";
const REGRESSED = new RegExp(`newly failing \\(\\d+\\)\\n(  .*\\n)*  ${VIOLATED}\\s+pass -> fail`);
const RECOVERED = new RegExp(`newly passing \\(\\d+\\)\\n(  .*\\n)*  ${VIOLATED}\\s+fail -> pass`);
const EVENTS_RUN = ["--suite", "events", "--seed", "3", "--runs", "10", "--quiet"];

let dir: string;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ dir, remove } = await tempDir("faulted"));
});
afterAll(() => remove());

function explain(r: CliResult): string {
  return `exit ${r.code}\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}`;
}

function statusOf(report: Report, id: string): string | undefined {
  return report.requirements.find((r) => r.id === id)?.status;
}

let faulted: Promise<CliResult & { report: string }> | undefined;
/** The faulted run, without a baseline, shared by the tests that read it. */
function faultedRun() {
  faulted ??= runCli([
    "run",
    "--faults",
    FAULT,
    ...EVENTS_RUN,
    "--report-dir",
    path.join(dir, "faulted"),
  ]).then((r) => ({ ...r, report: path.join(dir, "faulted", "report.json") }));
  return faulted;
}

let clean: Promise<CliResult & { report: string }> | undefined;
/** A run without the fault, compared with the faulted run's report through --baseline. */
async function cleanRun() {
  const { report } = await faultedRun();
  clean ??= runCli([
    "run",
    ...EVENTS_RUN,
    "--baseline",
    report,
    "--report-dir",
    path.join(dir, "clean"),
  ]).then((r) => ({ ...r, report: path.join(dir, "clean", "report.json") }));
  return clean;
}

describe(`run --faults ${FAULT} --suite events --seed 3`, () => {
  it(
    `exits 1 with ${VIOLATED} failed, with evidence`,
    async () => {
      const r = await faultedRun();
      expect(r.code, explain(r)).toBe(1);
      const { json } = readReports(path.dirname(r.report));
      const failed = json.requirements.find((q) => q.id === VIOLATED);
      expect(failed?.status).toBe("fail");
      expect(failed?.evidence.length).toBeGreaterThan(0);
      expect(r.stdout).toContain(VIOLATED);
    },
    RUN,
  );

  it(
    "leaves the classes not selected skipped with the reason",
    async () => {
      const { json } = readReports(path.dirname((await faultedRun()).report));
      const others = json.requirements.filter((q) => q.class !== "events");
      expect(others.length).toBeGreaterThan(0);
      for (const q of others) {
        expect(q.status).toBe("skip");
        expect(q.reason).toContain("--suite");
      }
    },
    RUN,
  );
});

describe("--baseline on run, and diff", () => {
  it(
    "a clean run against the faulted run's report exits 0: nothing regressed, the requirement recovered",
    async () => {
      const r = await cleanRun();
      expect(r.code, explain(r)).toBe(0);
      expect(statusOf(readReports(path.dirname(r.report)).json, VIOLATED)).toBe("pass");
      expect(r.stdout).toMatch(RECOVERED);
      expect(r.stdout).toContain("no regression");
    },
    RUN,
  );

  it(
    "the faulted run against a clean report exits 1 and names the regression",
    async () => {
      const { report } = await cleanRun();
      const r = await runCli([
        "run",
        "--faults",
        FAULT,
        ...EVENTS_RUN,
        "--baseline",
        report,
        "--report-dir",
        path.join(dir, "regressed"),
      ]);
      expect(r.code, explain(r)).toBe(1);
      expect(r.stdout).toMatch(REGRESSED);
      expect(r.stdout).toContain("regressed:");
    },
    RUN,
  );

  it(
    "diff clean faulted exits 1; diff faulted clean exits 0",
    async () => {
      const [{ report: bad }, { report: good }] = await Promise.all([faultedRun(), cleanRun()]);
      const worse = await runCli(["diff", good, bad]);
      expect(worse.code, explain(worse)).toBe(1);
      expect(worse.stdout).toMatch(REGRESSED);
      const better = await runCli(["diff", bad, good]);
      expect(better.code, explain(better)).toBe(0);
      expect(better.stdout).toMatch(RECOVERED);
    },
    RUN,
  );
});
