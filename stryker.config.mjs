// Mutation testing of the pure domain code in src/model (the query oracle and the equivalences it rests on),
// run by `npm run prove:mutation`. It is slow, so `npm test` does not run it.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));

// The tests read third-party artefacts from the repository's sibling shared/, which the sandbox copy lacks.
process.env.TRACECHECK_SHARED_DIR ??= path.resolve(root, "../shared");

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "test/model/vitest.mutation.config.ts" },
  mutate: ["src/model/**/*.ts"],
  coverageAnalysis: "perTest",
  // The machines have two cores.
  concurrency: 2,
  // Re-runs test only the mutants whose code or covering tests changed; `-- --force` runs them all.
  incremental: true,
  incrementalFile: "reports/mutation/stryker-incremental.json",
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 95, low: 90, break: 90 },
};
