// Which sources under src/ and suites/ have no current compiled file in dist/: the build compiles them, and
// bin/tracecheck.js runs dist/ only when there are none, so that it always runs what the sources say now.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/** The folders compiled into dist/, each to dist/<folder>/. */
export const SOURCE_FOLDERS = ["src", "suites"];

/** A file's modification time in milliseconds, or undefined when it does not exist. */
export function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Every .ts source of the folders (tests aside) with the .js file it compiles to under `root`/dist. */
export function compiledPairs(root) {
  const pairs = [];
  for (const folder of SOURCE_FOLDERS) {
    let entries;
    try {
      entries = readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith(".ts") || entry.name.endsWith(".test.ts")) continue;
      const source = path.join(entry.parentPath, entry.name);
      const target = path.join(root, "dist", path.relative(root, source)).replace(/\.ts$/, ".js");
      pairs.push({ source, target });
    }
  }
  return pairs;
}

/** The pairs whose compiled file is missing or older than its source. */
export function staleSources(root) {
  return compiledPairs(root).filter(({ source, target }) => {
    const built = mtime(target);
    return built === undefined || built < (mtime(source) ?? Number.POSITIVE_INFINITY);
  });
}
