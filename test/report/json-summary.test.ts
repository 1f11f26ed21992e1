// The one object `tracecheck run --json` prints: what a CI step decides on, read from the run's outcome.
import { describe, expect, it } from "vitest";
import { diffReports, jsonSummary } from "../../src/report/index.ts";
import { report, requirement } from "./build-report.ts";

describe("jsonSummary", () => {
  it("names the failed, the undecided and, with a baseline, the regressed requirements", () => {
    const before = report([requirement("A", "pass"), requirement("B", "pass"), requirement("C", "pass")]);
    const after = report([requirement("A", "fail"), requirement("B", "error"), requirement("C", "pass")], {
      verdict: "fail",
      exitCode: 1,
    });
    after.changes = { baseline: "/old/report.json", ...diffReports(before, after) };
    const out = jsonSummary({ exitCode: 1, report: after }, "/r");
    expect([out.failed, out.errored, out.regressed]).toEqual([["A"], ["B"], ["A"]]);
    expect(out.reports?.json).toBe("/r/report.json");
  });

  it("gives an empty list of regressions without a baseline", () => {
    const r = report([requirement("A", "fail")], { verdict: "fail", exitCode: 1 });
    expect(jsonSummary({ exitCode: 1, report: r }, "/r").regressed).toEqual([]);
  });

  it("carries the reason of a run that wrote no report, and points at no reports", () => {
    const out = jsonSummary({ exitCode: 2, reason: "--target must be an absolute http(s) URL." }, undefined);
    expect(out).toEqual({
      verdict: "incomplete",
      exitCode: 2,
      summary: null,
      failed: [],
      errored: [],
      regressed: [],
      reports: null,
      incompleteReason: "--target must be an absolute http(s) URL.",
    });
  });
});
