// The embedded reference on a thread of its own, started as soon as a run's options are known: the command starts
// it before it loads the harness, so that the reference loads, generates its dataset and listens while the harness
// loads, and serves from another core while the checks run.
import { randomBytes } from "node:crypto";
import { type NamedConfiguration, referenceConfiguration } from "../reference/configurations.ts";
import {
  type ReferenceThread,
  startReferenceThread,
  type ThreadReference,
  threadWorkerFile,
} from "../reference/thread.ts";
import type { RunOptions } from "./options.ts";

export interface EmbeddedThread {
  /** The key the reference accepts: --api-key, or one of its own. */
  apiKey: string;
  /** The reference once it listens; rejects with the reason it could not start. */
  ready: Promise<ThreadReference>;
  /** Stops the reference, listening, still starting or ended; a second call waits for the first. */
  close(): Promise<void>;
}

/** A key of the embedded reference's own, when the run was given none. */
export function embeddedKey(opts: Pick<RunOptions, "apiKey">): string {
  return opts.apiKey ?? `embedded-${randomBytes(12).toString("hex")}`;
}

/**
 * Starts the embedded reference of `opts` on a thread, or answers undefined where the run serves it from its own
 * thread: a run with a target has none, a dataset file is read where the run reports on it, and code run from the
 * TypeScript sources has no compiled thread to start (src/reference/thread.ts).
 */
export function startEmbeddedThread(opts: RunOptions): EmbeddedThread | undefined {
  if (opts.target !== undefined || opts.dataset !== undefined) return undefined;
  const file = threadWorkerFile();
  if (file === undefined) return undefined;
  let named: NamedConfiguration | undefined;
  try {
    named = opts.referenceConfig === undefined ? undefined : referenceConfiguration(opts.referenceConfig);
  } catch {
    // The run refuses the name itself, in its own words.
    return undefined;
  }
  const apiKey = embeddedKey(opts);
  let thread: ReferenceThread;
  try {
    thread = startReferenceThread(
      {
        seed: opts.seed,
        events: opts.embeddedEvents,
        apiKeys: [apiKey],
        faults: opts.embeddedFaults,
        ...(named ? { config: named.config } : {}),
        ...(named?.resolverPort !== undefined ? { resolverPort: named.resolverPort } : {}),
      },
      file,
    );
  } catch {
    // No thread could be made (a limit of the machine's): the run serves the reference from its own.
    return undefined;
  }
  // Whoever uses the reference hears why it did not start; a run that ended before needing it does not.
  thread.ready.catch(() => undefined);
  return { apiKey, ready: thread.ready, close: thread.close };
}
