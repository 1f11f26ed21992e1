// bin/tracecheck.js runs the bundle in dist/ only while it was made after every source, the build's files and the
// last install, from exactly the sources there are and the packages installed: an edit not yet built, or a checkout
// never built, runs the sources as they are now, never stale JavaScript.
import { mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bundleCurrent, bundlePaths, currentForm, entryOf, sourceFiles, stampOf } from "../../bin/launch.js";
import { tempDir } from "../support/cli.ts";

let work: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  work = await tempDir("launch");
});

afterEach(async () => {
  await work.remove();
});

async function file(relative: string, when: number, content = "export {};\n"): Promise<void> {
  const at = path.join(work.dir, relative);
  await mkdir(path.dirname(at), { recursive: true });
  await writeFile(at, content);
  await utimes(at, when, when);
}

/** A stamp as the build writes it, for `sources` (default: those there are), made at `when`. */
async function stamp(when: number, sources = sourceFiles(work.dir)): Promise<void> {
  await file(
    path.relative(work.dir, bundlePaths(work.dir).stamp),
    when,
    `${JSON.stringify(stampOf(work.dir, sources))}\n`,
  );
}

async function installed(name: string, version: string): Promise<void> {
  const at = path.join(work.dir, "node_modules", name, "package.json");
  await mkdir(path.dirname(at), { recursive: true });
  await writeFile(at, JSON.stringify({ name, version }));
}

async function sources(): Promise<void> {
  await file("src/cli/main.ts", 1_000);
  await file("suites/auth/header.suite.ts", 1_000);
  // Neither is a source of the bundle.
  await file("src/cli/main.test.ts", 9_000);
  await file("src/types.d.ts", 9_000);
}

describe("the sources of the bundle", () => {
  it("are the TypeScript files of src/ and suites/, tests and declarations aside, sorted", async () => {
    await sources();
    expect(sourceFiles(work.dir)).toEqual(["src/cli/main.ts", "suites/auth/header.suite.ts"]);
  });
});

describe("whether the bundle is current", () => {
  it("is when its stamp is newer than every source and records them all", async () => {
    await sources();
    await stamp(3_000);
    expect(bundleCurrent(work.dir)).toBe(true);
    expect(currentForm(work.dir)).toBe("bundle");
  });

  it("is not without a stamp, or with one a build did not finish writing", async () => {
    await sources();
    expect(currentForm(work.dir)).toBe("sources");
    await file(path.relative(work.dir, bundlePaths(work.dir).stamp), 3_000, '{"sources":');
    expect(currentForm(work.dir)).toBe("sources");
  });

  it("is not once a source is edited after the build", async () => {
    await sources();
    await stamp(3_000);
    await file("suites/auth/header.suite.ts", 3_500);
    expect(currentForm(work.dir)).toBe("sources");
  });

  it("is not when it records other sources than there are", async () => {
    await sources();
    // A source removed since the bundle was made: its code would still be in the bundle.
    await stamp(3_000, ["src/cli/gone.ts", "src/cli/main.ts", "suites/auth/header.suite.ts"]);
    expect(currentForm(work.dir)).toBe("sources");
    // A source added since, with an old time (copied, or checked out).
    await stamp(3_000, ["src/cli/main.ts"]);
    expect(currentForm(work.dir)).toBe("sources");
  });

  // npm rewrites its lockfile in node_modules on every install; the build's files make the bundle what it is.
  it.each([
    ["packages were installed", "node_modules/.package-lock.json"],
    ["the build changed", "scripts/build.js"],
    ["the launcher's rule changed", "bin/launch.js"],
  ])("is not when %s after it was made", async (_what, changed) => {
    await sources();
    await file(changed, 2_500);
    await stamp(3_000);
    expect(currentForm(work.dir)).toBe("bundle");
    await file(changed, 3_500);
    expect(currentForm(work.dir)).toBe("sources");
  });

  it("is not when a package it holds is installed in another version, by whatever means", async () => {
    await sources();
    await installed("undici", "7.0.0");
    await stamp(3_000);
    expect(stampOf(work.dir).packages.undici).toBe("7.0.0");
    expect(currentForm(work.dir)).toBe("bundle");
    // Same time, no lockfile touched (another package manager, a copy): the version tells.
    await installed("undici", "7.1.0");
    expect(currentForm(work.dir)).toBe("sources");
  });
});

describe("how a source is started in a process of its own", () => {
  it("from the bundle, its file under dist/; from the sources, itself through tsx", () => {
    const root = path.join("/", "repo");
    expect(entryOf(root, "src/prove/worker.ts", "bundle")).toEqual({
      file: path.join(root, "dist", "src", "prove", "worker.js"),
      execArgv: [],
    });
    expect(entryOf(root, "src/prove/worker.ts", "sources")).toEqual({
      file: path.join(root, "src", "prove", "worker.ts"),
      execArgv: ["--import", "tsx"],
    });
  });

  it("in the form that is current, when none is named", async () => {
    await sources();
    expect(entryOf(work.dir, "src/cli/main.ts").file).toBe(path.join(work.dir, "src", "cli", "main.ts"));
    await stamp(3_000);
    expect(entryOf(work.dir, "src/cli/main.ts").file).toBe(
      path.join(work.dir, "dist", "src", "cli", "main.js"),
    );
  });
});
