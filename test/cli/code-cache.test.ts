// The bundle's CommonJS files run with V8's code cache (scripts/code-cache.js): a cache is used only for the code it
// was made for, a damaged or refused one is made again, and a run of the command leaves one for the next. Each load
// runs in a process of its own, as a command does: V8 would otherwise find the code compiled in this one.
import { mkdir, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bundleCacheName, codeCacheDir, contentKey, writeCache } from "../../scripts/code-cache.js";
import { bundleCode } from "../../scripts/compiled.js";
import { COMMAND_FLAGS_TAG, commandFlagsApply } from "../../scripts/v8-flags.js";
import { BIN, REPO_ROOT, runCli, runNode, tempDir } from "../support/cli.ts";

/** The tag of the caches the command makes: it runs under V8 flags of its own where they apply. */
const COMMAND_TAG = commandFlagsApply() ? COMMAND_FLAGS_TAG : "";

/** The file the command keeps the code cache of the bundle's file `name` in, for the bundle as it is now. */
async function commandCache(name: "command" | "thread"): Promise<string> {
  const key = await keyOf(bundleCode(REPO_ROOT, name));
  return path.join(codeCacheDir(REPO_ROOT), `${bundleCacheName(REPO_ROOT, name, COMMAND_TAG)}-${key}.v8`);
}

/** A run of the auth class against a small embedded reference, its reports in `reports`. */
function authRun(reports: string) {
  return runCli(["run", "--suite", "auth", "--events", "20", "--quiet", "--report-dir", reports]);
}

const CODE_CACHE = path.join(REPO_ROOT, "scripts", "code-cache.js");
const WHOLE = 1;
const PART = 0;
/** Where a cache file's coverage byte is: after the hash of what follows. */
const COVERAGE_AT = 32;

let work: Awaited<ReturnType<typeof tempDir>>;
let file: string;
let dir: string;

beforeEach(async () => {
  work = await tempDir("code-cache");
  file = path.join(work.dir, "code.cjs");
  dir = path.join(work.dir, "cache");
  await writeFile(file, codeOf(6));
});

afterEach(async () => {
  await work.remove();
});

/** A CommonJS file whose exports compute with a function compiled only when called. */
function codeOf(n: number): string {
  return `const path = require("node:path");
function triangle(k) { let t = 0; for (let i = 1; i <= k; i++) t += i; return t; }
module.exports = { value: triangle(${n}), base: path.basename(__filename), same: module.exports === exports };
`;
}

interface Load {
  used: boolean;
  exports: { value: number; base: string; same: boolean };
}

/** Loads `file` (by default the test's) in a fresh process, then saves with `coverage` unless it is undefined. */
async function load(coverage?: number, what = file): Promise<Load> {
  const script = `
    import { runCached } from ${JSON.stringify(CODE_CACHE)};
    const run = runCached(${JSON.stringify(what)}, { dir: ${JSON.stringify(dir)}, name: "code" });
    ${coverage === undefined ? "" : `run.save(${coverage});`}
    const { value, base, same } = run.exports;
    process.stdout.write(JSON.stringify({ used: run.used, exports: { value, base, same } }));`;
  const result = await runNode(["--input-type=module", "-e", script]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Load;
}

const keyOf = async (at = file) => contentKey(await readFile(at));
const cacheFile = (key: string) => path.join(dir, `code-${key}.v8`);

describe("a CommonJS file run with a code cache", () => {
  it("runs as Node runs it, and a second run uses the cache the first made", async () => {
    const first = await load(PART);
    expect(first).toEqual({ used: false, exports: { value: 21, base: "code.cjs", same: true } });
    expect((await readFile(cacheFile(await keyOf())))[COVERAGE_AT]).toBe(PART);
    const second = await load();
    expect(second).toEqual({ ...first, used: true });
  });

  it("is not given the cache of other code of the same length, which V8 would take, and drops it", async () => {
    await load(PART);
    const before = await keyOf();
    await writeFile(file, codeOf(7));
    expect((await readFile(file)).length).toBe(codeOf(6).length);
    expect(await load(PART)).toMatchObject({ used: false, exports: { value: 28 } });
    expect(await readdir(dir)).toEqual([`code-${await keyOf()}.v8`]);
    expect(await keyOf()).not.toBe(before);
  });

  it("does not give V8 a damaged cache, and makes it again", async () => {
    await load(PART);
    const at = cacheFile(await keyOf());
    const bytes = await readFile(at);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0xff;
    await writeFile(at, bytes);
    expect((await load(PART)).used).toBe(false);
    expect((await load()).used).toBe(true);
  });

  it("makes again a cache V8 refuses: one made for other code, found under this code's key", async () => {
    await load(PART);
    const other = await readFile(cacheFile(await keyOf()));
    await writeFile(file, codeOf(7_000));
    await writeFile(cacheFile(await keyOf()), other);
    expect(await load(PART)).toMatchObject({ used: false, exports: { value: 24_503_500 } });
    expect((await load()).used).toBe(true);
  });

  it("replaces a cache that covers less with one that covers more, and never the other way", async () => {
    await load(PART);
    await load(WHOLE);
    const at = cacheFile(await keyOf());
    expect((await readFile(at))[COVERAGE_AT]).toBe(WHOLE);
    const { mtimeMs } = await stat(at);
    await load(PART);
    expect((await readFile(at))[COVERAGE_AT]).toBe(WHOLE);
    expect((await stat(at)).mtimeMs).toBe(mtimeMs);
  });

  it("does not ask V8 for the data where the cache cannot be written, and writes it whole where it can", async () => {
    let asked = 0;
    const data = () => {
      asked += 1;
      return Buffer.from("data");
    };
    const blocked = path.join(file, "not-a-folder");
    writeCache(blocked, "code", path.join(blocked, "code-x.v8"), 1, data);
    expect(asked).toBe(0);
    await mkdir(dir);
    writeCache(dir, "code", path.join(dir, "code-x.v8"), 300, data);
    expect(asked).toBe(1);
    const bytes = await readFile(path.join(dir, "code-x.v8"));
    expect(bytes[COVERAGE_AT]).toBe(255);
    expect(bytes.subarray(COVERAGE_AT + 1).toString()).toBe("data");
    expect(await readdir(dir)).toEqual(["code-x.v8"]);
  });

  it("keeps a cache per checkout, so that two sharing one node_modules do not remove each other's", async () => {
    const here = bundleCacheName("/work/one", "command");
    const there = bundleCacheName("/work/two", "command");
    expect(here).not.toBe(there);
    expect(bundleCacheName("/work/one/", "command")).toBe(here);
    expect(bundleCacheName("/work/one", "thread")).not.toBe(here);
    // Caches made under the command's V8 flags and under the defaults are kept apart.
    expect(bundleCacheName("/work/one", "command", COMMAND_FLAGS_TAG)).not.toBe(
      bundleCacheName("/work/one", "command", ""),
    );
    await mkdir(dir);
    const data = () => Buffer.from("data");
    writeCache(dir, here, path.join(dir, `${here}-1.v8`), 1, data);
    writeCache(dir, there, path.join(dir, `${there}-2.v8`), 1, data);
    // A cache of newer code of the first checkout replaces that checkout's older one, and only that.
    writeCache(dir, here, path.join(dir, `${here}-3.v8`), 1, data);
    expect((await readdir(dir)).sort()).toEqual([`${here}-3.v8`, `${there}-2.v8`].sort());
  });

  it("costs only the compile when the cache cannot be written", async () => {
    dir = path.join(file, "not-a-folder");
    expect((await load(PART)).exports.value).toBe(21);
    expect((await load()).used).toBe(false);
  });

  it("is not kept where the cache folder's parent is gone", async () => {
    dir = path.join(work.dir, "gone", "cache");
    expect((await load(PART)).exports.value).toBe(21);
    expect(await readdir(work.dir)).not.toContain("gone");
  });

  it("removes what a process left half written long ago, not what one writes now", async () => {
    await mkdir(dir);
    const old = path.join(dir, "code-0.v8.abandoned.partial");
    const fresh = path.join(dir, "code-0.v8.writing.partial");
    await writeFile(old, "x");
    await writeFile(fresh, "x");
    await utimes(old, 1_000, 1_000);
    await load(PART);
    expect((await readdir(dir)).sort()).toEqual([`code-${await keyOf()}.v8`, path.basename(fresh)].sort());
  });

  it("is taken by V8 for the command's own file", async () => {
    const command = bundleCode(REPO_ROOT, "command");
    const script = `
      import { runCached } from ${JSON.stringify(CODE_CACHE)};
      const run = runCached(${JSON.stringify(command)}, { dir: ${JSON.stringify(dir)}, name: "command" });
      run.save(1);
      process.stdout.write(JSON.stringify({ used: run.used, main: typeof run.exports.main }));`;
    const runs = [];
    for (let i = 0; i < 2; i++) {
      const result = await runNode(["--input-type=module", "-e", script]);
      expect(result.code, result.stderr).toBe(0);
      runs.push(JSON.parse(result.stdout));
    }
    expect(runs).toEqual([
      { used: false, main: "function" },
      { used: true, main: "function" },
    ]);
  });
});

describe("the command", () => {
  it("and the reference's thread are strict throughout, as the ES modules they are made of", async () => {
    for (const name of ["command", "thread"] as const) {
      const code = bundleCode(REPO_ROOT, name);
      // A directive counts only as the first statement: the whole file, bundled packages included, is strict.
      expect((await readFile(code, "utf8")).startsWith('"use strict";\n'), name).toBe(true);
    }
  });

  it("and the reference's thread are ASCII throughout, so that each start decodes them at once", async () => {
    for (const name of ["command", "thread"] as const) {
      const text = await readFile(bundleCode(REPO_ROOT, name), "utf8");
      const outside = [...text.matchAll(/[^\x00-\x7f]/gu)].map((m) => text.slice(m.index - 40, m.index + 10));
      expect(outside, name).toEqual([]);
    }
  });

  it("leaves a cache of its own code and of the reference's thread", async () => {
    // Other tests' runs of the command leave the same files: they are removed first, so that they are this run's
    // unless another test's run wrote them again meanwhile.
    for (const name of ["command", "thread"] as const) await rm(await commandCache(name), { force: true });
    const result = await authRun(path.join(work.dir, "reports"));
    expect(result.code, result.stderr).toBe(0);
    const names = await readdir(codeCacheDir(REPO_ROOT));
    for (const name of ["command", "thread"] as const)
      expect(names).toContain(path.basename(await commandCache(name)));
  });

  it("reads, in a second run, the caches the first made, under the flags they were made under", async () => {
    // What this run's process and its threads write, whatever other tests' runs write meanwhile.
    const writes = path.join(work.dir, "cache-writes.txt");
    const run = () =>
      runNode(
        [
          "--require",
          path.join(REPO_ROOT, "test", "support", "cache-writes.cjs"),
          BIN,
          ...[
            "run",
            "--suite",
            "auth",
            "--events",
            "20",
            "--quiet",
            "--report-dir",
            path.join(work.dir, "r"),
          ],
        ],
        { env: { TRACECHECK_TEST_CACHE_WRITES: writes } },
      );
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    await rm(writes, { force: true });
    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    // A cache V8 refused (made under other flags than it is read under) would have been made again.
    const written = await readFile(writes, "utf8").catch(() => "");
    expect(written.split("\n").filter(Boolean)).toEqual([]);
  });
});
