// The hostile matrix's own judging and table, on made-up runs: the full-size runs themselves are npm run prove's.
import { describe, expect, test } from "vitest";
import type { Report } from "../../src/engine/types.ts";
import { judgeHostileRun, keyLeaks } from "../../src/prove/hostile-judge.ts";
import type { HostileMatrix } from "../../src/prove/hostile-matrix.ts";
import type { MeasuredRun } from "../../src/prove/hostile-runner.ts";
import { MISBEHAVIOURS, type Received } from "../../src/prove/hostile-server.ts";
import {
  FULL_HOSTILE_EFFORT,
  HOSTILE_ROWS,
  type HostileRow,
  PEAK_RSS_BOUND_BYTES,
  QUICK_HOSTILE_EFFORT,
  rowFlags,
} from "../../src/prove/hostile-table.ts";
import { formatHostileMatrix } from "../../src/prove/hostile-text.ts";

const MIB = 1024 * 1024;
const KEY = "test-KEY-0a9b8c7d";
const BOUND_MS = 60_000;

const ROW: HostileRow = {
  label: "large",
  behaviour: "sends large pages without end",
  misbehaviour: "endless-large-pages",
  scope: "events",
  exit: 2,
  flags: ["--max-answer-bytes", String(1024 ** 3)],
  why: "the default would take too long",
};

function run(over: Partial<MeasuredRun> = {}): MeasuredRun {
  return {
    exitCode: 2,
    signal: null,
    timedOut: false,
    stdout: "",
    stderr: "",
    durationMs: 42_000,
    peakRssBytes: 400 * MIB,
    peakAtExit: true,
    report: {
      incompleteReason: "the unfiltered query failed",
      requirements: [
        { id: "EVT-PAGING", status: "fail" },
        { id: "EVT-EPC-EPCLIST", status: "error" },
        { id: "EVT-TIME-LT-RECORD", status: "error" },
        { id: "RES-PATH-GTIN", status: "pass" },
      ],
    } as Report,
    ...over,
  };
}

function received(over: Partial<Received> = {}): Received {
  return { path: "/01/09506000134352", key: undefined, headerText: "host\n127.0.0.1", ...over };
}

describe("judging a hostile run", () => {
  test("a run that ends as due, under the bound, its report written and the key kept, is ok", () => {
    const r = judgeHostileRun(ROW, ROW.flags!, run(), [], 3, BOUND_MS);
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.note).toBe("the unfiltered query failed");
    expect(r.failed).toEqual(["EVT-PAGING"]);
    expect(r.errored).toEqual(["EVT-EPC-EPCLIST", "EVT-TIME-LT-RECORD"]);
    expect(r.otherOriginRequests).toBe(3);
  });

  test("each way of falling short is a problem of its own", () => {
    const cases: [Partial<MeasuredRun>, RegExp][] = [
      [{ exitCode: 1 }, /^exit 1, due 2$/],
      [{ peakRssBytes: PEAK_RSS_BOUND_BYTES }, /peak resident memory 600 MiB, over 600 MiB/],
      [{ peakRssBytes: undefined }, /no peak resident memory/],
      [{ report: undefined }, /no report.json/],
      [{ stderr: "FATAL ERROR: Reached heap limit JavaScript heap out of memory" }, /crashed/],
    ];
    for (const [over, problem] of cases) {
      const r = judgeHostileRun(ROW, [], run(over), [], 0, BOUND_MS);
      expect(r.ok, JSON.stringify(over)).toBe(false);
      expect(r.problems.join("; ")).toMatch(problem);
    }
  });

  test("a run stopped at its bound fails, and its peak read while it ran is only a lower bound", () => {
    const r = judgeHostileRun(
      ROW,
      [],
      run({ exitCode: null, signal: "SIGKILL", timedOut: true, peakAtExit: false, peakRssBytes: 300 * MIB }),
      [],
      0,
      BOUND_MS,
    );
    expect(r.ok).toBe(false);
    expect(r.problems).toContain("still running after 60 s, stopped");
    expect(r.problems).toContain("exit -, due 2");
    expect(r.problems).toContain("peak resident memory at least 300 MiB before the process died");
  });

  test("a process killed by a signal says which, and its last words are the note", () => {
    const stderr =
      "tracecheck: seed 7\n\n<--- Last few GCs --->\nFATAL ERROR: JavaScript heap out of memory\n";
    const r = judgeHostileRun(
      ROW,
      [],
      run({ exitCode: null, signal: "SIGABRT", peakAtExit: false, report: undefined, stderr }),
      [],
      0,
      1,
    );
    expect(r.problems[0]).toBe("killed by SIGABRT");
    expect(r.note).toBe("<--- Last few GCs ---> FATAL ERROR: JavaScript heap out of memory");
    expect(r.failed).toEqual([]);
  });

  test("the key found anywhere it must not be fails the row, saying where", () => {
    const r = judgeHostileRun(ROW, [], run(), ["report.json"], 1, BOUND_MS);
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual(["the key showed in report.json"]);
  });
});

describe("finding the key where it must not be", () => {
  test("nothing on the other origin and no output carrying it: no leak", () => {
    expect(keyLeaks(KEY, [received(), received({ path: "/events?x=1" })], { stdout: "ok" })).toEqual([]);
  });

  test("in the X-API-Key header, another header, the URL, or an output", () => {
    const leaks = keyLeaks(
      KEY,
      [
        received({ key: KEY }),
        received({ headerText: `authorization\nBearer ${KEY}` }),
        received({ path: `/events?api_key=${KEY}` }),
      ],
      { "the run's stderr": `sent ${KEY}`, "junit.xml": "clean" },
    );
    expect(leaks).toEqual([
      "X-API-Key on the other origin's /01/09506000134352",
      "a header on the other origin's /01/09506000134352",
      "the URL /events?api_key=<key> on the other origin",
      "the run's stderr",
    ]);
    // The key is left out of what is shown: the table must not carry it either.
    for (const leak of leaks) expect(leak).not.toContain(KEY);
  });

  test("a key header on the other origin counts, whatever value it carried", () => {
    expect(keyLeaks(KEY, [received({ key: "another" })], {})).toHaveLength(1);
  });
});

describe("the rows", () => {
  test("every behaviour of the hostile server is a row, under a label of its own", () => {
    const shown = new Set(HOSTILE_ROWS.map((r) => r.misbehaviour));
    expect([...MISBEHAVIOURS].filter((m) => !shown.has(m))).toEqual([]);
    const labels = HOSTILE_ROWS.map((r) => r.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const label of labels) expect(label).toMatch(/^[\w.-]+$/);
  });

  test("a row that sets a budget at full size says why", () => {
    for (const row of HOSTILE_ROWS.filter((r) => r.flags !== undefined)) {
      expect(row.why, row.label).toBeTruthy();
    }
  });

  test("the full size keeps tracecheck's defaults unless the row sets a budget; the quick one sets small ones", () => {
    const large = HOSTILE_ROWS.find((r) => r.label === "endless-large-pages-discovery")!;
    expect(rowFlags(large, FULL_HOSTILE_EFFORT)).toEqual(["--max-answer-bytes", String(512 * MIB)]);
    expect(rowFlags(large, QUICK_HOSTILE_EFFORT)).toEqual([
      ...QUICK_HOSTILE_EFFORT.common,
      "--max-answer-bytes",
      String(128 * MIB),
    ]);
    const pages = HOSTILE_ROWS.find((r) => r.label === "endless-pages")!;
    expect(rowFlags(pages, FULL_HOSTILE_EFFORT)).toEqual([]);
  });
});

describe("the table", () => {
  const ok = judgeHostileRun(ROW, ROW.flags!, run(), [], 0, BOUND_MS);
  const failed = judgeHostileRun(
    { ...ROW, label: "hang", misbehaviour: "silent", scope: "all", flags: [], why: undefined },
    [],
    run({
      exitCode: null,
      signal: "SIGKILL",
      timedOut: true,
      peakAtExit: false,
      durationMs: 60_400,
      report: undefined,
    }),
    ["the URL /events?api_key=<key> on the other origin"],
    2,
    BOUND_MS,
  );
  const matrix: HostileMatrix = {
    generatedAt: "2026-01-01T00:00:00.000Z",
    effort: "full",
    events: 200,
    pageBytes: 15 * MIB,
    peakBoundBytes: PEAK_RSS_BOUND_BYTES,
    concurrency: 3,
    wallMs: 125_000,
    rows: [ok, failed],
    ok: 1,
    total: 2,
  };
  const text = formatHostileMatrix(matrix);
  const lines = text.split("\n");

  test("one line a run, in columns, with the budget, the time, the peak and the key", () => {
    expect(lines[0]).toBe(
      "hostile matrix (full effort, 200 events, large pages of 15 MiB, 3 at once, 125 s): tracecheck run, each in a process of its own, against a target that misbehaves",
    );
    const head = lines[1]!;
    const large = lines.find((l) => l.startsWith("large "))!;
    const hang = lines.find((l) => l.startsWith("hang "))!;
    expect(large.split(/\s{2,}/)).toEqual([
      "large",
      "events",
      "--max-answer-bytes 1 GiB",
      "2",
      "2",
      "1",
      "2",
      "42 s",
      "400 MiB",
      "0 req",
      "kept",
      "ok",
    ]);
    expect(hang.split(/\s{2,}/)).toEqual([
      "hang",
      "all",
      "default",
      "-",
      "2",
      "-",
      "-",
      "60 s",
      ">=400 MiB",
      "2 req",
      "LEAKED",
      "FAILED",
    ]);
    // Columns line up: every cell starts where its heading does.
    const at = head.indexOf("peak RSS");
    expect(large.slice(at).startsWith("400 MiB")).toBe(true);
    expect(hang.slice(at).startsWith(">=400 MiB")).toBe(true);
  });

  test("says what each target does, why a budget was set, how many runs were as due and what was not", () => {
    expect(text).toContain("  large: sends large pages without end");
    expect(text).toContain(
      "budgets set by flag instead of the default:\n  large: the default would take too long",
    );
    expect(text).toContain("1 of 2 runs ended by themselves with the exit due, under 600 MiB");
    expect(text).toMatch(
      /not as due:\n {2}hang: still running after 60 s, stopped; .*the key showed in the URL/,
    );
  });
});
