// The receiver matrix's cases and judgement, on made-up outcomes: which runs each effort makes (the reference
// receiver clean both ways, reading link sets and following redirects; each fault where it shows), how a run is
// asked for, and when a fault counts as caught: a named MUST that fails, or a named SHOULD that warns, never a
// named MUST that only warns.
import { describe, expect, it } from "vitest";
import type { Report, RequirementResult, Status } from "../../src/engine/types.ts";
import {
  FULL_RECEIVER_EFFORT,
  formatReceiverMatrix,
  judgeReceiverCase,
  QUICK_RECEIVER_EFFORT,
  type ReceiverCase,
  type ReceiverRunOutcome,
  receiverArgs,
  receiverCases,
} from "../../src/prove/receiver-matrix.ts";
import { RECEIVER_FAULTS } from "../../src/receiver/faults.ts";
import {
  RECEIVER_CONFIGURATION_NAMES,
  RECEIVER_CONFIGURATIONS,
} from "../../src/reference/receiver-configurations.ts";

const KEY_IN_QUERY = RECEIVER_FAULTS.find((f) => f.id === "key-in-query")!;

function result(id: string, status: Status, level: RequirementResult["level"]): RequirementResult {
  return { id, level, class: "receiver", section: "5", title: id, status, checks: 1, evidence: [] };
}

function outcome(
  exitCode: number | null,
  statuses: Record<string, [Status, RequirementResult["level"]]>,
): ReceiverRunOutcome {
  const report = {
    requirements: Object.entries(statuses).map(([id, [s, level]]) => result(id, s, level)),
  } as unknown as Report;
  return { exitCode, timedOut: false, report, lines: [], stderr: "", durationMs: 5 };
}

describe("the cases of the receiver matrix", () => {
  it("runs the reference receiver clean both ways in the same configurations, at each effort", () => {
    for (const [effort, configurations] of [
      [QUICK_RECEIVER_EFFORT, ["default", ...RECEIVER_CONFIGURATIONS.map((c) => c.name)]],
      [FULL_RECEIVER_EFFORT, ["default", ...RECEIVER_CONFIGURATION_NAMES]],
    ] as const) {
      const cases = receiverCases(effort);
      const clean = cases.filter((c) => c.fault === undefined);
      expect(clean.filter((c) => c.redirects !== true).map((c) => c.configuration)).toEqual(configurations);
      expect(clean.filter((c) => c.redirects === true).map((c) => c.configuration)).toEqual(configurations);
      expect(new Set(cases.map((c) => c.label)).size).toBe(cases.length);
    }
  });

  it("runs each fault in the first configuration it shows in at quick effort, and in all of them at full", () => {
    const quick = receiverCases(QUICK_RECEIVER_EFFORT).filter((c) => c.fault !== undefined);
    const full = receiverCases(FULL_RECEIVER_EFFORT).filter((c) => c.fault !== undefined);
    for (const fault of RECEIVER_FAULTS) {
      const shown = fault.shownIn ?? ["default", ...RECEIVER_CONFIGURATIONS.map((c) => c.name)];
      expect(quick.filter((c) => c.fault === fault).map((c) => c.configuration)).toEqual([shown[0]]);
      expect(full.filter((c) => c.fault === fault).map((c) => c.configuration)).toEqual(shown);
    }
  });

  it("asks the reference receiver to follow redirects only in the cases that say so", () => {
    const redirecting: ReceiverCase = { label: "r", configuration: "paged", redirects: true };
    const args = receiverArgs(redirecting, QUICK_RECEIVER_EFFORT, "/tmp/r");
    expect(args.slice(args.indexOf("--resolve"), args.indexOf("--resolve") + 2)).toEqual([
      "--resolve",
      "redirect",
    ]);
    expect(args.slice(0, args.indexOf("--"))).toEqual(
      expect.arrayContaining(["--reference-config", "paged"]),
    );
    expect(
      receiverArgs({ label: "c", configuration: "default" }, QUICK_RECEIVER_EFFORT, "/tmp/c"),
    ).not.toContain("--resolve");
  });
});

describe("judging a receiver run", () => {
  const faulted: ReceiverCase = { label: "f", configuration: "default", fault: KEY_IN_QUERY };

  it("counts a fault caught by a named MUST that fails and by a named SHOULD that warns", () => {
    const row = judgeReceiverCase(
      faulted,
      outcome(1, {
        "RCV-KEY-HEADER": ["fail", "MUST"],
        "RCV-KEY-NOT-IN-URL": ["warn", "SHOULD"],
        "RCV-PRODUCT-EVENTS": ["fail", "MUST"],
      }),
    );
    expect(row.verdict).toBe("caught");
    expect(row.caughtBy).toEqual(["RCV-KEY-HEADER", "RCV-KEY-NOT-IN-URL"]);
    const shouldOnly = judgeReceiverCase(
      faulted,
      outcome(0, { "RCV-KEY-HEADER": ["pass", "MUST"], "RCV-KEY-NOT-IN-URL": ["warn", "SHOULD"] }),
    );
    expect(shouldOnly.verdict).toBe("caught");
    expect(shouldOnly.caughtBy).toEqual(["RCV-KEY-NOT-IN-URL"]);
  });

  it("does not count a named MUST that only warns, nor a requirement the fault does not name", () => {
    const row = judgeReceiverCase(
      faulted,
      outcome(1, {
        "RCV-KEY-HEADER": ["warn", "MUST"],
        "RCV-KEY-NOT-IN-URL": ["pass", "SHOULD"],
        "RCV-PRODUCT-EVENTS": ["fail", "MUST"],
      }),
    );
    expect(row.verdict).toBe("missed");
    expect(row.caughtBy).toEqual([]);
  });

  it("takes a clean run with skips as clean, and a warning in a clean run as a false verdict", () => {
    const clean: ReceiverCase = { label: "c", configuration: "default", redirects: true };
    const skipped = judgeReceiverCase(clean, outcome(0, { "RCV-LINKSET": ["skip", "MUST"] }));
    expect(skipped.verdict).toBe("clean");
    expect(skipped.redirects).toBe(true);
    const warned = judgeReceiverCase(clean, outcome(0, { "RCV-PAGING": ["warn", "SHOULD"] }));
    expect(warned.verdict).toBe("false verdict");
  });

  it("shows a redirecting run's configuration as such in the table", () => {
    const clean: ReceiverCase = { label: "c", configuration: "split-resolver", redirects: true };
    const row = judgeReceiverCase(clean, outcome(0, { "RCV-LINKSET": ["skip", "MUST"] }));
    const text = formatReceiverMatrix({
      generatedAt: "",
      effort: "quick",
      seed: 1,
      events: 60,
      wallMs: 1000,
      rows: [row],
      ok: 1,
      total: 1,
    });
    expect(text.split("\n")[2]).toMatch(/^split-resolver \(redirects\)\s+-\s+0\s+-\s+-\s+clean$/);
  });
});
