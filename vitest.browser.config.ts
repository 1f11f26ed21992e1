import { defineConfig } from "vitest/config";

// `npm run test:browser`: report.html opened in headless Chromium (Debian's package), apart from `npm test` so
// that the main suite never needs a browser. Its reports come from two real runs of the CLI, made once.
export default defineConfig({
  test: {
    include: ["test/browser/**/*.test.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
