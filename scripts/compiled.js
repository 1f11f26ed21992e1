// Which form of tracecheck is current: the sources under src/ and suites/, their compiled files in dist/ (none may be
// older than its source), or the bundle of those in dist/bundle. The build makes them, and bin/tracecheck.js runs
// the most compiled one that is current, so that it always runs what the sources say now.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import path from "node:path";

/** The folders compiled into dist/, each to dist/<folder>/. */
export const SOURCE_FOLDERS = ["src", "suites"];

/** A file's modification time in milliseconds, or undefined when it does not exist. */
export function mtime(file) {
  try {
    return statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  } catch {
    return undefined;
  }
}

/** Every .ts source of the folders (tests aside) with the .js file it compiles to under `root`/dist. */
export function compiledPairs(root) {
  const pairs = [];
  const prefix = path.join(root, path.sep);
  for (const folder of SOURCE_FOLDERS) {
    let entries;
    try {
      entries = readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
      // Tests are not run compiled; declarations compile to nothing.
      if (entry.name.endsWith(".test.ts") || entry.name.endsWith(".d.ts")) continue;
      // Joined as text: every start of the command lists these some 270 files.
      const source = `${entry.parentPath}${path.sep}${entry.name}`;
      const relative = source.slice(prefix.length);
      pairs.push({ source, target: pathInForm(root, "compiled", relative), relative });
    }
  }
  return pairs;
}

/**
 * The modification times of a pair's source and compiled file, read once per pair: deciding what to run asks
 * about both twice (staleSources, bundleCurrent), on every start of the command.
 */
function timesOf(pair) {
  pair.times ??= { source: mtime(pair.source), target: mtime(pair.target) };
  return pair.times;
}

/** The pairs whose compiled file is missing or older than its source. */
export function staleSources(root, pairs = compiledPairs(root)) {
  return pairs.filter((pair) => {
    const { source, target } = timesOf(pair);
    return target === undefined || target < (source ?? Number.POSITIVE_INFINITY);
  });
}

/**
 * Where the source at `relative` (a path under `root`, like src/cli/main.ts, or a folder) is run from in a form:
 * itself from the sources, its compiled file under dist/, or its file in the bundle under dist/bundle.
 */
export function pathInForm(root, form, relative) {
  if (form === "sources") return path.join(root, relative);
  const compiled = relative.replace(/\.ts$/, ".js");
  return form === "bundle" ? path.join(root, "dist", "bundle", compiled) : path.join(root, "dist", compiled);
}

/**
 * Where the build bundles the compiled command and suites (scripts/build.js): one module graph in a few files
 * instead of some 260, which a run would otherwise resolve and load one by one. Its stamp lists the sources it was
 * built from.
 */
export function bundlePaths(root) {
  const dir = path.join(root, "dist", "bundle");
  return { dir, stamp: path.join(dir, "sources.json") };
}

/** The CommonJS files of the bundle (scripts/build.js), run with V8's code cache (scripts/code-cache.js). */
export const COMMONJS_BUNDLES = { command: "command.cjs", thread: "thread.cjs" };

/**
 * The global under which the command's CommonJS file lists a loader for each suite file, by its path under
 * suites/ ("events/time.suite.js"): the engine loads a suite from it rather than from the suite's file.
 */
export const SUITE_LOADERS = "tracecheck.suiteLoaders";

/**
 * The global under which a process running the bundle's CommonJS files gives them its import(): such code has none
 * of its own (scripts/code-cache.js), and the packages that are ES modules only are imported through it.
 */
export const ES_MODULE_IMPORTER = "tracecheck.importModule";

/**
 * The global under which the engine counts the checks a process ran that passed, over all its runs: how much of the
 * harness's usual path the process ran, which the command keeps compiled for the next run (scripts/code-cache.js).
 * A run that ended before its checks, or against a target that failed them, ran little of it.
 */
export const PASSED_CHECKS = "tracecheck.passedChecks";

/** The checks this process ran that passed (PASSED_CHECKS). */
export function passedChecks() {
  return globalThis[Symbol.for(PASSED_CHECKS)] ?? 0;
}

/** Counts one more check this process ran that passed. */
export function countPassedCheck() {
  globalThis[Symbol.for(PASSED_CHECKS)] = passedChecks() + 1;
}

/**
 * Where the build lists, for each CommonJS file of the bundle, the modules of Node's own that it requires: a process
 * loads them before it sets a V8 flag (bin/tracecheck.js), since Node compiles its own modules from the code it
 * keeps compiled for them only while V8's flags are the defaults.
 */
export function bundleBuiltinsFile(root) {
  return path.join(bundlePaths(root).dir, "builtins.json");
}

/** Modules of Node's own that print a warning when loaded: experimental, or deprecated. */
const WARN_WHEN_LOADED = new Set(["punycode", "sys", "wasi"]);

/**
 * Whether `name` is one of Node's own modules that it also offers without the node: prefix, and loads without a
 * warning. The newer ones it offers only with the prefix (node:sqlite, node:test) are left to be loaded where they
 * are used: some warn, as experimental, when loaded, and a bundle may require one only where it is there to be used.
 */
export function isPlainBuiltin(name) {
  const plain = name.startsWith("node:") ? name.slice("node:".length) : name;
  return builtinModules.includes(plain) && !WARN_WHEN_LOADED.has(plain);
}

/** The modules of Node's own that the bundle's CommonJS file `name` requires; none when the list cannot be read. */
export function bundleBuiltins(root, name) {
  try {
    const listed = JSON.parse(readFileSync(bundleBuiltinsFile(root), "utf8"))[name];
    return Array.isArray(listed) ? listed.filter((m) => typeof m === "string" && isPlainBuiltin(m)) : [];
  } catch {
    return [];
  }
}

const requireBuiltin = createRequire(import.meta.url);

/** Loads modules of Node's own; one this Node does not have, or that fails to load, is left for its user to meet. */
export function loadBuiltins(names) {
  for (const name of names) {
    try {
      requireBuiltin(name);
    } catch {
      // Required again where it is used, which reports it.
    }
  }
}

/** A CommonJS file of the bundle: the build writes both before the stamp, so a current bundle has them. */
export function bundleCode(root, name) {
  return path.join(bundlePaths(root).dir, COMMONJS_BUNDLES[name]);
}

/**
 * The file a thread of the embedded reference runs in a form: in the bundle's, the loader that runs the thread's
 * CommonJS file with its code cache; else the thread's own module.
 */
export function threadEntry(root, form) {
  return form === "bundle"
    ? path.join(root, "scripts", "bundle-thread.js")
    : pathInForm(root, form, "src/reference/thread-worker.ts");
}

/** The packages the bundle holds rather than imports (scripts/build.js), each with what it imports in turn. */
export const BUNDLED_PACKAGES = ["undici", "fastify", "jsonld", "fast-check"];

/** The installed version of each bundled package, as a bundle's stamp records them. */
export function bundledVersions(root) {
  const versions = {};
  for (const name of BUNDLED_PACKAGES) {
    try {
      versions[name] = JSON.parse(
        readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8"),
      ).version;
    } catch {
      versions[name] = null;
    }
  }
  return versions;
}

/** The files that make the bundle what it is besides the sources: the build, and the scripts' modules it inlines. */
const BUILD_FILES = [
  path.join("scripts", "build.js"),
  path.join("scripts", "compiled.js"),
  path.join("scripts", "code-cache.js"),
  path.join("scripts", "v8-flags.js"),
  path.join("scripts", "ascii-only.js"),
];

/** The sources as a bundle's stamp lists them: paths relative to `root`, sorted. */
export function sourceNames(root, pairs = compiledPairs(root)) {
  return pairs.map((p) => p.relative.split(path.sep).join("/")).sort();
}

/**
 * Whether dist/bundle says what the sources say now: its stamp was written after every source, compiled file and
 * build script was, and after the last install of packages, and lists exactly the sources there are (a source
 * removed since is not in it) and the versions of the packages it holds as they are installed.
 */
export function bundleCurrent(root, pairs = compiledPairs(root)) {
  const { stamp } = bundlePaths(root);
  const built = mtime(stamp);
  if (built === undefined) return false;
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(stamp, "utf8"));
  } catch {
    return false;
  }
  if (JSON.stringify(recorded.sources) !== JSON.stringify(sourceNames(root, pairs))) return false;
  // Other versions of the packages it holds, whatever installed them.
  if (JSON.stringify(recorded.packages) !== JSON.stringify(bundledVersions(root))) return false;
  // npm rewrites this file on every install: what the packages it holds import may have changed with it.
  if ((mtime(path.join(root, "node_modules", ".package-lock.json")) ?? 0) > built) return false;
  if (BUILD_FILES.some((file) => (mtime(path.join(root, file)) ?? 0) > built)) return false;
  return pairs.every((pair) => {
    const { source, target } = timesOf(pair);
    return (source ?? Number.POSITIVE_INFINITY) <= built && (target ?? Number.POSITIVE_INFINITY) <= built;
  });
}

/**
 * What `tracecheck` runs: the bundle when it is current, else the compiled files when every one is current, else
 * the TypeScript sources, so that it always runs what the sources say now.
 */
export function runnable(root) {
  const pairs = compiledPairs(root);
  if (staleSources(root, pairs).length > 0) return "sources";
  return bundleCurrent(root, pairs) ? "bundle" : "compiled";
}
