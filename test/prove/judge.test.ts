// The kill matrix's judgement, on made-up outcomes: caught only by a named requirement with exit 1.
import { describe, expect, test } from "vitest";
import type { Report, RequirementResult, Status } from "../../src/harness/types.ts";
import { judgeClean, judgeFault } from "../../src/prove/kill-matrix.ts";
import type { TracecheckOutcome } from "../../src/prove/outcome.ts";
import { formatKillMatrix } from "../../src/prove/table.ts";
import type { Fault } from "../../src/reference/types.ts";

const FAULT: Fault = {
  id: "lt-event-inclusive",
  description: "LT_eventTime keeps the bound.",
  violates: ["EVT-TIME-LT-EVENT"],
};

function requirementResult(id: string, status: Status): RequirementResult {
  return { id, level: "MUST", class: "events", section: "4.1", title: id, status, checks: 1, evidence: [] };
}

function outcome(exitCode: number | null, statuses: Record<string, Status> | undefined): TracecheckOutcome {
  const report =
    statuses === undefined
      ? undefined
      : ({
          requirements: Object.entries(statuses).map(([id, s]) => requirementResult(id, s)),
        } as unknown as Report);
  return {
    label: "x",
    args: [],
    exitCode,
    timedOut: exitCode === null,
    ...(report ? { report } : {}),
    reportDir: "/nowhere",
    stdout: "",
    stderr: exitCode === 2 ? "tracecheck: something went wrong\n" : "",
    durationMs: 5,
  };
}

describe("judging a faulted run", () => {
  test("exit 1 with the named requirement failed is caught", () => {
    const row = judgeFault(FAULT, ["events"], outcome(1, { "EVT-TIME-LT-EVENT": "fail", "EVT-AND": "fail" }));
    expect(row.verdict).toBe("caught");
    expect(row.caughtBy).toEqual(["EVT-TIME-LT-EVENT"]);
    expect(row.failed).toEqual(["EVT-TIME-LT-EVENT", "EVT-AND"]);
    expect(row.note).toBe("");
  });

  test("exit 1 on an unrelated requirement only counts as missed", () => {
    const row = judgeFault(FAULT, ["events"], outcome(1, { "EVT-TIME-LT-EVENT": "pass", "EVT-AND": "fail" }));
    expect(row.verdict).toBe("unrelated");
    expect(row.caughtBy).toEqual([]);
    expect(row.note).toContain("EVT-TIME-LT-EVENT");
  });

  test("a named requirement that only warns or errors does not catch the fault", () => {
    expect(judgeFault(FAULT, ["events"], outcome(0, { "EVT-TIME-LT-EVENT": "warn" })).verdict).toBe("missed");
    expect(judgeFault(FAULT, ["events"], outcome(2, { "EVT-TIME-LT-EVENT": "error" })).verdict).toBe(
      "broken",
    );
  });

  test("a passing run is missed and says how the named requirement came out", () => {
    const row = judgeFault(FAULT, ["events"], outcome(0, { "EVT-TIME-LT-EVENT": "pass" }));
    expect(row.verdict).toBe("missed");
    expect(row.note).toContain("EVT-TIME-LT-EVENT pass");
  });

  test("a run stopped at its bound or without a report is broken, with the reason", () => {
    expect(judgeFault(FAULT, ["events"], outcome(null, undefined)).note).toContain("stopped");
    expect(judgeFault(FAULT, ["events"], outcome(2, undefined)).note).toContain("something went wrong");
  });
});

describe("judging the run without faults", () => {
  test("clean only with exit 0 and no fail, warn or error", () => {
    expect(judgeClean(outcome(0, { A: "pass", B: "skip" })).ok).toBe(true);
    const warned = judgeClean(outcome(0, { A: "pass", B: "warn" }));
    expect(warned.ok).toBe(false);
    expect(warned.warned).toEqual(["B"]);
    expect(warned.note).toContain("B warn");
    expect(judgeClean(outcome(1, { A: "fail" })).failed).toEqual(["A"]);
    expect(judgeClean(outcome(2, undefined)).ok).toBe(false);
  });
});

test("the readable table has one line per fault with exit, failed requirements and whether a named one failed", () => {
  const caught = judgeFault(FAULT, ["events"], outcome(1, { "EVT-TIME-LT-EVENT": "fail" }));
  const missed = judgeFault(
    { ...FAULT, id: "other-fault" },
    ["events"],
    outcome(0, { "EVT-TIME-LT-EVENT": "pass" }),
  );
  const text = formatKillMatrix({
    generatedAt: "2024-01-01T00:00:00Z",
    effort: "quick",
    seed: 1,
    concurrency: 2,
    wallMs: 1000,
    clean: judgeClean(outcome(0, { A: "pass" })),
    rows: [caught, missed],
    caught: 1,
    total: 2,
  });
  const lines = text.split("\n");
  expect(lines.find((l) => l.startsWith("lt-event-inclusive"))).toMatch(
    /\s1\s+EVT-TIME-LT-EVENT\s+yes \(EVT-TIME-LT-EVENT\)\s+caught$/,
  );
  expect(lines.find((l) => l.startsWith("other-fault"))).toMatch(
    /\s0\s+-\s+no \(names EVT-TIME-LT-EVENT\)\s+missed$/,
  );
  expect(text).toContain("1 of 2 faults caught");
});
