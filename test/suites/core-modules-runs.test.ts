// The commodity module checks judged through the command against the reference whose events break the core
// module (an empty gdst:productOwner), which the seafood module repeats: the seafood module's finding is blocked
// by CORE-MODULE-CORE where that failed (a definition given with --definition makes it a MUST), and stands as its
// own verdict where CORE-MODULE-CORE only warned (tracecheck's own schema), never an error of the harness.
import { describe, expect, it } from "vitest";
import { DEFAULT_DEFINITION_FILE } from "../../src/definition/index.ts";
import { runForReport, tempDirOfFile, verdictIn } from "../support/cli.ts";

// Runs of one class; the bound only catches a hang on a loaded machine.
const RUN = 300_000;

const dirOf = tempDirOfFile("core-modules-runs");

function run(label: string, args: readonly string[]) {
  return runForReport(dirOf(), label, [
    "--seed",
    "1",
    "--quiet",
    "--suite",
    "core-events",
    "--faults",
    "module-core-owner-empty",
    "--modules",
    "seafood,wildcatch,aquaculture",
    ...args,
  ]);
}

describe("CORE-MODULE-*: a commodity module repeating a rule of the core module", () => {
  it(
    "warns under the seafood module where the core module, judged by tracecheck's own schema, only warned",
    async () => {
      const r = await run("own-schema", []);
      expect(r.code, r.stderr).toBe(0);
      expect(verdictIn(r.report, "CORE-MODULE-CORE")).toMatchObject({ status: "warn", level: "SHOULD" });
      const seafood = verdictIn(r.report, "CORE-MODULE-SEAFOOD");
      expect(seafood).toMatchObject({ status: "warn", level: "SHOULD" });
      expect(seafood.reason).toMatch(
        /^\d+ events break the seafood module schema only where they break the core/,
      );
      expect(seafood.reason).toContain("gdst:productOwner");
      // The finding carries the answer that serves the event it judged.
      expect(seafood.evidence[0]?.request?.url).toMatch(/\/events\?/);
      expect(seafood.evidence[0]?.response?.status).toBe(200);
      for (const id of ["CORE-MODULE-WILDCATCH", "CORE-MODULE-AQUACULTURE"]) {
        expect(verdictIn(r.report, id).status, id).toBe("pass");
      }
      expect(r.report.requirements.filter((q) => q.status === "error")).toEqual([]);
    },
    RUN,
  );

  it(
    "is blocked by CORE-MODULE-CORE where that failed against the definition given with --definition",
    async () => {
      const r = await run("given-definition", ["--definition", DEFAULT_DEFINITION_FILE]);
      expect(r.code, r.stderr).toBe(1);
      expect(verdictIn(r.report, "CORE-MODULE-CORE")).toMatchObject({ status: "fail", level: "MUST" });
      expect(verdictIn(r.report, "CORE-MODULE-SEAFOOD")).toMatchObject({
        status: "skip",
        blockedBy: "CORE-MODULE-CORE",
      });
    },
    RUN,
  );
});
