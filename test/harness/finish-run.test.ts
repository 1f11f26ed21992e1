// The one end of a run (finishRun): a check blocked by a requirement that failed stands as a skip only where that
// requirement is a MUST at the run's level, so that a block on a SHOULD's warning never leaves a defect at exit 0.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Level, Requirement } from "../../src/engine/types.ts";
import type { CheckVerdict } from "../../src/engine/verdicts.ts";
import { finishRun } from "../../src/harness/run-files.ts";

function req(id: string, level: Level, definitionLevel?: Level): Requirement {
  const r: Requirement = {
    id,
    section: "9",
    level,
    class: "definition",
    title: `title of ${id}`,
    rule: "a rule",
    spec: `the quote of ${id}.`,
  };
  if (definitionLevel !== undefined) r.definitionLevel = definitionLevel;
  return r;
}

describe("finishRun: blocks weigh their blocker's level", () => {
  let dir = "";
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "finish-run-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const verdicts: CheckVerdict[] = [
    { id: "DEF-A", status: "fail", reason: "the root finding" },
    { id: "DEF-B", status: "skip", reason: "blocked", why: "what A took away", blockedBy: "DEF-A" },
  ];

  const finish = (definitionGiven: boolean) =>
    finishRun({
      requirements: [req("DEF-A", "SHOULD", "MUST"), req("DEF-B", "MUST")],
      engine: { verdicts, errors: [] },
      definitionGiven,
      started: Date.now(),
      header: { target: { events: "http://127.0.0.1:1", resolver: "http://127.0.0.1:1" }, seed: 1, runs: 1 },
      reportDir: dir,
      note: () => undefined,
    });

  it("is undecided (exit 2) where the blocker only warned", async () => {
    const { exitCode, report } = await finish(false);
    const [a, b] = report.requirements;
    expect([a?.status, b?.status, exitCode]).toEqual(["warn", "error", 2]);
    expect(b?.reason).toBe("blocked by DEF-A, which only warned (not a MUST): what A took away");
  });

  it("is a skip where the blocker failed as a MUST, which fails the run", async () => {
    const { exitCode, report } = await finish(true);
    const [a, b] = report.requirements;
    expect([a?.status, b?.status, exitCode]).toEqual(["fail", "skip", 1]);
    expect(b?.reason).toBe("blocked by DEF-A, which failed: what A took away");
  });
});
