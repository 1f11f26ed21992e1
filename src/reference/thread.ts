// The reference sender on a worker thread (thread-worker.ts): the same server, generated dataset and faults as
// startReference gives in the caller's thread, serving from another core. A run against the embedded reference
// spends a fifth of its time in the reference; on a thread of its own that time no longer delays the checks.
import path from "node:path";
import { Worker } from "node:worker_threads";
import { CODE_FORM, REPO_ROOT } from "../definition/locations.ts";
import type { ReferenceConfig } from "./types.ts";

/** What the thread starts with: its dataset's seed and size, and the rest of ReferenceOptions. */
export interface ThreadStart {
  seed: number;
  events: number;
  apiKeys: string[];
  faults: string[];
  config?: Partial<ReferenceConfig>;
  resolverPort?: number;
}

export type ThreadRequest = { type: "close" };

export type ThreadReply =
  | { type: "listening"; eventsBase: string; resolverBase: string }
  | { type: "failed"; error: string }
  | { type: "closed"; error?: string };

export interface ThreadReference {
  eventsBase: string;
  resolverBase: string;
  /** Closes the server and ends the thread; a second call waits for the first. */
  close(): Promise<void>;
}

/**
 * The thread's code in the form this process runs (CODE_FORM), or undefined when it runs the TypeScript sources,
 * which a thread could only run through a loader of its own: the caller then serves from its own thread.
 */
export function threadWorkerFile(): string | undefined {
  if (CODE_FORM === "bundle")
    return path.join(REPO_ROOT, "dist", "bundle", "src", "reference", "thread-worker.js");
  if (CODE_FORM === "compiled") return path.join(REPO_ROOT, "dist", "src", "reference", "thread-worker.js");
  return undefined;
}

/**
 * Starts the reference on a thread of `file`'s code; resolves once it listens, rejects with startReference's own
 * message when it cannot start. An error that ends the thread later is thrown in this thread, where a run reports
 * it as an error of the run, as it would an exception of a reference in its own thread.
 */
export function startReferenceThread(start: ThreadStart, file: string): Promise<ThreadReference> {
  const worker = new Worker(file, { workerData: start });
  let closing: Promise<void> | undefined;
  let listening = false;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      worker.once("exit", () => resolve());
      worker.on("message", (reply: ThreadReply) => {
        if (reply.type === "closed") void worker.terminate();
      });
      worker.postMessage({ type: "close" } satisfies ThreadRequest);
    });
    return closing;
  };
  return new Promise<ThreadReference>((resolve, reject) => {
    worker.on("message", (reply: ThreadReply) => {
      if (reply.type === "listening") {
        listening = true;
        resolve({ eventsBase: reply.eventsBase, resolverBase: reply.resolverBase, close });
      } else if (reply.type === "failed") {
        void worker.terminate();
        reject(new Error(reply.error));
      }
    });
    worker.on("error", (err) => {
      if (!listening) reject(err);
      else if (closing === undefined) {
        setImmediate(() => {
          throw new Error(`the embedded reference stopped: ${err.message}`);
        });
      }
    });
    worker.on("exit", () => {
      if (!listening) reject(new Error("the embedded reference's thread ended before it listened"));
    });
  });
}
