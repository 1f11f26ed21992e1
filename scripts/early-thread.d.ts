import type { Worker } from "node:worker_threads";
export interface EarlyThread {
  /** The thread's code in the bundle's form (compiled.js, threadEntry). */
  file: string;
  worker: Worker;
  /** Set once the thread has exited, failed or been ended: it is not to be taken. */
  exited: boolean;
  /** Set by the run that serves its embedded reference from it. */
  taken: boolean;
  /** Ends the thread unless a run took it; ending it twice is ending it once. */
  end(): void;
}
export declare function startEarlyThread(root: string, argv: readonly string[]): EarlyThread | undefined;
