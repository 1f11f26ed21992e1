// `tracecheck receiver`: the other role. The reference sender starts in a recording mode and hands out what a
// receiver needs to begin (spec 1, step 1: the sender's bases, a key, its party Digital Link URI and GLN) and a
// task (step 2: a product identifier as a shipment notice gives it). The receiver under test does its work; when
// it says it is done (a command tracecheck ran ends, no request for --until-idle seconds, SIGINT or SIGTERM), the
// requests it sent are judged against the receiver class of suites/requirements.yaml and reported like a run.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { generateDataset, readDatasetFile, senderOf } from "../../generate/index.ts";
import { HttpClient } from "../../http/index.ts";
import type { EpcisEvent } from "../../model/index.ts";
import {
  type ReceiverConfiguration,
  receiverConfiguration,
} from "../../reference/receiver-configurations.ts";
import type { RecordedExchange } from "../../reference/recording.ts";
import { startReference } from "../../reference/server.ts";
import { loadRegistry } from "../registry.ts";
import { DEFAULT_DEFINITION, toolVersion } from "../repo.ts";
import { exitCodeFor, formatSummary, writeReports } from "../report/index.ts";
import { reportDirProblem, sha256Of, summarise } from "../run-files.ts";
import type { Report, RequirementResult, RunOptionsRecord } from "../types.ts";
import { aggregate, type CheckVerdict } from "../verdicts.ts";

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

/** The task a receiver is given, as the session needs it. */
export interface GradedTask {
  /** The product identifier to trace, a Digital Link URI under https://id.gs1.org. */
  identifier: string;
  /** What the receiver is to fetch, in one sentence. */
  instruction: string;
  /** Events of the trace the receiver is to fetch. */
  traceEvents: number;
}

/** What the session hands the grading (suites/receiver) once the recording has ended. */
export interface GradingInput<T extends GradedTask> {
  exchanges: readonly RecordedExchange[];
  apiKey: string;
  eventsBase: string;
  resolverBase: string;
  task: T;
  /** The events the sender holds, as loaded. */
  events: readonly EpcisEvent[];
  /** A client for the grading's own look-ups at the sender (link sets), with the key; not recorded. */
  client: HttpClient;
  /**
   * Where the sender refuses a request without the key: its query interface, its resolver and master data. Spec
   * 4.2 asks the key of resolver requests only "where authentication is used", and spec 5.6 lets a query
   * interface need none.
   */
  keyRequired: { events: boolean; resolver: boolean };
}

/** The receiver class's checks (suites/receiver/index.ts), handed in by the command that wires the session. */
export interface ReceiverGrader<T extends GradedTask = GradedTask> {
  /** The task over the events the sender holds; `senderGln` is the sender's location number given at setup. */
  chooseTask(events: readonly EpcisEvent[], senderGln: string): T;
  grade(input: GradingInput<T>): Promise<CheckVerdict[]>;
}

export interface ReceiverOutcome {
  exitCode: 0 | 1 | 2;
  report?: Report;
}

/** Recorded requests a pass carries at most: enough to show what decided it, few enough to read. */
const PROOFS = 10;

/**
 * A pass with every recorded request its checks gave as proof, in the order given, rather than the first alone:
 * a receiver's pass is often decided by two requests together (the link set that named an href, and the request
 * that asked it).
 */
function withProof(result: RequirementResult, verdicts: readonly CheckVerdict[]): RequirementResult {
  if (result.status !== "pass") return result;
  const proofs = verdicts.flatMap((v) =>
    v.id === result.id && v.status === "pass" && v.evidence !== undefined ? [v.evidence] : [],
  );
  return proofs.length === 0 ? result : { ...result, evidence: proofs.slice(0, PROOFS) };
}

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
export async function runReceiverSession<T extends GradedTask>(
  opts: ReceiverSessionOptions,
  grader: ReceiverGrader<T>,
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
    io.note(`tracecheck: the sender could not start: ${(error as Error).message.split("\n")[0]}`);
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
  const finish = async (
    verdicts: CheckVerdict[],
    task: T,
    incompleteReason?: string,
  ): Promise<ReceiverOutcome> => {
    const results = requirements.map((req) =>
      withProof(aggregate(req, verdicts, "no check ran for this requirement"), verdicts),
    );
    const report: Report = {
      tool: { name: "tracecheck", version: toolVersion() },
      options,
      target,
      seed: opts.seed,
      runs: 0,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      summary: summarise(results),
      baseline: {
        method: "receiver task",
        events: task.traceEvents,
        complete: true,
        note: `the trace below ${task.identifier}, which the receiver was given`,
      },
      requirements: results,
    };
    const exitCode = exitCodeFor(report);
    report.exitCode = exitCode;
    report.verdict = exitCode === 0 ? "pass" : exitCode === 1 ? "fail" : "incomplete";
    if (exitCode === 2) {
      report.incompleteReason = incompleteReason ?? "a MUST requirement of the receiver could not be decided";
    }
    await writeReports(report, opts.reportDir);
    io.summary(formatSummary(report, { color: io.color }));
    io.note(`reports written to ${opts.reportDir} (report.json, junit.xml, report.html)`);
    return { exitCode, report };
  };
  try {
    let sender: ReturnType<typeof senderOf>;
    let task: T;
    try {
      sender = senderOf(dataset);
      task = grader.chooseTask(reference.store.events, sender.gln);
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
      return await finish(
        requirements.map((r) => ({ id: r.id, status: "error", reason: why })),
        task,
        why,
      );
    }
    end.stop();
    recording = false;
    io.note(
      `tracecheck: recording ended (${endNote(reason, opts)}): ${exchanges.length} request(s) to judge`,
    );
    const client = new HttpClient({
      timeoutMs: opts.timeoutMs,
      apiKey,
      allowedOrigins: [new URL(reference.eventsBase).origin, new URL(reference.resolverBase).origin],
    });
    let verdicts: CheckVerdict[];
    try {
      verdicts = await grader.grade({
        exchanges,
        apiKey,
        eventsBase: reference.eventsBase,
        resolverBase: reference.resolverBase,
        task,
        events: reference.store.events,
        client,
        keyRequired: {
          events: reference.config.eventsKey === "required",
          resolver: reference.config.authOnResolver,
        },
      });
    } finally {
      await client.close();
    }
    return await finish(verdicts, task);
  } finally {
    recording = false;
    await reference.close();
  }
}
