// Which form of tracecheck a start runs: the ES module bundle the build made in dist/ (scripts/build.js, run by
// `npm ci`) while it says what the sources say now, else the TypeScript sources through tsx (after an edit, or
// without a build), so that an edit is never run stale. The build writes its stamp with stampOf; every start of the
// command asks currentForm.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout this file belongs to. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The folders of sources the bundle is made from. */
export const SOURCE_FOLDERS = ["src", "suites"];

/** The packages the bundle holds rather than imports (scripts/build.js), each with what it imports in turn. */
export const BUNDLED_PACKAGES = ["undici", "fastify", "jsonld", "fast-check"];

/** The files that make the bundle what it is besides the sources and packages: the build, and this file. */
const BUILD_FILES = ["scripts/build.js", "bin/launch.js"];

/** Where the bundle is written, and its stamp, written last: a bundle without it is never run. */
export function bundlePaths(root) {
  const dir = path.join(root, "dist");
  return { dir, stamp: path.join(dir, "build.json") };
}

/** A file's modification time in milliseconds, or undefined when it does not exist. */
function mtime(file) {
  return statSync(file, { throwIfNoEntry: false })?.mtimeMs;
}

/** The sources of the bundle (tests and declarations aside) as paths relative to `root`, "/"-separated, sorted. */
export function sourceFiles(root) {
  const found = [];
  for (const folder of SOURCE_FOLDERS) {
    let names;
    try {
      names = readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" });
    } catch {
      continue;
    }
    for (const name of names) {
      if (name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts")) {
        found.push(`${folder}/${name.split(path.sep).join("/")}`);
      }
    }
  }
  return found.sort();
}

/** The installed version of each bundled package. */
function bundledVersions(root) {
  const versions = {};
  for (const name of BUNDLED_PACKAGES) {
    try {
      const manifest = path.join(root, "node_modules", name, "package.json");
      versions[name] = JSON.parse(readFileSync(manifest, "utf8")).version;
    } catch {
      versions[name] = null;
    }
  }
  return versions;
}

/** What the build records of what it bundled: the sources, and the versions of the packages inside. */
export function stampOf(root, sources = sourceFiles(root)) {
  return { sources, packages: bundledVersions(root) };
}

/**
 * Whether dist/ says what the sources say now: its stamp was written after every source, the build's files and the
 * last install of packages, and records exactly the sources there are (one removed since is not in it) and the
 * versions of the packages inside as they are installed.
 */
export function bundleCurrent(root) {
  const { stamp } = bundlePaths(root);
  const built = mtime(stamp);
  if (built === undefined) return false;
  let recorded;
  try {
    recorded = readFileSync(stamp, "utf8");
  } catch {
    return false;
  }
  const sources = sourceFiles(root);
  if (recorded !== `${JSON.stringify(stampOf(root, sources))}\n`) return false;
  // npm rewrites this file on every install: what the packages inside import may have changed with it.
  const later = [path.join("node_modules", ".package-lock.json"), ...BUILD_FILES, ...sources];
  return later.every((file) => (mtime(path.join(root, file)) ?? 0) <= built);
}

/** What a start runs: the bundle while it is current, else the sources. */
export function currentForm(root) {
  return bundleCurrent(root) ? "bundle" : "sources";
}

/**
 * How to start the source `relative` (a path under `root`, like src/prove/worker.ts) in a process of its own, in
 * `form`: its file, and the arguments Node needs before it (the sources need tsx's loader).
 */
export function entryOf(root, relative, form = currentForm(root)) {
  if (form === "sources") return { file: path.join(root, relative), execArgv: ["--import", "tsx"] };
  return { file: path.join(bundlePaths(root).dir, relative.replace(/\.ts$/, ".js")), execArgv: [] };
}
