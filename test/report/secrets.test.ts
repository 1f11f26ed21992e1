import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  diffReports,
  formatDiff,
  formatSummary,
  progressLine,
  toHtml,
  toJunit,
  writeReports,
} from "../../src/report/index.ts";
import { everyStatus } from "./build-report.ts";

// Reporters print what the report holds and nothing else: a key in the environment must never leak into them.
const KEY = "tc-secret-7f3a9c1e5b";
const saved = process.env["TRACECHECK_API_KEY"];
const tmp = await mkdtemp(path.join(tmpdir(), "tracecheck-secret-"));

beforeAll(() => {
  process.env["TRACECHECK_API_KEY"] = KEY;
  process.env["TRACECHECK_SECRET_PROBE"] = KEY;
});
afterAll(async () => {
  if (saved === undefined) delete process.env["TRACECHECK_API_KEY"];
  else process.env["TRACECHECK_API_KEY"] = saved;
  delete process.env["TRACECHECK_SECRET_PROBE"];
  await rm(tmp, { recursive: true, force: true });
});

describe("reporters", () => {
  it("add nothing from the environment to any output", async () => {
    const r = everyStatus();
    const paths = await writeReports(r, tmp);
    const outputs = [
      await readFile(paths.json, "utf8"),
      await readFile(paths.junit, "utf8"),
      await readFile(paths.html, "utf8"),
      toJunit(r),
      toHtml(r),
      formatSummary(r, { color: true }),
      formatSummary(r, { color: false }),
      formatDiff(diffReports(r, r), { color: true }),
      progressLine({ class: "auth", done: 1, total: 1, id: "AUTH-HEADER", status: "pass" }, { color: true }),
    ];
    for (const out of outputs) {
      expect(out.length).toBeGreaterThan(0);
      expect(out).not.toContain(KEY);
    }
  });

  it("keep the curl line's placeholder as the report gives it", () => {
    expect(toJunit(everyStatus())).toContain("$TRACECHECK_API_KEY");
    expect(toHtml(everyStatus())).toContain("$TRACECHECK_API_KEY");
  });
});
