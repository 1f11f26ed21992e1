// The auth class probes GET /events with a query for one EPC; a target that refuses that query with 413 has judged
// the query, not the key, so its key checks are read from the answer all the same and only EVT-413-NARROW fails.
import { afterAll, beforeAll, expect, test } from "vitest";
import { runCli, tempDir } from "../support/cli.ts";
import { readReports, type WrittenReports } from "../support/run-reports.ts";

let out: { dir: string; remove(): Promise<void> };
let reports: WrittenReports;
let code: number | null;

beforeAll(async () => {
  out = await tempDir("auth-413");
  const run = await runCli([
    "run",
    "--suite",
    "auth,events",
    "--faults",
    "narrow-413",
    "--seed",
    "1",
    "--runs",
    "5",
    "--events",
    "60",
    "--report-dir",
    out.dir,
  ]);
  code = run.code;
  reports = readReports(out.dir);
}, 240_000);

afterAll(async () => {
  await out?.remove();
});

test("a narrow query refused with 413 fails EVT-413-NARROW and leaves the key checks to the answers", () => {
  expect(code).toBe(1);
  const status = (id: string) => reports.json.requirements.find((r) => r.id === id)?.status;
  expect(status("EVT-413-NARROW")).toBe("fail");
  for (const id of ["AUTH-HEADER", "AUTH-WRONG", "AUTH-MISSING"]) expect(status(id), id).toBe("pass");
});
