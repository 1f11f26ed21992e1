// The embedded reference's thread in the bundle's form (scripts/compiled.js, threadEntry): runs the thread's
// CommonJS file (src/reference/thread-worker.ts as scripts/build.js bundles it) with V8's code cache, and keeps
// what it compiled for the next thread when the thread is told to close, having served: the thread's own handler
// has then begun to close the server, and says it closed (after which the run ends the thread) only once this one
// has returned.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parentPort } from "node:worker_threads";
import { codeCacheDir, runCached } from "./code-cache.js";
import { bundleCode, ES_MODULE_IMPORTER } from "./compiled.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const file = bundleCode(root, "thread");
if (file === undefined) throw new Error("The bundle records no thread file; run `npm run build`.");
// What the thread imports at run time it imports through this module's import(): it has none of its own.
globalThis[Symbol.for(ES_MODULE_IMPORTER)] = (specifier) => import(specifier);
const run = runCached(file, { dir: codeCacheDir(root), name: "thread" });
parentPort?.on("message", (request) => {
  if (request?.type === "close") run.save(1);
});
