import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { diffReports, formatSummary, progressLine, RunProgress, useColor } from "../../src/report/index.ts";
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
    const diff = diffReports(report([requirement("B", "warn")]), report([requirement("B", "fail")]));
    const regressed = report([requirement("B", "fail")]);
    expect(last(formatSummary(regressed, { color: false, diff }))).toBe(
      "verdict: FAIL, 1 MUST requirement(s) failed and 1 requirement(s) regressed against the baseline (exit 1)",
    );
    const undecided = report([requirement("B", "error")]);
    const broke = diffReports(report([requirement("B", "pass")]), undecided);
    expect(last(formatSummary(undecided, { color: false, diff: broke }))).toMatch(/INCOMPLETE.*\(exit 2\)$/);
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

describe("formatSummary's lines", () => {
  it("puts each failure's curl line under it, and none under a pass or a skip", () => {
    const lines = formatSummary(everyStatus(), { color: false }).split("\n");
    const at = lines.findIndex((l) => l.startsWith("FAIL   EVT-BIZSTEP-FORMS"));
    expect(lines[at + 1]).toBe(
      "       curl -H 'X-API-Key: $TRACECHECK_API_KEY' 'http://127.0.0.1:4000/events?EQ_bizStep=shipping%7Creceiving'",
    );
    const skip = lines.findIndex((l) => l.startsWith("SKIP   AUTH-HEADER"));
    expect(lines[skip + 1]?.trimStart().startsWith("curl")).toBe(false);
  });

  it("says the classes not chosen in one line instead of one SKIP line per requirement", () => {
    const r = report(
      [
        requirement("EVT-A", "pass"),
        requirement("EVT-B", "skip", { reason: "the target did not page any answer" }),
        requirement("RES-A", "skip", {
          class: "resolver",
          reason: "class resolver not selected with --suite",
        }),
        requirement("RES-B", "skip", {
          class: "resolver",
          reason: "class resolver not selected with --suite",
        }),
        requirement("AUTH-A", "skip", { class: "auth", reason: "class auth not selected with --suite" }),
      ],
      {
        options: {
          suites: ["events"],
          modules: ["core"],
          faults: [],
          definition: { file: "d.yaml", sha256: "0".repeat(64), given: false },
          timeoutMs: 1000,
          concurrency: 1,
          rate: 0,
          retryBudgetSeconds: 1,
        },
      },
    );
    const text = formatSummary(r, { color: false });
    const lines = text.split("\n");
    expect(lines.filter((l) => l.startsWith("SKIP"))).toEqual([
      "SKIP   EVT-B  title of EVT-B (the target did not page any answer)",
      "SKIP   3 requirement(s) of resolver, auth: class not selected with --suite",
    ]);
    expect(lines.map((l) => l.split(/\s+/)[0])).not.toContain("resolver");
    expect(text).toContain("5 requirements: 1 pass, 0 fail, 0 warn, 4 skip, 0 error");
  });

  it("ends with the verdict the run wrote: incomplete after a harness error, interrupted after a signal", () => {
    const last = (t: string) => t.split("\n").at(-1)!;
    const broken = report([requirement("A", "pass")], {
      verdict: "incomplete",
      exitCode: 2,
      incompleteReason: "a harness error stopped part of the run: boom",
    });
    expect(last(formatSummary(broken, { color: false }))).toBe(
      "verdict: INCOMPLETE, a harness error stopped part of the run: boom (exit 2)",
    );
    const stopped = report([requirement("A", "pass")], {
      verdict: "incomplete",
      exitCode: 130,
      interrupted: true,
      incompleteReason: "interrupted by SIGINT before the run finished",
    });
    expect(last(formatSummary(stopped, { color: false }))).toBe(
      "verdict: INTERRUPTED, interrupted by SIGINT before the run finished (exit 130)",
    );
  });
});

/** A stream that keeps what is written to it; isTTY as asked. */
function sink(isTTY: boolean): Writable & { text: () => string; isTTY: boolean; columns: number } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  }) as Writable & { text: () => string; isTTY: boolean; columns: number };
  stream.isTTY = isTTY;
  stream.columns = 120;
  stream.text = () => chunks.join("");
  return stream;
}

describe("RunProgress", () => {
  const requirements = [
    { id: "EVT-A", class: "events", level: "MUST" as const },
    { id: "EVT-B", class: "events", level: "SHOULD" as const },
    { id: "RES-A", class: "resolver", level: "MUST" as const },
  ];

  it("counts the requirements of each class against its total, in plain lines off a terminal", () => {
    const lines: string[] = [];
    const progress = new RunProgress({ requirements, write: (l) => lines.push(l), color: false });
    progress.record({ class: "events", id: "EVT-A", status: "pass" });
    progress.record({ class: "events", id: "EVT-A", status: "pass" });
    progress.record({ class: "resolver", id: "RES-A", status: "fail" });
    progress.record({ class: "events", id: "EVT-B", status: "skip" });
    progress.stop();
    expect(lines).toEqual([
      "events 1/2 EVT-A PASS",
      "events 1/2 EVT-A PASS",
      "resolver 1/1 RES-A FAIL",
      "events 2/2 EVT-B SKIP",
    ]);
  });

  it("says WARN for a failed check of a SHOULD requirement, as the report does", () => {
    const lines: string[] = [];
    const progress = new RunProgress({ requirements, write: (l) => lines.push(l), color: false });
    progress.record({ class: "events", id: "EVT-B", status: "fail" });
    progress.record({ class: "events", id: "EVT-A", status: "fail" });
    expect(lines).toEqual(["events 1/2 EVT-B WARN", "events 2/2 EVT-A FAIL"]);
  });

  it("draws a bar per class on a terminal, and writes no plain line", () => {
    const lines: string[] = [];
    const terminal = sink(true);
    const progress = new RunProgress({ requirements, write: (l) => lines.push(l), color: false, terminal });
    progress.record({ class: "events", id: "EVT-B", status: "fail" });
    progress.stop();
    const drawn = terminal.text();
    expect(drawn).toContain("events   ");
    expect(drawn).toContain("1/2 requirements  EVT-B WARN");
    expect(drawn).toContain("0/1 requirements");
    expect(drawn).toContain("█");
    expect(lines).toEqual([]);
  });
});
