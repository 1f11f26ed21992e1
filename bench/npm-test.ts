// The project's own test suite: wall time of `npm test` from the repository root, once, as a developer or CI runs
// it (lint, type-check, build, vitest; target at most 3 minutes). It takes minutes and both cores, so it comes last.
import { progress } from "./child.ts";
import { timeCommand } from "./command.ts";
import type { Benchmark } from "./row.ts";

const TARGET_SECONDS = 180;
const TIMEOUT_MS = 20 * 60_000;

/** vitest's summary line, e.g. "Tests  812 passed (812)", colour codes and indentation taken off. */
export function testsSummary(output: string): string | undefined {
  const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
  return plain
    .split("\n")
    .map((l) => l.trim())
    .find((l) => /^Tests\s+\d/.test(l));
}

export const npmTestBenchmark: Benchmark = {
  name: "npm-test",
  async run() {
    progress("npm-test: npm test (some minutes)");
    const run = await timeCommand(
      "npm",
      ["test"],
      { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      TIMEOUT_MS,
    );
    const summary = testsSummary(run.stdout) ?? "no summary line";
    return [
      {
        what: "npm test",
        measure: "wall time of `npm test`: lint, type-check, build and the project's own tests",
        value: run.ms / 1000,
        unit: "s",
        target: `≤ ${TARGET_SECONDS} s`,
        met: run.exitCode === 0 && run.ms / 1000 <= TARGET_SECONDS,
        note: `exit ${run.exitCode}; ${summary}`,
      },
    ];
  },
};
