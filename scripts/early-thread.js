// The embedded reference's thread, started by the command (bin/tracecheck.js) before it has loaded anything else,
// when its arguments look like a run against the embedded reference: the thread then loads its server while the
// command loads, and waits to be told what to serve (src/reference/thread.ts). It is a guess from the arguments
// alone; the run takes the thread only when it does serve the embedded reference from the bundle, and a thread not
// taken is ended, or left to end with the process (it does not keep the process alive).
//
// The thread and the command share a gate (THREAD_GATE): the thread loads the modules of Node's own that its code
// requires, says so, and waits for the gate to open before it runs its code. The command opens it once it has set
// the V8 flags it runs under (bin/tracecheck.js): Node compiles its own modules from the code it keeps compiled for
// them only under V8's default flags, and the thread's code cache must be read under the flags it was made under.
import { Worker } from "node:worker_threads";
import { threadEntry } from "./compiled.js";

/** Options with which a run serves no embedded reference, or does something else. */
const NOT_EMBEDDED = ["--target", "--dataset", "--help", "-h"];

/** The key of the gate in the thread's workerData: an Int32Array over shared memory, [loaded, open]. */
export const THREAD_GATE = "tracecheck.threadGate";
const LOADED = 0;
const OPEN = 1;

/** Says, from the thread, that it has loaded what it loads before the gate. */
export function gateLoaded(gate) {
  Atomics.store(gate, LOADED, 1);
  Atomics.notify(gate, LOADED);
}

/** Waits, in the thread, until the gate is open or `timeoutMs` has passed. */
export function waitForGate(gate, timeoutMs) {
  Atomics.wait(gate, OPEN, 0, timeoutMs);
}

/** The thread started early for `argv` (the command's arguments), or undefined when they rule it out. */
export function startEarlyThread(root, argv) {
  if (argv[0] !== "run") return undefined;
  if (argv.some((arg) => NOT_EMBEDDED.some((flag) => arg === flag || arg.startsWith(`${flag}=`)))) {
    return undefined;
  }
  const file = threadEntry(root, "bundle");
  const gate = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  let worker;
  try {
    worker = new Worker(file, { workerData: { [THREAD_GATE]: gate } });
  } catch {
    return undefined;
  }
  const early = {
    file,
    worker,
    exited: false,
    taken: false,
    // Whether the thread has loaded what it loads before the gate.
    get loaded() {
      return Atomics.load(gate, LOADED) === 1;
    },
    // Waits until the thread has loaded what it loads before the gate, for at most `timeoutMs`: a thread that
    // failed, or was ended, says nothing, and is not waited for longer.
    awaitLoaded(timeoutMs) {
      if (!early.exited) Atomics.wait(gate, LOADED, 0, timeoutMs);
    },
    // Lets the thread run its code; opening it twice is opening it once.
    open() {
      Atomics.store(gate, OPEN, 1);
      Atomics.notify(gate, OPEN);
    },
    // Ends the thread unless a run took it; ending it twice is ending it once.
    end() {
      if (early.taken || early.exited) return;
      early.exited = true;
      early.open();
      void worker.terminate();
    },
  };
  worker.unref();
  // A thread that failed to load is not taken, from its error on (its exit comes a turn later): the run starts one
  // of its own and hears why from it.
  worker.on("error", () => {
    early.exited = true;
  });
  worker.once("exit", () => {
    early.exited = true;
  });
  return early;
}
