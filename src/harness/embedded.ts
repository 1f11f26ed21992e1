// The embedded reference a run checks when it has no target: on a thread of its own where it can be, started as soon
// as the run's options are known, before the command loads the harness (so that the reference loads and listens
// while the harness loads, and serves from another core while the checks run), else in the run's own thread.
import { randomBytes } from "node:crypto";
import { generateDataset } from "../generate/dataset.ts";
import type { Dataset } from "../model/index.ts";
import { referenceConfiguration } from "../reference/configurations.ts";
import { type ReferenceThread, startReferenceThread, threadWorkerFile } from "../reference/thread.ts";
import type { ReferenceOptions } from "../reference/types.ts";
import type { RunOptions } from "./options.ts";

export interface EmbeddedThread extends ReferenceThread {
  /** The key the reference accepts: --api-key, or one of its own. */
  apiKey: string;
}

export interface EmbeddedReference {
  eventsBase: string;
  resolverBase: string;
  close(): Promise<void>;
}

/** A key of the embedded reference's own, when the run was given none. */
export function embeddedKey(opts: Pick<RunOptions, "apiKey">): string {
  return opts.apiKey ?? `embedded-${randomBytes(12).toString("hex")}`;
}

/**
 * How the run's options set up its embedded reference, wherever it runs: the key, the faults, and a named
 * configuration's settings (throws for a name there is none of).
 */
function referenceSetup(
  opts: RunOptions,
  apiKey: string,
): Pick<ReferenceOptions, "apiKeys" | "faults" | "config" | "resolverPort"> {
  const named = opts.referenceConfig === undefined ? undefined : referenceConfiguration(opts.referenceConfig);
  return {
    apiKeys: [apiKey],
    faults: opts.embeddedFaults,
    ...(named ? { config: named.config } : {}),
    ...(named?.resolverPort !== undefined ? { resolverPort: named.resolverPort } : {}),
  };
}

/**
 * The most events of a dataset this thread generates and hands to the reference's thread, rather than let the
 * thread generate it: while the thread loads its server, this thread has time to spare, and the dataset is then
 * ready when the server is. A larger one the thread generates itself, so that it is neither held twice nor copied.
 */
const GENERATED_HERE_AT_MOST = 5000;

/**
 * Starts the embedded reference of `opts` on a thread, or answers undefined where the run serves it from its own
 * thread: a run with a target has none, a dataset file is read where the run reports on it, code run from the
 * TypeScript sources has no bundled thread to start (src/reference/thread.ts), and a configuration name the run
 * refuses, or a thread the machine cannot make, is left to the run's own thread to report or do without.
 */
export function startEmbeddedThread(opts: RunOptions): EmbeddedThread | undefined {
  if (opts.target !== undefined || opts.dataset !== undefined) return undefined;
  const file = threadWorkerFile();
  if (file === undefined) return undefined;
  const apiKey = embeddedKey(opts);
  let thread: ReferenceThread;
  try {
    const setup = referenceSetup(opts, apiKey);
    const { seed, embeddedEvents: events } = opts;
    // The dataset is generated here once the thread is made, while it loads.
    thread = startReferenceThread(
      () => ({
        ...setup,
        data:
          events <= GENERATED_HERE_AT_MOST
            ? { dataset: generateDataset({ seed, events }) }
            : { seed, events },
      }),
      file,
    );
  } catch {
    return undefined;
  }
  // Whoever uses the reference hears why it did not start; a run that ended before needing it does not.
  thread.ready.catch(() => undefined);
  return { ...thread, apiKey };
}

/** The embedded reference in this thread, serving `dataset`. Its server code is loaded only then. */
export async function startEmbeddedHere(
  opts: RunOptions,
  apiKey: string,
  dataset: Dataset,
): Promise<EmbeddedReference> {
  const setup = referenceSetup(opts, apiKey);
  const { startReference } = await import("../reference/index.ts");
  return await startReference({ dataset, ...setup });
}
