// The vitest configuration of the mutation run (stryker.config.mjs): the model's own tests only. Stryker's
// `testFiles` option would select them too, but with it Stryker activates static mutants (module-level tables
// and regular expressions) after the module has loaded, so they would survive untested.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["test/model/**/*.test.ts"],
    testTimeout: 60_000,
  },
});
