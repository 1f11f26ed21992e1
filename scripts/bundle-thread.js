// The embedded reference's thread in the bundle's form (scripts/compiled.js, threadEntry): runs the thread's
// CommonJS file (src/reference/thread-worker.ts as scripts/build.js bundles it) with V8's code cache, and keeps
// what it compiled for the next thread when the thread is told to close, having served: the thread's own handler
// has then begun to close the server, and says it closed (after which the run ends the thread) only once this one
// has returned.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parentPort } from "node:worker_threads";
import { COVERAGE, codeCacheDir, codeKey, runCached } from "./code-cache.js";
import { bundleCode } from "./compiled.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const code = bundleCode(root, "thread");
if (code === undefined) throw new Error("The bundle records no thread file; run `npm run build`.");
const run = runCached(code.file, {
  dir: codeCacheDir(root),
  name: "thread",
  key: codeKey(code.file, code.hash),
});
parentPort?.on("message", (request) => {
  if (request?.type === "close") run.save(COVERAGE.whole);
});
