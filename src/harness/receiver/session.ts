// `tracecheck receiver`: the other role. The reference sender starts in a recording mode and hands out what a
// receiver needs to begin (spec 1, step 1: the sender's bases, a key, its party Digital Link URI and GLN) and a
// task (step 2: a product identifier as a shipment notice gives it). The receiver under test does its work; when
// it says it is done (a command tracecheck ran ends, no request for --until-idle seconds, SIGINT or SIGTERM), the
// requests it sent are handed to the receiver class's suite files (suites/receiver), which the engine runs as it
// runs a sender's, and judged and reported by the same end as a run (run-files.ts).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { RunContext } from "../../engine/context.ts";
import { type EngineResult, runSuites } from "../../engine/engine.ts";
import { loadRegistry } from "../../engine/registry.ts";
import { DEFAULT_DEFINITION, REPO_ROOT } from "../../engine/repo.ts";
import type { Report, RunOptionsRecord } from "../../engine/types.ts";
import { generateDataset, readDatasetFile, senderOf } from "../../generate/index.ts";
import type { RecordedExchange } from "../../http/recorded.ts";
import { chooseTask, type ReceiverTask } from "../../model/receiver-task.ts";
import {
  type ReceiverConfiguration,
  receiverConfiguration,
} from "../../reference/receiver-configurations.ts";
import { startReference } from "../../reference/server.ts";
import { formatSummary } from "../../report/index.ts";
import { finishRun, reportDirProblem, sha256Of } from "../run-files.ts";

export interface ReceiverSessionOptions {
  /** Port of the query interface (and of the resolver, unless the configuration gives it its own); 0: free. */
  port: number;
  referenceConfig?: string;
  reportDir: string;
  /** End after this many seconds without a request. */
  untilIdleSeconds?: number;
  /** A command to run as the receiver, with the setup in its environment; the session ends when it does. */
  command?: string[];
  /** The sender's dataset: a file, else generated from seed and events. */
  dataset?: string;
  seed: number;
  events: number;
  /** Per request of the grading's own look-ups at the sender. */
  timeoutMs: number;
  /**
   * Serve master data, and the query interface the epcis links name, at paths no client can build (default true),
   * so that RCV-MASTERDATA-HREF and RCV-EPCIS-LINK tell a receiver that reads links from one that builds paths.
   */
  opaqueHrefs?: boolean;
}

/** What a receiver needs to begin, as printed and as given to a command in its environment. */
export interface ReceiverSetup {
  eventsUrl: string;
  resolverUrl: string;
  apiKey: string;
  party: string;
  gln: string;
  task: string;
  instruction: string;
  referenceConfig?: string;
}

export interface ReceiverSessionIo {
  /** The setup, once the sender is ready: the CLI prints it (as text, or a JSON line). */
  setup(setup: ReceiverSetup): void;
  /** Lines for a person. */
  note(line: string): void;
  /** The summary table at the end. */
  summary(text: string): void;
  color: boolean;
  /**
   * Where a command's output goes: "inherit", the terminal's; "stdout-to-notes" (with --json), its standard
   * output to the notes and its errors to the terminal's; "notes", both to the notes.
   */
  commandOutput: "inherit" | "stdout-to-notes" | "notes";
}

export interface ReceiverOutcome {
  /** As a run's (CONTRACT.md); a signal only ends the recording, which is then judged, so never 130 or 143. */
  exitCode: NonNullable<Report["exitCode"]>;
  report?: Report;
}

/** Recorded requests a pass carries at most: enough to show what decided it, few enough to read. */
const PROOFS = 10;

/** Why the recording ended. */
type EndReason =
  | { kind: "command"; code: number | null; signal: string | null }
  | { kind: "idle" | "signal" };

/** The environment a receiver command gets: ours, and the setup (CONTRACT.md). */
export function setupEnvironment(setup: ReceiverSetup): Record<string, string> {
  return {
    TRACECHECK_EVENTS_URL: setup.eventsUrl,
    TRACECHECK_RESOLVER_URL: setup.resolverUrl,
    TRACECHECK_API_KEY: setup.apiKey,
    TRACECHECK_PARTY: setup.party,
    TRACECHECK_GLN: setup.gln,
    TRACECHECK_TASK: setup.task,
  };
}

/** Waits for the first of: the command's end, an idle spell, the signal. */
function recordingEnd(
  opts: ReceiverSessionOptions,
  setup: ReceiverSetup,
  io: ReceiverSessionIo,
  lastRequestAt: () => number,
  signal: AbortSignal | undefined,
): { ended: Promise<EndReason>; stop(): void } {
  const cleanups: (() => void)[] = [];
  const ended = new Promise<EndReason>((resolve, reject) => {
    if (signal !== undefined) {
      const onAbort = () => resolve({ kind: "signal" });
      if (signal.aborted) onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener("abort", onAbort));
    }
    if (opts.untilIdleSeconds !== undefined) {
      const idleMs = opts.untilIdleSeconds * 1000;
      const timer = setInterval(
        () => {
          if (Date.now() - lastRequestAt() >= idleMs) resolve({ kind: "idle" });
        },
        Math.min(250, Math.max(10, idleMs / 4)),
      );
      cleanups.push(() => clearInterval(timer));
    }
    const [program, ...args] = opts.command ?? [];
    if (program !== undefined) {
      const child = spawn(program, args, {
        env: { ...process.env, ...setupEnvironment(setup) },
        stdio: [
          "ignore",
          io.commandOutput === "inherit" ? "inherit" : "pipe",
          io.commandOutput === "notes" ? "pipe" : "inherit",
        ],
      });
      for (const stream of [child.stdout, child.stderr]) {
        stream?.setEncoding("utf8").on("data", (text: string) => {
          for (const line of text.split("\n")) if (line !== "") io.note(line);
        });
      }
      child.on("error", (error) =>
        reject(
          new Error(
            `the receiver command "${program}" could not be started (${error.message}); check the command after --.`,
          ),
        ),
      );
      child.on("exit", (code, sig) => resolve({ kind: "command", code, signal: sig }));
      cleanups.push(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      });
    }
  });
  return {
    ended,
    stop: () => {
      for (const cleanup of cleanups) cleanup();
    },
  };
}

function endNote(reason: EndReason, opts: ReceiverSessionOptions): string {
  switch (reason.kind) {
    case "command":
      return reason.signal !== null
        ? `the receiver command ended on ${reason.signal}`
        : `the receiver command exited with status ${reason.code}`;
    case "idle":
      return `no request for ${opts.untilIdleSeconds} s`;
    case "signal":
      return "a signal ended the recording";
  }
}

/**
 * Runs one receiver session. `signal` (SIGINT or SIGTERM at the CLI) ends the recording as a normal end: what was
 * recorded is judged.
 */
export async function runReceiverSession(
  opts: ReceiverSessionOptions,
  io: ReceiverSessionIo,
  signal?: AbortSignal,
): Promise<ReceiverOutcome> {
  const started = Date.now();
  const registry = await loadRegistry();
  const dirProblem = await reportDirProblem(opts.reportDir);
  if (dirProblem !== undefined) {
    io.note(`tracecheck: ${dirProblem}`);
    return { exitCode: 2 };
  }
  const requirements = registry.requirements.filter((r) => r.class === "receiver");
  const named: ReceiverConfiguration | undefined =
    opts.referenceConfig === undefined ? undefined : receiverConfiguration(opts.referenceConfig);
  const apiKey = `receiver-${randomBytes(12).toString("hex")}`;
  const exchanges: RecordedExchange[] = [];
  let recording = true;
  let lastRequestAt = Date.now();
  let dataset: Awaited<ReturnType<typeof readDatasetFile>>;
  let reference: Awaited<ReturnType<typeof startReference>>;
  try {
    dataset = opts.dataset
      ? await readDatasetFile(opts.dataset)
      : generateDataset({ seed: opts.seed, events: opts.events });
    reference = await startReference({
      dataset,
      apiKeys: [apiKey],
      port: opts.port,
      ...(named?.config !== undefined ? { config: named.config } : {}),
      ...(named?.resolverPort !== undefined ? { resolverPort: named.resolverPort } : {}),
      recording: {
        record: (x) => {
          if (!recording) return;
          exchanges.push(x);
          lastRequestAt = Date.now();
        },
        ...(named?.refuseOver !== undefined ? { refuseOver: named.refuseOver } : {}),
        ...(named?.refuseOne === true ? { refuseOne: true } : {}),
      },
      opaqueHrefs: opts.opaqueHrefs ?? true,
    });
  } catch (error) {
    // The message says what went wrong and what to do (a dataset that cannot be read, a port in use).
    const { code } = error as NodeJS.ErrnoException;
    const why =
      code === "EADDRINUSE"
        ? `port ${(error as { port?: number }).port ?? opts.port} is in use; choose another --port.`
        : (error as Error).message.split("\n")[0];
    io.note(`tracecheck: the sender could not start: ${why}`);
    return { exitCode: 2 };
  }
  const definitionFile = path.resolve(DEFAULT_DEFINITION);
  const options: RunOptionsRecord = {
    suites: ["receiver"],
    modules: ["core"],
    faults: [],
    definition: { file: definitionFile, sha256: await sha256Of(definitionFile), given: false },
    timeoutMs: opts.timeoutMs,
    concurrency: 8,
    rate: 0,
    retryBudgetSeconds: 0,
  };
  if (opts.referenceConfig !== undefined) options.referenceConfig = opts.referenceConfig;
  if (opts.dataset !== undefined) options.dataset = path.resolve(opts.dataset);
  const target = { events: reference.eventsBase, resolver: reference.resolverBase };
  /** The session's end: what the checks recorded over the recording, judged and reported as a run's. */
  const finish = async (
    engine: EngineResult,
    task: ReceiverTask,
    incompleteReason?: string,
  ): Promise<ReceiverOutcome> => {
    const { exitCode, report } = await finishRun({
      requirements,
      engine,
      definitionGiven: false,
      // A receiver's pass is often decided by two requests together: the link set that named an href, and the
      // request that asked it.
      proofs: PROOFS,
      started,
      header: {
        options,
        target,
        seed: opts.seed,
        runs: 0,
        baseline: {
          method: "receiver task",
          events: task.trace.events.size,
          complete: true,
          note: `the trace below ${task.identifier}, which the receiver was given`,
        },
      },
      ...(incompleteReason === undefined
        ? {}
        : { ending: () => ({ exitCode: 2 as const, reason: incompleteReason }) }),
      reportDir: opts.reportDir,
      note: io.note,
    });
    io.summary(formatSummary(report, { color: io.color }));
    io.note(`reports written to ${opts.reportDir} (report.json, junit.xml, report.html)`);
    return { exitCode, report };
  };
  try {
    let sender: ReturnType<typeof senderOf>;
    let task: ReceiverTask;
    try {
      sender = senderOf(dataset);
      task = chooseTask(reference.store.events, sender.gln);
    } catch (error) {
      io.note(`tracecheck: ${(error as Error).message}`);
      return { exitCode: 2 };
    }
    const setup: ReceiverSetup = {
      eventsUrl: reference.eventsBase,
      resolverUrl: reference.resolverBase,
      apiKey,
      party: sender.partyDl,
      gln: sender.gln,
      task: task.identifier,
      instruction: task.instruction,
      ...(opts.referenceConfig !== undefined ? { referenceConfig: opts.referenceConfig } : {}),
    };
    options.party = sender.partyDl;
    options.gln = sender.gln;
    options.startFrom = task.identifier;
    io.setup(setup);
    const end = recordingEnd(opts, setup, io, () => lastRequestAt, signal);
    let reason: EndReason;
    try {
      reason = await end.ended;
    } catch (error) {
      end.stop();
      recording = false;
      const why = (error as Error).message;
      io.note(`tracecheck: ${why}`);
      const verdicts = requirements.map((r) => ({ id: r.id, status: "error" as const, reason: why }));
      return await finish({ verdicts, errors: [] }, task, why);
    }
    end.stop();
    recording = false;
    io.note(
      `tracecheck: recording ended (${endNote(reason, opts)}): ${exchanges.length} request(s) to judge`,
    );
    // The hand-off. The receiver class's checks are suite files like every other class's, which the engine loads
    // from their folder and runs with a context that carries the recording: plainer than handing check functions
    // over, since nothing in src/ names suites/, every check records through the same Checks (requirementTest),
    // and what several checks read (the requests, the sender's link sets) is kept once per run as the senders'
    // checks keep theirs.
    const ctx: RunContext = {
      eventsBase: reference.eventsBase,
      resolverBase: reference.resolverBase,
      apiKey,
      party: sender.partyDl,
      gln: sender.gln,
      startFrom: task.identifier,
      classes: ["receiver"],
      modules: options.modules,
      seed: opts.seed,
      runs: 0,
      definitionFile,
      timeoutMs: opts.timeoutMs,
      concurrency: options.concurrency,
      ratePerSecond: options.rate,
      allowOrigins: [],
      // A receiver is judged on what it sent, not against events discovered at the sender: there is no baseline.
      baselineFile: "",
      embedded: true,
      receiver: {
        exchanges,
        task: task.identifier,
        events: reference.store.events,
        keyRequired: {
          events: reference.config.eventsKey === "required",
          resolver: reference.config.authOnResolver,
        },
      },
    };
    // Not stopped by the signal: it ended the recording, which is judged in full.
    return await finish(await runSuites(ctx, REPO_ROOT), task);
  } finally {
    recording = false;
    await reference.close();
  }
}
