// The regression journey, walked through the real command line: run, break the sender, run again into the same
// report directory with --baseline pointing at the report that run will overwrite. The baseline is read before
// anything is written, so the second run diffs against the first, exits 1, names what regressed and records it.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Report } from "../../src/engine/types.ts";
import { runCli, tempDir } from "../support/cli.ts";

let work: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  work = await tempDir("regression");
});

afterAll(async () => {
  await work.remove();
});

test("a pass that turns into a failure is printed as a regression and exits 1", async () => {
  const dir = path.join(work.dir, "reports");
  const common = [
    "run",
    "--suite",
    "events",
    "--seed",
    "3",
    "--runs",
    "5",
    "--events",
    "60",
    "--report-dir",
    dir,
  ];
  const first = await runCli(common);
  expect(first.code, first.stderr).toBe(0);
  const before = JSON.parse(await readFile(path.join(dir, "report.json"), "utf8")) as Report;
  expect(before.requirements.find((r) => r.id === "EVT-TIME-LT-EVENT")?.status).toBe("pass");

  const second = await runCli([
    ...common,
    "--faults",
    "lt-event-inclusive",
    "--baseline",
    path.join(dir, "report.json"),
    "--json",
  ]);
  expect(second.code, second.stderr).toBe(1);
  // With --json the diff a person reads goes to stderr, and stdout is the one object, naming the regression.
  expect(second.stderr).toMatch(/EVT-TIME-LT-EVENT[^\n]*pass[^\n]*fail/);
  const summary = JSON.parse(second.stdout) as { regressed: string[]; failed: string[] };
  expect(summary.regressed).toEqual(["EVT-TIME-LT-EVENT"]);
  expect(summary.failed).toContain("EVT-TIME-LT-EVENT");
  const after = JSON.parse(await readFile(path.join(dir, "report.json"), "utf8")) as Report;
  expect(after.requirements.find((r) => r.id === "EVT-TIME-LT-EVENT")?.status).toBe("fail");
  expect(after.verdict).toBe("fail");
  expect(after.exitCode).toBe(1);
  // The diff printed is recorded in the report, against the file it was read from.
  expect(after.changes?.baseline).toBe(path.join(dir, "report.json"));
  expect(after.changes?.newlyFailing).toEqual([{ id: "EVT-TIME-LT-EVENT", from: "pass", to: "fail" }]);
  expect(after.changes?.regressed).toBe(true);
  const html = await readFile(path.join(dir, "report.html"), "utf8");
  expect(html).toContain('<h2 id="changes">Changes since the baseline</h2>');
  expect(html).toMatch(/regressed against the baseline/);
}, 600_000);
