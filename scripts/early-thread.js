// The embedded reference's thread, started by the command (bin/tracecheck.js) before it has loaded anything else,
// when its arguments look like a run against the embedded reference: the thread then loads its server while the
// command loads, and waits to be told what to serve (src/reference/thread.ts). It is a guess from the arguments
// alone; the run takes the thread only when it does serve the embedded reference from the bundle, and a thread not
// taken is ended, or left to end with the process (it does not keep the process alive).
import { Worker } from "node:worker_threads";
import { threadEntry } from "./compiled.js";

/** Options with which a run serves no embedded reference, or does something else. */
const NOT_EMBEDDED = ["--target", "--dataset", "--help", "-h"];

/** The thread started early for `argv` (the command's arguments), or undefined when they rule it out. */
export function startEarlyThread(root, argv) {
  if (argv[0] !== "run") return undefined;
  if (argv.some((arg) => NOT_EMBEDDED.some((flag) => arg === flag || arg.startsWith(`${flag}=`)))) {
    return undefined;
  }
  const file = threadEntry(root, "bundle");
  let worker;
  try {
    worker = new Worker(file);
  } catch {
    return undefined;
  }
  const early = {
    file,
    worker,
    exited: false,
    taken: false,
    // Ends the thread unless a run took it; ending it twice is ending it once.
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
