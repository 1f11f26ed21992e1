// The kill matrix's judgement, on made-up outcomes: caught only by a named requirement with exit 1.
import { describe, expect, test } from "vitest";
import type { Report, RequirementResult, Status } from "../../src/engine/types.ts";
import { judgeClean, judgeFault, type KillMatrix, killMatrixHolds } from "../../src/prove/kill-matrix.ts";
import type { TracecheckOutcome } from "../../src/prove/outcome.ts";
import { DUPLICATED_IDS_DOCUMENT, judgeDocument } from "../../src/prove/real-documents.ts";
import { formatKillMatrix, formatRealDocuments } from "../../src/prove/table.ts";
import type { Fault } from "../../src/reference/types.ts";

const FAULT: Fault = {
  id: "lt-event-inclusive",
  description: "LT_eventTime keeps the bound.",
  violates: ["EVT-TIME-LT-EVENT"],
};

function requirementResult(id: string, status: Status, level: RequirementResult["level"]): RequirementResult {
  return { id, level, class: "events", section: "4.1", title: id, status, checks: 1, evidence: [] };
}

function outcome(
  exitCode: number | null,
  statuses: Record<string, Status> | undefined,
  levels: Record<string, RequirementResult["level"]> = {},
): TracecheckOutcome {
  const report =
    statuses === undefined
      ? undefined
      : ({
          requirements: Object.entries(statuses).map(([id, s]) =>
            requirementResult(id, s, levels[id] ?? "MUST"),
          ),
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
    const row = judgeFault(FAULT, ["events"], outcome(1, { "EVT-TIME-LT-EVENT": "fail", "EVT-AND": "pass" }));
    expect(row.verdict).toBe("caught");
    expect(row.caughtBy).toEqual(["EVT-TIME-LT-EVENT"]);
    expect(row.failed).toEqual(["EVT-TIME-LT-EVENT"]);
    expect(row.alsoFailed).toEqual([]);
    expect(row.note).toBe("");
  });

  test("a requirement the fault does not name that fails beside it is the same defect reported again", () => {
    const row = judgeFault(FAULT, ["events"], outcome(1, { "EVT-TIME-LT-EVENT": "fail", "EVT-AND": "fail" }));
    // Still caught by the requirement it names, but the second failure is listed apart.
    expect(row.verdict).toBe("caught");
    expect(row.caughtBy).toEqual(["EVT-TIME-LT-EVENT"]);
    expect(row.failed).toEqual(["EVT-TIME-LT-EVENT", "EVT-AND"]);
    expect(row.alsoFailed).toEqual(["EVT-AND"]);
    // Skipped (blocked) or warned requirements are not failures.
    const blocked = judgeFault(
      FAULT,
      ["events"],
      outcome(1, { "EVT-TIME-LT-EVENT": "fail", "EVT-AND": "skip" }),
    );
    expect(blocked.alsoFailed).toEqual([]);
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

describe("judging a fault whose requirement is below MUST", () => {
  test("a warning on the named SHOULD requirement catches it, with exit 0", () => {
    const row = judgeFault(
      FAULT,
      ["events"],
      outcome(0, { "EVT-TIME-LT-EVENT": "warn" }, { "EVT-TIME-LT-EVENT": "SHOULD" }),
    );
    expect(row.verdict).toBe("caught");
    expect(row.caughtBy).toEqual(["EVT-TIME-LT-EVENT"]);
  });
  test("a warning on a named MUST requirement does not, nor one on another requirement", () => {
    expect(judgeFault(FAULT, ["events"], outcome(0, { "EVT-TIME-LT-EVENT": "warn" })).verdict).toBe("missed");
    const other = outcome(0, { "EVT-TIME-LT-EVENT": "pass", "EVT-AND": "warn" }, { "EVT-AND": "SHOULD" });
    expect(judgeFault(FAULT, ["events"], other).verdict).toBe("missed");
  });
  test("a run that gave no verdict is broken even when a named SHOULD warned", () => {
    const row = judgeFault(
      FAULT,
      ["events"],
      outcome(2, { "EVT-TIME-LT-EVENT": "warn" }, { "EVT-TIME-LT-EVENT": "SHOULD" }),
    );
    expect(row.verdict).toBe("broken");
  });
});

describe("judging the run without faults", () => {
  test("a configuration is clean with exactly its expected warnings", () => {
    expect(judgeClean(outcome(0, { A: "pass", B: "warn" }), ["B"]).ok).toBe(true);
    const missing = judgeClean(outcome(0, { A: "pass", B: "pass" }), ["B"]);
    expect(missing.ok).toBe(false);
    expect(missing.note).toContain("B expected to warn but did not");
    const extra = judgeClean(outcome(0, { A: "warn", B: "warn" }), ["B"]);
    expect(extra.ok).toBe(false);
    expect(extra.note).toContain("A warn");
    expect(extra.note).not.toContain("B warn");
  });

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

function matrix(rows: KillMatrix["rows"]): KillMatrix {
  return {
    generatedAt: "2024-01-01T00:00:00Z",
    effort: "quick",
    seed: 1,
    concurrency: 2,
    wallMs: 1000,
    clean: judgeClean(outcome(0, { A: "pass" })),
    rows,
    caught: rows.filter((r) => r.verdict === "caught").length,
    alsoFailed: rows.filter((r) => r.alsoFailed.length > 0).length,
    total: rows.length,
  };
}

test("the readable table has one line per fault with exit, failed requirements, whether a named one failed and what else failed", () => {
  const caught = judgeFault(FAULT, ["events"], outcome(1, { "EVT-TIME-LT-EVENT": "fail" }));
  const missed = judgeFault(
    { ...FAULT, id: "other-fault" },
    ["events"],
    outcome(0, { "EVT-TIME-LT-EVENT": "pass" }),
  );
  const doubled = judgeFault(
    { ...FAULT, id: "doubled-fault" },
    ["events"],
    outcome(1, { "EVT-TIME-LT-EVENT": "fail", "FLOW-TRACEBACK": "fail" }),
  );
  const text = formatKillMatrix(matrix([caught, missed, doubled]));
  const lines = text.split("\n");
  expect(lines.find((l) => l.startsWith("lt-event-inclusive"))).toMatch(
    /\s1\s+EVT-TIME-LT-EVENT\s+yes \(EVT-TIME-LT-EVENT\)\s+-\s+caught$/,
  );
  expect(lines.find((l) => l.startsWith("other-fault"))).toMatch(
    /\s0\s+-\s+no \(names EVT-TIME-LT-EVENT\)\s+-\s+missed$/,
  );
  expect(lines.find((l) => l.startsWith("doubled-fault"))).toMatch(
    /\s1\s+EVT-TIME-LT-EVENT,FLOW-TRACEBACK\s+yes \(EVT-TIME-LT-EVENT\)\s+FLOW-TRACEBACK\s+caught$/,
  );
  expect(text).toContain("2 of 3 faults caught");
  expect(text).toContain("1 of 3 faults failed requirements they do not name");
  expect(text).toContain("  doubled-fault (names EVT-TIME-LT-EVENT): also failed FLOW-TRACEBACK");
  expect(formatKillMatrix(matrix([caught]))).toContain("no fault failed a requirement it does not name");
});

test("the kill matrix holds only when every fault is caught and none fails a requirement it does not name", () => {
  const caught = judgeFault(FAULT, ["events"], outcome(1, { "EVT-TIME-LT-EVENT": "fail" }));
  const doubled = judgeFault(
    FAULT,
    ["events"],
    outcome(1, { "EVT-TIME-LT-EVENT": "fail", "EVT-AND": "fail" }),
  );
  const missed = judgeFault(FAULT, ["events"], outcome(0, { "EVT-TIME-LT-EVENT": "pass" }));
  expect(killMatrixHolds(matrix([caught]))).toBe(true);
  expect(killMatrixHolds(matrix([caught, doubled]))).toBe(false);
  expect(killMatrixHolds(matrix([caught, missed]))).toBe(false);
  expect(killMatrixHolds({ ...matrix([caught]), clean: judgeClean(outcome(1, { A: "fail" })) })).toBe(false);
});

describe("judging a real document's run against its table row", () => {
  const RECEIVING =
    "epcis/examples/gs1/JSON/WithFullCombinationOfFields/object_event_all_possible_fields.jsonld";
  const PLAIN = "epcis/examples/gs1/JSON/EPCISQueryDocument.jsonld";
  const withReasons = (o: TracecheckOutcome, reasons: Record<string, string>): TracecheckOutcome => {
    for (const r of o.report?.requirements ?? []) if (reasons[r.id] !== undefined) r.reason = reasons[r.id];
    return o;
  };
  const receivingWarn =
    "event e is a Receiving (ObjectEvent at bizStep receiving) with action ADD where spec 6 fixes OBSERVE";

  test("the verdicts the row gives, with a reason that says why, and the exit they imply, are as the table says", () => {
    const o = withReasons(outcome(0, { "CORE-SIGNATURE": "warn", "EVT-AND": "pass" }), {
      "CORE-SIGNATURE": receivingWarn,
    });
    const row = judgeDocument(RECEIVING, o);
    expect(row).toMatchObject({ ok: true, unexpected: [], wrong: [], expectedExit: 0, exitCode: 0 });
    const warned = withReasons(outcome(0, { "CORE-COLUMNS": "warn", "CORE-TYPE": "warn" }), {
      "CORE-COLUMNS": "event s is a Shipping (ObjectEvent) with disposition active",
      "CORE-TYPE": "event t matches none of the core event signatures",
    });
    expect(judgeDocument(DUPLICATED_IDS_DOCUMENT, warned)).toMatchObject({ ok: true, expectedExit: 0 });
  });

  test("a verdict the row does not give is a false verdict", () => {
    const row = judgeDocument(PLAIN, outcome(1, { "EVT-AND": "fail", "CORE-TYPE": "warn" }));
    expect(row.ok).toBe(false);
    expect(row.unexpected.map((l) => l.split(" ")[0])).toEqual(["EVT-AND", "CORE-TYPE"]);
    expect(row.expectedExit).toBe(0);
  });

  test("a due verdict missing, of another status, or with a reason that does not say why, is wrong", () => {
    expect(judgeDocument(RECEIVING, outcome(0, { "CORE-SIGNATURE": "pass" })).wrong[0]).toMatch(
      /but was not/,
    );
    expect(judgeDocument(RECEIVING, outcome(1, { "CORE-SIGNATURE": "fail" })).wrong[0]).toMatch(
      /is fail where warn/,
    );
    const vague = withReasons(outcome(0, { "CORE-SIGNATURE": "warn" }), { "CORE-SIGNATURE": "bad event" });
    expect(judgeDocument(RECEIVING, vague).wrong[0]).toMatch(/does not say why/);
  });

  test("the right verdicts with the wrong exit status are not as the table says", () => {
    const o = withReasons(outcome(1, { "CORE-SIGNATURE": "warn" }), { "CORE-SIGNATURE": receivingWarn });
    expect(judgeDocument(RECEIVING, o).ok).toBe(false);
  });

  test("on the document with duplicated eventIDs, as on any other, a filter answered twice is a false verdict", () => {
    // The repository holds each duplicated eventID twice, so a sender serving both copies answers nothing twice.
    const twice = withReasons(outcome(1, { "EVT-AND": "fail" }), { "EVT-AND": "event x answered twice" });
    expect(judgeDocument(DUPLICATED_IDS_DOCUMENT, twice).unexpected).toHaveLength(1);
    const changed = withReasons(outcome(1, { "EVT-SHAPE-CONTENT": "fail" }), {
      "EVT-SHAPE-CONTENT": "event x is served with different content",
    });
    expect(judgeDocument(DUPLICATED_IDS_DOCUMENT, changed).unexpected).toHaveLength(1);
    expect(judgeDocument(PLAIN, twice).unexpected).toHaveLength(1);
  });

  test("a run without a report says why, and a document outside the table is refused", () => {
    const row = judgeDocument(PLAIN, outcome(2, undefined));
    expect(row.ok).toBe(false);
    expect(row.note).toMatch(/no report \(exit 2\): tracecheck: something went wrong/);
    expect(() => judgeDocument("nowhere.jsonld", outcome(0, {}))).toThrow(/not in the real-document table/);
  });

  test("the table lists each document and explains the ones that went wrong", () => {
    const good = judgeDocument(PLAIN, outcome(0, {}));
    const bad = judgeDocument(PLAIN, outcome(1, { "EVT-AND": "fail" }));
    const text = formatRealDocuments({
      generatedAt: "",
      effort: "quick",
      wallMs: 0,
      rows: [good, bad],
      ok: 1,
      total: 2,
    });
    expect(text).toContain("as the table says");
    expect(text).toContain("WRONG");
    expect(text).toContain("1 of 2 documents");
    expect(text).toMatch(/not as the table says:\n {2}epcis.*\n {4}EVT-AND fail/);
  });
});
