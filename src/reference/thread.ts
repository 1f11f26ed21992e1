// The reference sender on a worker thread (thread-worker.ts): the same server, generated dataset and faults as
// startReference gives in the caller's thread, serving from another core. A run against the embedded reference
// spends a fifth of its time in the reference; on a thread of its own that time no longer delays the checks.
import { Worker } from "node:worker_threads";
import { CODE_FORM, pathInForm, REPO_ROOT } from "../definition/locations.ts";
import type { Dataset } from "../model/index.ts";
import type { ReferenceOptions } from "./types.ts";

/** The dataset the reference serves, or the seed and size of the dataset the thread generates for it. */
export type ThreadData = { dataset: Dataset } | { seed: number; events: number };

/**
 * What the thread starts the reference with: its data, and the options of startReference but where it listens
 * (the thread picks free ports).
 */
export type ThreadStart = Pick<ReferenceOptions, "apiKeys" | "faults" | "config" | "resolverPort"> & {
  data: ThreadData;
};

export type ThreadRequest = { type: "start"; start: ThreadStart } | { type: "close" };

export type ThreadReply =
  | { type: "listening"; eventsBase: string; resolverBase: string }
  | { type: "failed"; error: string }
  | { type: "fault"; error: string }
  | { type: "closed" };

export interface ThreadReference {
  eventsBase: string;
  resolverBase: string;
}

export interface ReferenceThread {
  /** The reference once it listens; rejects with startReference's own message when it cannot start. */
  ready: Promise<ThreadReference>;
  /**
   * Ends the thread, closing the server first when it listens; a thread still starting is stopped where it is,
   * one already ended is left so. A second call waits for the first.
   */
  close(): Promise<void>;
}

/**
 * The thread's code in the bundle, when this process runs the bundle (CODE_FORM), or undefined when it runs the
 * TypeScript sources, which a thread could only run through a loader of its own: the caller then serves from its
 * own thread.
 */
export function threadWorkerFile(): string | undefined {
  return CODE_FORM === "sources"
    ? undefined
    : pathInForm(REPO_ROOT, CODE_FORM, "src/reference/thread-worker.ts");
}

/**
 * Starts the reference on a thread of `file`'s code (throws when no thread can be made, or `start` throws). `start`
 * may be a function, called once the thread is made: the thread loads its server while this one works out what it
 * is to serve (a run generates its dataset then). An exception the reference does not catch is handed to this
 * thread and thrown here, where a run reports it as an error of the run, as it would an exception of a reference in
 * its own thread; the reference goes on serving, as it then did.
 */
export function startReferenceThread(
  start: ThreadStart | (() => ThreadStart),
  file: string,
): ReferenceThread {
  const worker = new Worker(file);
  try {
    const given = typeof start === "function" ? start() : start;
    worker.postMessage({ type: "start", start: given } satisfies ThreadRequest);
  } catch (err) {
    // A start that cannot be made or sent leaves a thread waiting for one: it is ended rather than keep the process.
    void worker.terminate();
    throw err;
  }
  let state: "starting" | "listening" | "ended" = "starting";
  let closing: Promise<void> | undefined;
  const ended = new Promise<void>((resolve) => {
    worker.once("exit", () => {
      state = "ended";
      resolve();
    });
  });
  // Thrown in this thread, where a run reports it as an error of the run.
  const raise = (message: string) =>
    setImmediate(() => {
      throw new Error(message);
    });
  const ready = new Promise<ThreadReference>((resolve, reject) => {
    worker.on("message", (reply: ThreadReply) => {
      if (reply.type === "listening") {
        state = "listening";
        resolve({ eventsBase: reply.eventsBase, resolverBase: reply.resolverBase });
      } else if (reply.type === "failed") {
        void worker.terminate();
        reject(new Error(reply.error));
      } else if (reply.type === "fault") {
        // Once the run closes the reference its verdicts are made: a fault then (a socket the close cut short)
        // would throw into a run that has ended, so it is written to stderr instead, as an error while closing.
        if (closing === undefined) raise(`the embedded reference failed: ${reply.error}`);
        else
          process.stderr.write(`tracecheck: the embedded reference failed while closing: ${reply.error}\n`);
      } else {
        void worker.terminate();
      }
    });
    worker.on("error", (err) => {
      if (state === "starting") reject(err);
      else if (closing === undefined) raise(`the embedded reference stopped: ${err.message}`);
    });
    void ended.then(() => reject(new Error("the embedded reference's thread ended before it listened")));
  });
  const close = (): Promise<void> => {
    if (closing === undefined) {
      if (state === "listening") worker.postMessage({ type: "close" } satisfies ThreadRequest);
      else if (state === "starting") void worker.terminate();
      closing = ended;
    }
    return closing;
  };
  return { ready, close };
}
