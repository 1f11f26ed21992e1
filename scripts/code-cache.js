// Runs a CommonJS file (the bundle's dist/bundle/*.cjs, scripts/build.js; Ajv's generated validators) with V8's
// code cache: the bytecode V8 compiled for it in an earlier run, kept under node_modules/.cache/tracecheck/code.
// Compiling the bundle's functions was a tenth to a fifth of a run's processor time on each of its threads; a
// cached function is read instead. Node 20 keeps no such cache for ES modules, which is why these files are
// CommonJS.
//
// Code run so has no import() of its own: Node 20 loads modules for it only as an experimental feature that warns.
// The build leaves none in the bundle's files; what they import at run time, they import through the function the
// process that runs them gives (ES_MODULE_IMPORTER, scripts/compiled.js), or require.
//
// A cache file is named by the hash of the very bytes run, and carries a hash of its own content: V8 checks that a
// cache was made by the same V8 with the same flags and for source of the same length, not for the same source,
// and does not check its bytes. A cache made for other code, or damaged, is never given to V8; one V8 refuses is
// made again.
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";
import { bundleCode, ES_MODULE_IMPORTER } from "./compiled.js";
import { flagsTag } from "./v8-flags.js";

/** Where the caches are kept between runs: a folder any `npm ci` leaves writable. */
export function codeCacheDir(root) {
  return path.join(root, "node_modules", ".cache", "tracecheck", "code");
}

const HASH_BYTES = 32;
const HEADER_BYTES = HASH_BYTES + 1;
/** A partial file this old was left by a process that ended while writing it. */
const ABANDONED_MS = 60_000;

const digest = (bytes) => createHash("sha256").update(bytes).digest();

/** A coverage as the one byte a cache keeps it in. */
const coverageByte = (coverage) => Math.min(255, Math.max(0, Math.floor(coverage)));

/** The key a cache of this source is kept under: the hash of its bytes. */
export function contentKey(source) {
  return digest(source).toString("hex").slice(0, 32);
}

/** The cache in `file`: how much of its code it holds compiled, and V8's data; undefined when missing or damaged. */
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

/** Removes the caches of other keys of the same code, and partial files a process left behind. */
function prune(dir, name, kept) {
  const now = Date.now();
  for (const other of readdirSync(dir)) {
    if (!other.startsWith(`${name}-`)) continue;
    const at = path.join(dir, other);
    try {
      if (other.endsWith(".v8") ? at !== kept : now - statSync(at).mtimeMs > ABANDONED_MS) {
        rmSync(at, { force: true });
      }
    } catch {
      // Another process removed it first.
    }
  }
}

/**
 * Writes the cache of the code kept as `name` to `file` in `dir`, whole or not at all, with its coverage (0 to 255)
 * and the data makeData gives. Where it cannot be written (a read-only install), makeData is not called: asking V8
 * for the data costs as much as a tenth of a second. Exported for its tests.
 */
export function writeCache(dir, name, file, coverage, makeData) {
  const partial = `${file}.${randomBytes(6).toString("hex")}.partial`;
  let fd;
  try {
    // The folder alone, never its parents: a cache beside something removed since (a test's temporary folder, at
    // the exit of its process) is not made.
    try {
      mkdirSync(dir);
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
    }
    fd = openSync(partial, "wx");
    const body = Buffer.concat([Buffer.from([coverageByte(coverage)]), makeData()]);
    writeFileSync(fd, Buffer.concat([digest(body), body]));
    closeSync(fd);
    fd = undefined;
    renameSync(partial, file);
    prune(dir, name, file);
  } catch {
    // A cache that cannot be written only costs the next run the compile.
    try {
      if (fd !== undefined) closeSync(fd);
      rmSync(partial, { force: true });
    } catch {
      // Nothing was written.
    }
  }
}

/**
 * Runs the bundle's CommonJS file `name` ("command" or "thread", scripts/compiled.js) of the checkout at `root` with
 * its code cache. What it imports at run time it imports through this module's import(), which it is given under
 * ES_MODULE_IMPORTER: it has none of its own.
 */
export function runBundled(root, name) {
  return readBundled(root, name).run();
}

/**
 * Reads the bundle's CommonJS file `name` and its code cache, to be run by `run()` later, under the flags whose tag
 * is `tag`: the command reads them while it waits to set its flags (bin/tracecheck.js), since reading and checking
 * them compiles nothing.
 */
export function readBundled(root, name, tag = flagsTag()) {
  const read = readCached(bundleCode(root, name), {
    dir: codeCacheDir(root),
    name: bundleCacheName(root, name, tag),
  });
  return {
    run() {
      globalThis[Symbol.for(ES_MODULE_IMPORTER)] = (specifier) => import(specifier);
      return read.run();
    },
  };
}

/**
 * The name the code cache of the bundle's file `name` ("command" or "thread") of the checkout at `root` is kept
 * under: the file's, the tag of the V8 flags this thread runs under (scripts/v8-flags.js), and a key of the
 * checkout's place. Two checkouts sharing one node_modules (a worktree linked to another's) then each keep a cache
 * of their own, rather than each remove the other's as one of older code; so do the command and the project's other
 * processes, which run under V8's default flags.
 */
export function bundleCacheName(root, name, tag = flagsTag()) {
  return `${tagged(name, tag)}-${contentKey(Buffer.from(path.resolve(root))).slice(0, 12)}`;
}

/** A cache's name with the tag of the flags it is made under, if any. */
export function tagged(name, tag = flagsTag()) {
  return tag === "" ? name : `${name}+${tag}`;
}

/**
 * Runs the CommonJS file `file` as Node would (its `require` resolving from where it is, unless another is given),
 * with the cache kept as `name` in `dir`. Returns its exports, whether V8 used a cache, and save(coverage), which
 * keeps the code compiled so far for the next run when there was no usable cache or the one there covered less:
 * coverage is a number from 0 to 255 that grows with how much of the code the process ran (the command counts the
 * checks that passed). save never throws.
 */
export function runCached(file, where) {
  return readCached(file, where).run();
}

/** runCached in two steps: the file and its cache read and checked now, compiled and run by `run()`. */
function readCached(file, { dir, name, require = createRequire(file) }) {
  const bytes = readFileSync(file);
  const cacheFile = path.join(dir, `${name}-${contentKey(bytes)}.v8`);
  const cached = readCache(cacheFile);
  return {
    run() {
      // Node's own wrapper for a CommonJS module, on the source's first line, so that line numbers stay the same.
      const script = new vm.Script(
        `(function (exports, require, module, __filename, __dirname) {${bytes.toString("utf8")}\n})`,
        { filename: file, ...(cached === undefined ? {} : { cachedData: cached.data }) },
      );
      const used = cached !== undefined && script.cachedDataRejected === false;
      const module = { exports: {} };
      script.runInThisContext()(module.exports, require, module, file, path.dirname(file));
      return {
        exports: module.exports,
        used,
        save(coverage) {
          if (used && cached.coverage >= coverageByte(coverage)) return;
          writeCache(dir, name, cacheFile, coverage, () => script.createCachedData());
        },
      };
    },
  };
}
