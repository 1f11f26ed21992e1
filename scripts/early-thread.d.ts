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
  /** Whether the thread has gone past its gate to run its code. */
  readonly running: boolean;
  /** Waits, for at most `timeoutMs`, until the thread has loaded what it loads before its gate opens. */
  awaitLoaded(timeoutMs: number): void;
  /** Waits, for at most `timeoutMs`, until the thread has gone past its gate. */
  awaitRunning(timeoutMs: number): void;
  /** Lets the thread run its code, under the tag of the flags its process runs under; the first opening holds. */
  open(tag: string): void;
  /** Ends the thread unless a run took it; ending it twice is ending it once. */
  end(): void;
}
export declare const THREAD_GATE: string;
export declare const THREAD_GATE_WAIT: string;
export declare function startGatedThread(
  file: string,
  builtins: readonly string[],
  workerData?: Record<string, unknown>,
): { worker: Worker; gate: Int32Array };
export declare function passGate(gate: Int32Array, waitMs?: number): string;
export declare function startEarlyThread(
  root: string,
  argv: readonly string[],
  options?: { gateWaitMs?: number },
): EarlyThread | undefined;
