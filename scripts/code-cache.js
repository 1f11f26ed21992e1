// Runs a CommonJS file of the bundle (dist/bundle/*.cjs, scripts/build.js) with V8's code cache: the bytecode V8
// compiled for it in an earlier run, kept under node_modules/.cache/tracecheck/code. Compiling the bundle's
// functions was a tenth to a fifth of a run's processor time on each of its threads; a cached function is read
// instead. Node 20 keeps no such cache for ES modules, which is why these files are CommonJS.
//
// Code run so has no import(): Node 20 loads modules for it only as an experimental feature that warns. The build
// leaves none in these files (scripts/build.js); what they load at run time, they require.
//
// A cache file is named by the bundle's key (the hash of its content, which the build records, with its size and
// modification time), and carries a hash of its own content: V8 checks that a cache was made by the same V8 with
// the same flags and for source of the same length, not for the same source, and does not check its bytes. A cache
// made for other code, or damaged, is never given to V8; one V8 refuses is made again.
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

/** Where the caches are kept between runs: a folder any `npm ci` leaves writable. */
export function codeCacheDir(root) {
  return path.join(root, "node_modules", ".cache", "tracecheck", "code");
}

/** How much of the code a cache holds compiled: what the run that made it used (see save). */
export const COVERAGE = { part: 0, whole: 1 };

const HASH_BYTES = 32;
const HEADER_BYTES = HASH_BYTES + 1;

const digest = (bytes) => createHash("sha256").update(bytes).digest();

/** The cache of `file` under `key`: its coverage and V8's data, or undefined when missing or damaged. */
function readCache(file) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes.length <= HEADER_BYTES) return undefined;
  const body = bytes.subarray(HASH_BYTES);
  if (!digest(body).equals(bytes.subarray(0, HASH_BYTES))) return undefined;
  return { coverage: body[0], data: body.subarray(1) };
}

/** Writes the file whole or not at all, and removes the caches of other keys of the same code. */
function writeCache(dir, name, file, coverage, data) {
  const body = Buffer.concat([Buffer.from([coverage]), data]);
  const partial = `${file}.${randomBytes(6).toString("hex")}.partial`;
  try {
    // The folder alone, never its parents: a cache beside something removed since (a test's temporary folder, at
    // the exit of its process) is not made.
    try {
      mkdirSync(dir);
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
    }
    writeFileSync(partial, Buffer.concat([digest(body), body]));
    renameSync(partial, file);
    for (const other of readdirSync(dir)) {
      if (other.startsWith(`${name}-`) && other.endsWith(".v8") && path.join(dir, other) !== file) {
        rmSync(path.join(dir, other), { force: true });
      }
    }
  } catch {
    // A cache that cannot be written (a read-only install) only costs the next run the compile.
    try {
      rmSync(partial, { force: true });
    } catch {
      // Nothing was written.
    }
  }
}

/**
 * The key of a bundle file: the content hash the build recorded for it, with the file's size and modification
 * time, so that a file changed since its build is not given the cache of what it was.
 */
export function codeKey(file, recordedHash) {
  const { size, mtimeMs } = statSync(file);
  return createHash("sha256").update(`${recordedHash} ${size} ${mtimeMs}`).digest("hex").slice(0, 32);
}

/**
 * Runs the CommonJS file `file` as Node would (its `require` resolving from where it is, unless another is given),
 * with the cache kept as `name` under `key` in `dir`. Returns its exports, whether V8 used a cache, and
 * save(coverage), which keeps the code compiled so far for the next run when there was no usable cache or the one
 * there covered less.
 */
export function runCached(file, { dir, name, key, require = createRequire(file) }) {
  const cacheFile = path.join(dir, `${name}-${key}.v8`);
  const cached = readCache(cacheFile);
  const source = readFileSync(file, "utf8");
  // Node's own wrapper for a CommonJS module, on the source's first line, so that line numbers stay the same.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cached === undefined ? {} : { cachedData: cached.data }),
  });
  const used = cached !== undefined && script.cachedDataRejected === false;
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require, module, file, path.dirname(file));
  return {
    exports: module.exports,
    used,
    save(coverage) {
      if (used && cached.coverage >= coverage) return;
      writeCache(dir, name, cacheFile, coverage, script.createCachedData());
    },
  };
}
