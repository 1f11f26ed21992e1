import os from "node:os";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that start many tracecheck runs or processes, longest first, by path prefix. Without the durations of an
 * earlier run vitest starts the largest files first, and these are small: one left for the end keeps a core busy
 * long after the other has finished.
 */
const SLOW_FIRST = ["test/prove/no-false-verdicts.test.ts", "test/prove/", "test/hostile/", "test/cli/"];

class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const relative = path.relative(this.ctx.config.root, file.moduleId).split(path.sep).join("/");
      const at = SLOW_FIRST.findIndex((prefix) => relative.startsWith(prefix));
      return at < 0 ? SLOW_FIRST.length : at;
    };
    // Stable: within a rank, vitest's own order (durations when it has them, else size).
    return sorted
      .map((file, n) => ({ file, n, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.n - b.n)
      .map(({ file }) => file);
  }
}

// The project's own tests. Conformance suites under suites/ are run by `tracecheck run`, not here.
// vitest's default leaves one core idle; many of these files wait on servers and child processes, so two files
// at once keep a two-core machine busy.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test/browser needs Chromium: `npm run test:browser` runs it (vitest.browser.config.ts).
    exclude: [...configDefaults.exclude, "test/browser/**"],
    pool: "forks",
    // A worker process keeps the modules it loaded from one test file to the next rather than load them anew for
    // each: that was a quarter of the suite's time. Tests restore what they change (the environment, spies).
    isolate: false,
    maxWorkers: Math.max(2, os.availableParallelism()),
    testTimeout: 60_000,
    hookTimeout: 60_000,
    sequence: { sequencer: SlowFilesFirst },
    globalSetup: ["test/support/build.ts"],
  },
});
