// vitest's global setup: builds the bundle in dist/ once, before any test file runs, so that tests that start the
// command, the bundle's proving worker or the reference's thread find it current even when vitest is run straight
// after an edit. After `npm test`'s own build it only finds nothing to do. No test file builds: two builds at once
// would write the same files.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export default function setup(): void {
  execFileSync(process.execPath, [path.join(ROOT, "scripts", "build.js")], { cwd: ROOT, stdio: "inherit" });
}
