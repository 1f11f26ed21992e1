import { defineConfig } from "vitest/config";

// The project's own tests. Conformance suites under suites/ are run by `tracecheck run`, not here.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
