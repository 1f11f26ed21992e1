import { describe, expect, it } from "vitest";
import type { Status } from "../../src/engine/types.ts";
import { diffReports, exitCodeFor, formatDiff } from "../../src/report/index.ts";
import { everyStatus, report, requirement } from "./build-report.ts";

function pair(changes: [string, Status | undefined, Status | undefined][]) {
  const side = (pick: 1 | 2) =>
    report(
      changes.flatMap((c) => {
        const status = c[pick];
        return status === undefined ? [] : [requirement(c[0], status)];
      }),
    );
  return diffReports(side(1), side(2));
}

describe("diffReports", () => {
  const d = pair([
    ["SAME-PASS", "pass", "pass"],
    ["SAME-FAIL", "fail", "fail"],
    ["P-F", "pass", "fail"],
    ["W-E", "warn", "error"],
    ["S-F", "skip", "fail"],
    ["F-P", "fail", "pass"],
    ["E-W", "error", "warn"],
    ["P-W", "pass", "warn"],
    ["F-E", "fail", "error"],
    ["F-S", "fail", "skip"],
    ["NEW", undefined, "fail"],
    ["GONE", "pass", undefined],
  ]);

  it("finds the newly failing: was pass, warn or skip, now fail", () => {
    expect(d.newlyFailing).toEqual([
      { id: "P-F", from: "pass", to: "fail" },
      { id: "S-F", from: "skip", to: "fail" },
    ]);
    expect(d.regressed).toBe(true);
  });

  it("counts a change to error as undecided, not as a regression", () => {
    const broken = pair([
      ["P-E", "pass", "error"],
      ["W-E", "warn", "error"],
      ["S-E", "skip", "error"],
    ]);
    expect(broken.newlyFailing).toEqual([]);
    expect(broken.changed.map((c) => c.id)).toEqual(["P-E", "W-E", "S-E"]);
    expect(broken.regressed).toBe(false);
  });

  it("finds the newly passing: was fail or error, now pass or warn", () => {
    expect(d.newlyPassing).toEqual([
      { id: "F-P", from: "fail", to: "pass" },
      { id: "E-W", from: "error", to: "warn" },
    ]);
  });

  it("puts every other change of status in changed, pass to warn included, without regressing", () => {
    expect(d.changed).toEqual([
      { id: "W-E", from: "warn", to: "error" },
      { id: "P-W", from: "pass", to: "warn" },
      { id: "F-E", from: "fail", to: "error" },
      { id: "F-S", from: "fail", to: "skip" },
    ]);
    const soft = pair([["P-W", "pass", "warn"]]);
    expect(soft.regressed).toBe(false);
  });

  it("lists added and removed requirements apart, a failing newcomer being no regression", () => {
    expect(d.added).toEqual(["NEW"]);
    expect(d.removed).toEqual(["GONE"]);
    const onlyNew = pair([["NEW", undefined, "fail"]]);
    expect(onlyNew.regressed).toBe(false);
    expect(onlyNew.newlyFailing).toEqual([]);
  });

  it("finds nothing between a report and itself", () => {
    const r = everyStatus();
    expect(diffReports(r, r)).toEqual({
      newlyFailing: [],
      newlyPassing: [],
      changed: [],
      added: [],
      removed: [],
      regressed: false,
    });
  });

  it("formats each kind of change, without escapes when colour is off", () => {
    const text = formatDiff(d, { color: false });
    expect(text).not.toContain("\u001b");
    expect(text).toMatch(/newly failing \(2\)\n {2}P-F +pass -> fail/);
    expect(text).toContain("newly passing (2)");
    expect(text).toContain("changed (4)");
    expect(text).toMatch(/added \(1\)\n {2}NEW/);
    expect(text).toMatch(/removed \(1\)\n {2}GONE/);
    expect(text.split("\n").at(-1)).toBe("regressed: 2 requirement(s) newly failing");
    expect(formatDiff(d, { color: true })).toContain("\u001b[31m");
  });

  it("says when nothing changed", () => {
    const r = everyStatus();
    expect(formatDiff(diffReports(r, r), { color: false })).toBe(
      "no requirement changed status\nno regression",
    );
  });
});

describe("exitCodeFor", () => {
  it.each([
    ["all pass", [requirement("A", "pass")], 0],
    ["a MUST fails", [requirement("A", "pass"), requirement("B", "fail")], 1],
    ["a MUST fails and another errors", [requirement("A", "error"), requirement("B", "fail")], 1],
    ["a MUST errors", [requirement("A", "pass"), requirement("B", "error")], 2],
    ["warnings and skips only", [requirement("A", "warn"), requirement("B", "skip")], 0],
    ["a SHOULD fails", [requirement("A", "fail", { level: "SHOULD" })], 0],
    ["a MAY errors", [requirement("A", "error", { level: "MAY" })], 0],
    ["nothing was checked", [], 0],
  ] as const)("%s gives %i", (_name, requirements, code) => {
    expect(exitCodeFor(report([...requirements]))).toBe(code);
  });

  it("gives 1 on a regression even when the new report alone would pass", () => {
    // A report of an older version may hold a fail at SHOULD; the diff alone then decides.
    const oldR = report([requirement("A", "pass")]);
    const newR = report([requirement("A", "fail", { level: "SHOULD" })]);
    expect(exitCodeFor(newR)).toBe(0);
    expect(exitCodeFor(newR, diffReports(oldR, newR))).toBe(1);
  });

  it("gives 2, not 1, when passes turned into errors: the run is undecided, not regressed", () => {
    const oldR = report([requirement("A", "pass"), requirement("B", "pass")]);
    const newR = report([requirement("A", "error"), requirement("B", "pass")]);
    expect(exitCodeFor(newR, diffReports(oldR, newR))).toBe(2);
  });

  it("keeps 2 for an errored MUST when the diff did not regress", () => {
    const r = report([requirement("A", "error")]);
    expect(exitCodeFor(r, diffReports(r, r))).toBe(2);
  });
});
