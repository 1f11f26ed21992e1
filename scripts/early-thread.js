// The embedded reference's thread, started by the command (bin/tracecheck.js) before it has loaded anything else,
// when its arguments look like a run against the embedded reference: the thread then loads its server while the
// command loads, and waits to be told what to serve (src/reference/thread.ts). It is a guess from the arguments
// alone; the run takes the thread only when it does serve the embedded reference from the bundle, and a thread not
// taken is ended, or left to end with the process (it does not keep the process alive).
//
// The thread and the command share a gate (THREAD_GATE): the thread loads the modules of Node's own that its code
// requires, says so, and waits for the gate to open before it runs its code. The command opens it once it has set
// the V8 flags it runs under (bin/tracecheck.js, scripts/v8-flags.js), saying whether it set them: Node compiles its
// own modules from the code it keeps compiled for them only under V8's default flags, and the thread's code cache
// is to be read under the flags it was made under, and named by them.
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { bundleBuiltins, threadEntry } from "./compiled.js";
import { COMMAND_FLAGS_TAG } from "./v8-flags.js";

/** Options with which a run serves no embedded reference, or does something else. */
const NOT_EMBEDDED = ["--target", "--dataset", "--help", "-h"];

/**
 * The key of the gate in the thread's workerData: an Int32Array over shared memory, [loaded, open, running]. Open
 * is 1 when the command runs under V8's default flags, 2 when under its own.
 */
export const THREAD_GATE = "tracecheck.threadGate";
/** The key of how long the thread waits for its gate, in milliseconds, when its starter says. */
export const THREAD_GATE_WAIT = "tracecheck.threadGateWait";
/** How long a thread waits for a gate that does not open: it then runs its code all the same. */
const GATE_WAIT_MS = 2000;
const LOADED = 0;
const OPEN = 1;
const RUNNING = 2;
const OPEN_DEFAULT_FLAGS = 1;
const OPEN_COMMAND_FLAGS = 2;

/** The key of the modules of Node's own the thread loads before its gate, and of the file it then runs. */
const THREAD_BUILTINS = "tracecheck.threadBuiltins";
const THREAD_FILE = "tracecheck.threadFile";

/**
 * The thread's first code, a script rather than a module: it loads the modules of Node's own on the thread's list
 * and says so at once, and only then has Node's module loader load the thread's file (scripts/bundle-thread.js) and
 * the modules it imports, which the command need not wait for. The command waits for the thread's modules before it
 * sets its flags.
 */
const PRELUDE = `"use strict";
const { workerData } = require("node:worker_threads");
for (const name of workerData[${JSON.stringify(THREAD_BUILTINS)}]) {
  try {
    require(name);
  } catch {
    // Required again where it is used, which reports it.
  }
}
const gate = workerData[${JSON.stringify(THREAD_GATE)}];
Atomics.store(gate, ${LOADED}, 1);
Atomics.notify(gate, ${LOADED});
import(workerData[${JSON.stringify(THREAD_FILE)}]);
`;

/**
 * Waits, in the thread, until the gate is open or the wait its starter gave has passed, and says it goes on to run
 * its code. Answers the tag of the flags the command set (scripts/v8-flags.js): none when the gate did not open.
 */
export function passGate(gate, waitMs = GATE_WAIT_MS) {
  Atomics.wait(gate, OPEN, 0, waitMs);
  Atomics.store(gate, RUNNING, 1);
  Atomics.notify(gate, RUNNING);
  return Atomics.load(gate, OPEN) === OPEN_COMMAND_FLAGS ? COMMAND_FLAGS_TAG : "";
}

/**
 * A thread that loads the modules of Node's own named in `builtins`, says so at its gate (the gate's first slot),
 * and then runs the ES module `file`, given `workerData` besides the gate. Exported for its tests.
 */
export function startGatedThread(file, builtins, workerData = {}) {
  const gate = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  const data = {
    ...workerData,
    [THREAD_GATE]: gate,
    [THREAD_BUILTINS]: builtins,
    [THREAD_FILE]: pathToFileURL(file).href,
  };
  return { worker: new Worker(PRELUDE, { eval: true, workerData: data }), gate };
}

/**
 * The thread started early for `argv` (the command's arguments), or undefined when they rule it out. A test may say
 * how long the thread waits for its gate (`gateWaitMs`).
 */
export function startEarlyThread(root, argv, { gateWaitMs } = {}) {
  if (argv[0] !== "run") return undefined;
  if (argv.some((arg) => NOT_EMBEDDED.some((flag) => arg === flag || arg.startsWith(`${flag}=`)))) {
    return undefined;
  }
  const file = threadEntry(root, "bundle");
  let worker;
  let gate;
  try {
    ({ worker, gate } = startGatedThread(
      file,
      bundleBuiltins(root, "thread"),
      gateWaitMs === undefined ? {} : { [THREAD_GATE_WAIT]: gateWaitMs },
    ));
  } catch {
    return undefined;
  }
  const early = {
    file,
    worker,
    exited: false,
    taken: false,
    // Whether the thread has loaded what it loads before the gate, and whether it has gone on to run its code.
    get loaded() {
      return Atomics.load(gate, LOADED) === 1;
    },
    get running() {
      return Atomics.load(gate, RUNNING) === 1;
    },
    // Waits until the thread has gone past its gate, for at most `timeoutMs`.
    awaitRunning(timeoutMs) {
      if (!early.exited) Atomics.wait(gate, RUNNING, 0, timeoutMs);
    },
    // Waits until the thread has loaded what it loads before the gate, for at most `timeoutMs`: a thread that
    // failed, or was ended, says nothing, and is not waited for longer.
    awaitLoaded(timeoutMs) {
      if (!early.exited) Atomics.wait(gate, LOADED, 0, timeoutMs);
    },
    // Lets the thread run its code, saying under which flags' tag (scripts/v8-flags.js); the first opening holds.
    open(tag) {
      const value = tag === COMMAND_FLAGS_TAG ? OPEN_COMMAND_FLAGS : OPEN_DEFAULT_FLAGS;
      Atomics.compareExchange(gate, OPEN, 0, value);
      Atomics.notify(gate, OPEN);
    },
    // Ends the thread unless a run took it; ending it twice is ending it once. A thread waiting at its gate is
    // ended there: it runs no code.
    end() {
      if (early.taken || early.exited) return;
      early.exited = true;
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
