// The bundle's CommonJS files run with V8's code cache (scripts/code-cache.js): a cache is used only for the code it
// was made for, a damaged or refused one is made again, and a run of the command leaves one for the next. Each load
// runs in a process of its own, as a command does: V8 would otherwise find the code compiled in this one.
import { readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { codeCacheDir, codeKey } from "../../scripts/code-cache.js";
import { bundleCode } from "../../scripts/compiled.js";
import { REPO_ROOT, runCli, runNode, tempDir } from "../support/cli.ts";

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

/** Loads `file` in a fresh process under `key`, then saves with `coverage` unless it is undefined. */
async function load(key: string, coverage?: number): Promise<Load> {
  const script = `
    import { runCached } from ${JSON.stringify(CODE_CACHE)};
    const run = runCached(${JSON.stringify(file)}, { dir: ${JSON.stringify(dir)}, name: "code", key: ${JSON.stringify(key)} });
    ${coverage === undefined ? "" : `run.save(${coverage});`}
    process.stdout.write(JSON.stringify({ used: run.used, exports: run.exports }));`;
  const result = await runNode(["--input-type=module", "-e", script]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Load;
}

const cacheFile = (key: string) => path.join(dir, `code-${key}.v8`);

describe("a CommonJS file run with a code cache", () => {
  it("runs as Node runs it, and a second run uses the cache the first made", async () => {
    const first = await load("k1", PART);
    expect(first).toEqual({ used: false, exports: { value: 21, base: "code.cjs", same: true } });
    expect((await readFile(cacheFile("k1")))[COVERAGE_AT]).toBe(PART);
    const second = await load("k1");
    expect(second).toEqual({ ...first, used: true });
  });

  it("is given no cache made under another key, and saving removes the caches of other keys", async () => {
    await load("k1", PART);
    expect((await load("k2", PART)).used).toBe(false);
    expect(await readdir(dir)).toEqual(["code-k2.v8"]);
  });

  it("does not give V8 a damaged cache, and makes it again", async () => {
    await load("k1", PART);
    const bytes = await readFile(cacheFile("k1"));
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0xff;
    await writeFile(cacheFile("k1"), bytes);
    expect((await load("k1", PART)).used).toBe(false);
    expect((await load("k1")).used).toBe(true);
  });

  it("makes again a cache V8 refuses: one made for other code, under this code's key", async () => {
    await load("k1", PART);
    const other = await readFile(cacheFile("k1"));
    await writeFile(file, codeOf(7_000));
    await writeFile(cacheFile("k1"), other);
    const refused = await load("k1", PART);
    expect(refused).toMatchObject({ used: false, exports: { value: 24_503_500 } });
    expect((await load("k1")).used).toBe(true);
  });

  it("replaces a cache of part of the code with one of the whole, and never the other way", async () => {
    await load("k1", PART);
    await load("k1", WHOLE);
    expect((await readFile(cacheFile("k1")))[COVERAGE_AT]).toBe(WHOLE);
    const { mtimeMs } = await stat(cacheFile("k1"));
    await load("k1", PART);
    expect((await readFile(cacheFile("k1")))[COVERAGE_AT]).toBe(WHOLE);
    expect((await stat(cacheFile("k1"))).mtimeMs).toBe(mtimeMs);
  });

  it("costs only the compile when the cache cannot be written", async () => {
    dir = path.join(file, "not-a-folder");
    expect((await load("k1", PART)).exports.value).toBe(21);
    expect((await load("k1")).used).toBe(false);
  });

  it("is not kept where the cache folder's parent is gone", async () => {
    dir = path.join(work.dir, "gone", "cache");
    expect((await load("k1", PART)).exports.value).toBe(21);
    expect(await readdir(work.dir)).not.toContain("gone");
  });

  it("is keyed to the content the build recorded and to the file as it is now", async () => {
    const key = codeKey(file, "hash-a");
    expect(codeKey(file, "hash-a")).toBe(key);
    expect(codeKey(file, "hash-b")).not.toBe(key);
    await utimes(file, 1_000, 1_000);
    expect(codeKey(file, "hash-a")).not.toBe(key);
  });
});

describe("the command", () => {
  it("and the reference's thread are strict throughout, as the ES modules they are made of", async () => {
    for (const name of ["command", "thread"] as const) {
      const code = bundleCode(REPO_ROOT, name);
      expect(code, name).toBeDefined();
      // A directive counts only as the first statement: the whole file, bundled packages included, is strict.
      if (code !== undefined)
        expect((await readFile(code.file, "utf8")).startsWith('"use strict";\n')).toBe(true);
    }
  });

  it("leaves a cache of its own code and of the reference's thread, under the bundle's keys", async () => {
    const reports = path.join(work.dir, "reports");
    const result = await runCli([
      "run",
      "--suite",
      "auth",
      "--events",
      "20",
      "--quiet",
      "--report-dir",
      reports,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const names = await readdir(codeCacheDir(REPO_ROOT));
    for (const name of ["command", "thread"] as const) {
      const code = bundleCode(REPO_ROOT, name);
      expect(code, name).toBeDefined();
      if (code !== undefined) expect(names).toContain(`${name}-${codeKey(code.file, code.hash)}.v8`);
    }
  });
});
