import os from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

// The project's own tests. Conformance suites under suites/ are run by `tracecheck run`, not here.
// vitest's default leaves one core idle; many of these files wait on servers and child processes, so two files
// at once keep a two-core machine busy.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test/browser needs Chromium: `npm run test:browser` runs it (vitest.browser.config.ts).
    exclude: [...configDefaults.exclude, "test/browser/**"],
    pool: "forks",
    maxWorkers: Math.max(2, os.availableParallelism()),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
