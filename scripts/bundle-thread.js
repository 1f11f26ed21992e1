// The embedded reference's thread in the bundle's form (scripts/compiled.js, threadEntry): runs the thread's
// CommonJS file (src/reference/thread-worker.ts as scripts/build.js bundles it) with V8's code cache, and keeps
// what it compiled for the next thread when the thread is told to close, having served: the thread's own handler
// has then begun to close the server, and says it closed (after which the run ends the thread) only once this one
// has returned.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parentPort } from "node:worker_threads";
import { runBundled } from "./code-cache.js";

const run = runBundled(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."), "thread");
parentPort?.on("message", (request) => {
  if (request?.type === "close") run.save(1);
});
