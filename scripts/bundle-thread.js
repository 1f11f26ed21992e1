// The embedded reference's thread in the bundle's form (scripts/compiled.js, threadEntry): runs the thread's
// CommonJS file (src/reference/thread-worker.ts as scripts/build.js bundles it) with V8's code cache, and keeps
// what it compiled for the next thread when the thread is told to close, having served: the thread's own handler
// has then begun to close the server, and says it closed (after which the run ends the thread) only once this one
// has returned.
//
// A thread the command started early has a gate (scripts/early-thread.js): its first code has loaded the modules of
// Node's own that its code requires, while V8's flags were still the defaults under which Node has them compiled,
// and this file runs the thread's code once the command has set its flags and opened the gate.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { runBundled } from "./code-cache.js";
import { passGate, THREAD_GATE, THREAD_GATE_WAIT } from "./early-thread.js";
import { adoptFlagsTag, THREAD_FLAGS_TAG } from "./v8-flags.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const gate = workerData?.[THREAD_GATE];
if (gate instanceof Int32Array) {
  const wait = workerData?.[THREAD_GATE_WAIT];
  adoptFlagsTag(passGate(gate, typeof wait === "number" ? wait : undefined));
} else {
  // A thread started later, by a run: its creator says under which flags the process runs.
  adoptFlagsTag(workerData?.[THREAD_FLAGS_TAG]);
}
const run = runBundled(root, "thread");
parentPort?.on("message", (request) => {
  if (request?.type === "close") run.save(1);
});
