// A run's context as the suites see it, for tests that call the harness's pieces without a run: the bases given,
// one property case, and files that no such test reads.
import type { RunContext } from "../../src/engine/context.ts";

export function testRunContext(
  eventsBase: string,
  resolverBase: string,
  more: Partial<RunContext> = {},
): RunContext {
  return {
    eventsBase,
    resolverBase,
    classes: ["events"],
    modules: ["core"],
    seed: 1,
    runs: 1,
    definitionFile: "unused.yaml",
    timeoutMs: 5000,
    concurrency: 4,
    ratePerSecond: 0,
    allowOrigins: [],
    baselineFile: "unused.json",
    embedded: false,
    ...more,
  };
}
