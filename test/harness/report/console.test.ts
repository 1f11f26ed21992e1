import { describe, expect, it } from "vitest";
import { diffReports, formatSummary, progressLine, useColor } from "../../../src/harness/report/index.ts";
import { everyStatus, report, requirement } from "./build-report.ts";

const ESC = "\u001b";

describe("formatSummary", () => {
  const r = everyStatus();

  it("has no escape sequence at all when colour is off, even if a reason carried one", () => {
    const text = formatSummary(r, { color: false });
    expect(text).not.toContain(ESC);
    expect(text).toContain("red");
  });

  it("colours statuses when colour is on", () => {
    expect(formatSummary(r, { color: true })).toContain(`${ESC}[31m`);
  });

  it("tabulates pass fail warn skip error per class, in class order, then totals", () => {
    const lines = formatSummary(r, { color: false }).split("\n");
    expect(lines[0]!.split(/\s+/)).toEqual(["class", "pass", "fail", "warn", "skip", "error"]);
    expect(lines[1]!.split(/\s+/)).toEqual(["events", "1", "1", "1", "0", "1"]);
    expect(lines[2]!.split(/\s+/)).toEqual(["resolver", "1", "1", "0", "0", "0"]);
    expect(lines[3]!.split(/\s+/)).toEqual(["auth", "0", "0", "0", "1", "0"]);
    expect(lines[4]!.split(/\s+/)).toEqual(["total", "2", "2", "1", "1", "1"]);
  });

  it("lists every requirement that did not pass on one line, and none that passed", () => {
    const text = formatSummary(r, { color: false });
    for (const q of r.requirements) {
      const line = text.split("\n").find((l) => l.includes(` ${q.id} `));
      if (q.status === "pass") expect(line).toBeUndefined();
      else {
        expect(line, q.id).toBeDefined();
        expect(line!.startsWith(q.status.toUpperCase())).toBe(true);
        expect(line).toContain(q.title);
        expect(line).toContain(q.reason!.slice(0, 12));
      }
    }
    expect(text).toContain("7 requirements: 2 pass, 2 fail, 1 warn, 1 skip, 1 error");
  });

  it("ends with the verdict the exit status gives", () => {
    const last = (t: string) => t.split("\n").at(-1)!;
    expect(last(formatSummary(r, { color: false }))).toBe(
      "verdict: FAIL, 2 MUST requirement(s) failed (exit 1)",
    );
    const errored = report([requirement("A", "pass"), requirement("B", "error")]);
    expect(last(formatSummary(errored, { color: false }))).toMatch(/INCOMPLETE.*\(exit 2\)$/);
    const warned = report([requirement("A", "pass"), requirement("B", "warn", { level: "SHOULD" })]);
    expect(last(formatSummary(warned, { color: false }))).toBe(
      "verdict: PASS, every applicable MUST requirement passed with 1 warning(s) (exit 0)",
    );
    const diff = diffReports(
      report([requirement("B", "warn")]),
      report([requirement("B", "error", { level: "MAY" })]),
    );
    const regressed = report([requirement("B", "error", { level: "MAY" })]);
    expect(last(formatSummary(regressed, { color: false, diff }))).toBe(
      "verdict: FAIL, 1 requirement(s) regressed against the baseline (exit 1)",
    );
  });
});

describe("useColor", () => {
  const tty = { isTTY: true };
  it.each([
    ["a terminal with TERM=xterm", tty, { TERM: "xterm-256color" }, true],
    ["a terminal without TERM", tty, {}, true],
    ["a pipe", { isTTY: false }, { TERM: "xterm" }, false],
    ["a stream without isTTY", {}, {}, false],
    ["NO_COLOR=1", tty, { NO_COLOR: "1", TERM: "xterm" }, false],
    ["NO_COLOR set empty", tty, { NO_COLOR: "" }, false],
    ["TERM=dumb", tty, { TERM: "dumb" }, false],
  ])("%s", (_name, stream, env, expected) => {
    expect(useColor(stream, env)).toBe(expected);
  });
});

describe("progressLine", () => {
  it("shows class, count of total, id and status", () => {
    expect(progressLine({ class: "events", done: 3, total: 40, id: "EVT-X", status: "fail" })).toBe(
      "events 3/40 EVT-X FAIL",
    );
  });
  it("shows a bare count when the total is not known yet", () => {
    expect(progressLine({ class: "resolver", done: 7 })).toBe("resolver 7");
  });
  it("colours the status only when asked", () => {
    const event = { class: "auth", done: 1, total: 2, id: "AUTH-X", status: "pass" as const };
    expect(progressLine(event)).not.toContain(ESC);
    expect(progressLine(event, { color: true })).toContain(`${ESC}[32mPASS`);
  });
  it("drops control characters from an id", () => {
    expect(progressLine({ class: "events", done: 1, id: "EVT-\u001b[2JX" })).toBe("events 1 EVT-[2JX");
  });
});
