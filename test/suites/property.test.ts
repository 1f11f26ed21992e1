// checkProperty (suites/events/support/property.ts): drawn cases that all hold make a pass counting them; a drawn
// case that fails is handed to fast-check, which shrinks it, and the check fails with the shrunk counterexample and
// the seed that replays it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RunContext } from "../../src/engine/context.ts";
import type { Checks } from "../../src/engine/suite.ts";
import type { Evidence } from "../../src/engine/types.ts";
import type { CaseResult } from "../../suites/events/support/env.ts";
import { Findings } from "../../suites/events/support/findings.ts";
import { checkProperty } from "../../suites/events/support/property.ts";

interface Verdict {
  status: string;
  text?: string;
  evidence?: Evidence;
}

function recordingChecks(verdicts: Verdict[]): Checks {
  const checks: Checks = {
    id: "TEST-PROPERTY",
    pass: (text) => verdicts.push({ status: "pass", ...(text === undefined ? {} : { text }) }),
    fail: (text, evidence) => verdicts.push({ status: "fail", text, ...(evidence ? { evidence } : {}) }),
    warn: (text) => verdicts.push({ status: "warn", text }),
    skip: (text) => verdicts.push({ status: "skip", text }),
    blocked: (byId, why) => verdicts.push({ status: "skip", text: `blocked by ${byId}: ${why}` }),
    failUnlessBlocked: (byId, why) => verdicts.push({ status: "skip", text: `blocked by ${byId}: ${why}` }),
    error: (text) => verdicts.push({ status: "error", text }),
    for: () => checks,
  };
  return checks;
}

const ctx = { seed: 11, runs: 25 } as RunContext;

async function judge(holds: (n: number) => boolean): Promise<{ verdicts: Verdict[]; evaluated: number[] }> {
  const verdicts: Verdict[] = [];
  const evaluated: number[] = [];
  await checkProperty(recordingChecks(verdicts), ctx, new Findings(), {
    subject: "numbers",
    arbitrary: fc.integer({ min: 0, max: 100_000 }),
    evaluate: async (n): Promise<CaseResult> => {
      evaluated.push(n);
      return holds(n) ? { status: "ok" } : { status: "fail", reason: `${n} is too large`, evidence: {} };
    },
  });
  return { verdicts, evaluated };
}

describe("checkProperty", () => {
  it("passes with the count of its drawn cases when every one holds", async () => {
    const { verdicts, evaluated } = await judge(() => true);
    expect(verdicts).toEqual([{ status: "pass", text: "25 of 25 cases of numbers held" }]);
    // Each case drawn is evaluated once: the drawn values are those fast-check would draw for the seed.
    expect(new Set(evaluated)).toEqual(
      new Set(fc.sample(fc.integer({ min: 0, max: 100_000 }), { seed: ctx.seed, numRuns: ctx.runs })),
    );
  });

  it("fails with the counterexample fast-check shrank a failing case to, and the seed", async () => {
    const { verdicts } = await judge((n) => n < 100);
    expect(verdicts).toHaveLength(1);
    const [verdict] = verdicts;
    expect(verdict?.status).toBe("fail");
    // Shrunk to the least failing value, which no draw of the seed need hold.
    expect(verdict?.text).toBe("100 is too large");
    expect(verdict?.evidence?.counterexample).toBe(100);
    expect(verdict?.evidence?.seed).toBe(11);
    expect(verdict?.evidence?.message).toMatch(/^shrunk \d+ time\(s\); replay with --seed 11$/);
  });
});
