// bin/tracecheck.js runs dist/ only while no source is newer than its compiled file: an edit not yet built, or a
// checkout never built, runs the sources as they are now, never stale JavaScript.
import { mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compiledPairs, staleSources } from "../../scripts/compiled.js";
import { tempDir } from "../support/cli.ts";

let work: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  work = await tempDir("compiled");
});

afterEach(async () => {
  await work.remove();
});

async function file(relative: string, when: number): Promise<void> {
  const at = path.join(work.dir, relative);
  await mkdir(path.dirname(at), { recursive: true });
  await writeFile(at, "export {};\n");
  await utimes(at, when, when);
}

describe("which sources have no current compiled file", () => {
  it("none when every source has an older or equally old compiled file beside it in dist/", async () => {
    await file("src/cli/main.ts", 1_000);
    await file("suites/auth/header.suite.ts", 1_000);
    await file("src/cli/main.test.ts", 5_000);
    await file("dist/src/cli/main.js", 1_000);
    await file("dist/suites/auth/header.suite.js", 2_000);
    expect(staleSources(work.dir)).toEqual([]);
    // Tests are not compiled: a test newer than everything changes nothing.
    expect(
      compiledPairs(work.dir)
        .map((p) => path.relative(work.dir, p.source))
        .sort(),
    ).toEqual([path.join("src", "cli", "main.ts"), path.join("suites", "auth", "header.suite.ts")]);
  });

  it("a source edited after the build, and one never built", async () => {
    await file("src/cli/main.ts", 3_000);
    await file("dist/src/cli/main.js", 2_000);
    await file("src/cli/parse.ts", 1_000);
    const stale = staleSources(work.dir).map((p) => path.relative(work.dir, p.source));
    expect(stale.sort()).toEqual([path.join("src", "cli", "main.ts"), path.join("src", "cli", "parse.ts")]);
  });
});
