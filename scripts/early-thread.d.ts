import type { Worker } from "node:worker_threads";
export interface EarlyThread {
  /** The thread's code in the bundle's form (compiled.js, threadEntry). */
  file: string;
  worker: Worker;
  /** Set once the thread has exited, failed or been ended: it is not to be taken. */
  exited: boolean;
  /** Set by the run that serves its embedded reference from it. */
  taken: boolean;
  /** Whether the thread has loaded what it loads before its gate opens. */
  readonly loaded: boolean;
  /** Waits, for at most `timeoutMs`, until the thread has loaded what it loads before its gate opens. */
  awaitLoaded(timeoutMs: number): void;
  /** Lets the thread run its code; opening it twice is opening it once. */
  open(): void;
  /** Ends the thread unless a run took it; ending it twice is ending it once. */
  end(): void;
}
export declare const THREAD_GATE: string;
export declare function gateLoaded(gate: Int32Array): void;
export declare function waitForGate(gate: Int32Array, timeoutMs: number): void;
export declare function startEarlyThread(root: string, argv: readonly string[]): EarlyThread | undefined;
