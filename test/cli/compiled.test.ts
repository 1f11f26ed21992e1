// bin/tracecheck.js runs dist/ only while no source is newer than its compiled file, and dist/bundle only while it
// was made after every source, compiled file and install: an edit not yet built, or a checkout never built, runs
// the sources as they are now, never stale JavaScript.
import { mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  bundleBuiltins,
  bundleBuiltinsFile,
  bundleCurrent,
  bundledVersions,
  bundlePaths,
  compiledPairs,
  isPlainBuiltin,
  loadBuiltins,
  pathInForm,
  runnable,
  sourceNames,
  staleSources,
} from "../../scripts/compiled.js";
import { REPO_ROOT, tempDir } from "../support/cli.ts";

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

describe("whether the bundle is current", () => {
  async function stamp(sources: string[], when: number, packages = bundledVersions(work.dir)): Promise<void> {
    const { stamp: file } = bundlePaths(work.dir);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ sources, packages }));
    await utimes(file, when, when);
  }

  async function installed(name: string, version: string): Promise<void> {
    const at = path.join(work.dir, "node_modules", name, "package.json");
    await mkdir(path.dirname(at), { recursive: true });
    await writeFile(at, JSON.stringify({ name, version }));
  }

  async function builtTree(): Promise<void> {
    await file("src/cli/main.ts", 1_000);
    await file("suites/auth/header.suite.ts", 1_000);
    await file("dist/src/cli/main.js", 2_000);
    await file("dist/suites/auth/header.suite.js", 2_000);
  }

  it("runs the bundle when its stamp is newer than every source and compiled file and lists them all", async () => {
    await builtTree();
    await stamp(["src/cli/main.ts", "suites/auth/header.suite.ts"], 3_000);
    expect(sourceNames(work.dir)).toEqual(["src/cli/main.ts", "suites/auth/header.suite.ts"]);
    expect(bundleCurrent(work.dir)).toBe(true);
    expect(runnable(work.dir)).toBe("bundle");
  });

  it("runs the compiled files when the bundle is older than a compiled file, or has no stamp", async () => {
    await builtTree();
    expect(runnable(work.dir)).toBe("compiled");
    await stamp(["src/cli/main.ts", "suites/auth/header.suite.ts"], 1_500);
    expect(bundleCurrent(work.dir)).toBe(false);
    expect(runnable(work.dir)).toBe("compiled");
  });

  it("runs the compiled files when the bundle lists other sources than there are", async () => {
    await builtTree();
    // A source removed since the bundle was made: its code would still be in the bundle.
    await stamp(["src/cli/gone.ts", "src/cli/main.ts", "suites/auth/header.suite.ts"], 3_000);
    expect(runnable(work.dir)).toBe("compiled");
    // A source added since.
    await stamp(["src/cli/main.ts"], 3_000);
    expect(runnable(work.dir)).toBe("compiled");
  });

  // npm rewrites its lockfile in node_modules on every install; the build scripts make the bundle what it is.
  it.each([
    ["packages were installed", "node_modules/.package-lock.json"],
    ["the build script changed", "scripts/build.js"],
    ["the helper the build inlines changed", "scripts/compiled.js"],
  ])("runs the compiled files when %s after the bundle was made", async (_what, changed) => {
    await builtTree();
    await file(changed, 2_500);
    await stamp(["src/cli/main.ts", "suites/auth/header.suite.ts"], 3_000);
    expect(runnable(work.dir)).toBe("bundle");
    await file(changed, 3_500);
    expect(runnable(work.dir)).toBe("compiled");
  });

  it("runs the compiled files when a package it holds is installed in another version, by whatever means", async () => {
    await builtTree();
    await installed("undici", "7.0.0");
    await stamp(["src/cli/main.ts", "suites/auth/header.suite.ts"], 3_000);
    expect(bundledVersions(work.dir).undici).toBe("7.0.0");
    expect(runnable(work.dir)).toBe("bundle");
    // Same time, no lockfile touched (another package manager, a copy): the version tells.
    await installed("undici", "7.1.0");
    expect(runnable(work.dir)).toBe("compiled");
  });

  it("runs the sources when one is newer than its compiled file, whatever the bundle", async () => {
    await builtTree();
    await stamp(["src/cli/main.ts", "suites/auth/header.suite.ts"], 3_000);
    await file("src/cli/main.ts", 5_000);
    expect(runnable(work.dir)).toBe("sources");
  });
});

describe("where a source runs from in each form", () => {
  it("is itself, its compiled file in dist/, or its file in the bundle; a folder maps alike", () => {
    const root = path.join("/", "repo");
    expect(pathInForm(root, "sources", "src/cli/main.ts")).toBe(path.join(root, "src", "cli", "main.ts"));
    expect(pathInForm(root, "compiled", "src/cli/main.ts")).toBe(
      path.join(root, "dist", "src", "cli", "main.js"),
    );
    expect(pathInForm(root, "bundle", "src/cli/main.ts")).toBe(
      path.join(root, "dist", "bundle", "src", "cli", "main.js"),
    );
    expect(pathInForm(root, "bundle", path.join("suites", "auth"))).toBe(
      path.join(root, "dist", "bundle", "suites", "auth"),
    );
  });
});

describe("the modules of Node's own a bundle's CommonJS file requires", () => {
  async function listed(content: string): Promise<void> {
    const at = bundleBuiltinsFile(work.dir);
    await mkdir(path.dirname(at), { recursive: true });
    await writeFile(at, content);
  }

  it("are read from the list the build writes, keeping only modules Node also offers without the prefix", async () => {
    await listed(
      JSON.stringify({
        thread: ["node:http", "node:cluster", "node:sqlite", "node:test", "node:no-such-module", 7],
        command: ["node:net", "zlib"],
      }),
    );
    expect(bundleBuiltins(work.dir, "thread")).toEqual(["node:http", "node:cluster"]);
    expect(bundleBuiltins(work.dir, "command")).toEqual(["node:net", "zlib"]);
  });

  it("are none when the list is missing, damaged or lists none for the file", async () => {
    expect(bundleBuiltins(work.dir, "thread")).toEqual([]);
    await listed("{ not json");
    expect(bundleBuiltins(work.dir, "thread")).toEqual([]);
    await listed(JSON.stringify({ command: ["node:net"], thread: "node:http" }));
    expect(bundleBuiltins(work.dir, "thread")).toEqual([]);
  });

  it("are listed by the build for this checkout: what the server and the HTTP client need, and what listen loads", () => {
    expect(bundleBuiltins(REPO_ROOT, "thread")).toEqual(
      expect.arrayContaining(["node:http", "node:cluster"]),
    );
    expect(bundleBuiltins(REPO_ROOT, "command")).toEqual(expect.arrayContaining(["node:net", "node:http"]));
    for (const name of ["thread", "command"] as const) {
      expect(bundleBuiltins(REPO_ROOT, name).every(isPlainBuiltin), name).toBe(true);
    }
  });

  it("are loaded without a failure for one this Node does not have", () => {
    expect(() => loadBuiltins(["node:no-such-module", "node:os"])).not.toThrow();
    expect(isPlainBuiltin("node:os")).toBe(true);
    expect(isPlainBuiltin("os")).toBe(true);
    expect(isPlainBuiltin("node:test")).toBe(false);
    // Loaded, these would warn on every run.
    expect(isPlainBuiltin("node:wasi")).toBe(false);
    expect(isPlainBuiltin("punycode")).toBe(false);
    expect(isPlainBuiltin("left-pad")).toBe(false);
  });
});
