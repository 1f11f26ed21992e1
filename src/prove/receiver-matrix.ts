// The receiver class's own proof: the reference receiver (`tracecheck trace`) run as the receiver under test of
// `tracecheck receiver`, exactly as a vendor would run theirs, against each configuration of the sender (it must
// come out clean), once reading link sets and once following the resolver's redirects instead (both ways of
// learning where things are), and with each named client fault (a requirement the fault names must catch it:
// fail, or warn for a SHOULD).
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { REPO_ROOT } from "../engine/repo.ts";
import type { Report } from "../engine/types.ts";
import type { ReceiverSetup } from "../harness/receiver/session.ts";
import { RECEIVER_FAULTS, type ReceiverFault } from "../receiver/faults.ts";
import {
  RECEIVER_CONFIGURATION_NAMES,
  RECEIVER_CONFIGURATIONS,
} from "../reference/receiver-configurations.ts";
import { childEnvironment } from "./outcome.ts";
import { mapPool } from "./pool.ts";
import { columns } from "./table.ts";

const BIN = path.join(REPO_ROOT, "bin", "tracecheck.js");

/** The sender's own behaviour, without --reference-config. */
export const DEFAULT_CONFIGURATION = "default";

export interface ReceiverCase {
  /** Names the run and its report directory: letters, digits, dots and dashes. */
  label: string;
  /** A configuration of the sender, or DEFAULT_CONFIGURATION. */
  configuration: string;
  fault?: ReceiverFault;
  /** The reference receiver follows the resolver's redirects (`trace --resolve redirect`) instead of link sets. */
  redirects?: boolean;
}

export interface ReceiverEffort {
  name: "quick" | "full";
  seed: number;
  events: number;
}

export const QUICK_RECEIVER_EFFORT: Readonly<ReceiverEffort> = Object.freeze({
  name: "quick",
  seed: 1,
  events: 60,
});
export const FULL_RECEIVER_EFFORT: Readonly<ReceiverEffort> = Object.freeze({
  name: "full",
  seed: 1,
  events: 200,
});

/** The configurations every fault that shows anywhere is run in at full effort. */
const CORE_CONFIGURATIONS = [DEFAULT_CONFIGURATION, ...RECEIVER_CONFIGURATIONS.map((c) => c.name)];

function faultCase(fault: ReceiverFault, configuration: string): ReceiverCase {
  return { label: `fault-${fault.id}-${configuration}`, configuration, fault };
}

/**
 * Quick: the reference receiver clean against the sender's defaults and each receiver configuration, reading link
 * sets and following redirects, and each fault in one configuration where it shows. Full: clean both ways against
 * every configuration, and each fault in every core configuration where it shows.
 */
export function receiverCases(effort: ReceiverEffort): ReceiverCase[] {
  const cleanIn =
    effort.name === "quick" ? CORE_CONFIGURATIONS : [DEFAULT_CONFIGURATION, ...RECEIVER_CONFIGURATION_NAMES];
  const clean = cleanIn.map((configuration) => ({ label: `clean-${configuration}`, configuration }));
  const redirecting = cleanIn.map((configuration) => ({
    label: `clean-redirect-${configuration}`,
    configuration,
    redirects: true,
  }));
  const faults = RECEIVER_FAULTS.flatMap((fault) => {
    const shown = fault.shownIn ?? CORE_CONFIGURATIONS;
    return (effort.name === "quick" ? shown.slice(0, 1) : shown).map((c) => faultCase(fault, c));
  });
  return [...clean, ...redirecting, ...faults];
}

export interface ReceiverRunOutcome {
  exitCode: number | null;
  timedOut: boolean;
  report?: Report;
  /** The JSON lines of stdout: the setup first, the summary last. */
  lines: unknown[];
  stderr: string;
  durationMs: number;
}

/** The command line of a case: `tracecheck receiver … -- node bin/tracecheck.js trace …`. */
export function receiverArgs(c: ReceiverCase, effort: ReceiverEffort, reportDir: string): string[] {
  const config = c.configuration === DEFAULT_CONFIGURATION ? [] : ["--reference-config", c.configuration];
  const faults = c.fault === undefined ? [] : ["--faults", c.fault.id];
  const resolve = c.redirects === true ? ["--resolve", "redirect"] : [];
  return [
    BIN,
    "receiver",
    "--json",
    "--seed",
    String(effort.seed),
    "--events",
    String(effort.events),
    "--report-dir",
    reportDir,
    ...config,
    "--",
    process.execPath,
    BIN,
    "trace",
    "--quiet",
    ...faults,
    ...resolve,
  ];
}

/**
 * How a case runs: "cli", `tracecheck receiver` in a process of its own exactly as a vendor runs it; "session",
 * the same session in this process (what the command wires, without its start-up), the receiver still
 * `node bin/tracecheck.js trace` in a process of its own with the setup in its environment; "inline", the session
 * and the reference receiver's client (what `tracecheck trace` wires) both in this process.
 */
export type ReceiverRunMode = "cli" | "session" | "inline";

/** Runs one case, bounded in time. */
export async function runReceiverCase(
  c: ReceiverCase,
  effort: ReceiverEffort,
  workDir: string,
  timeoutMs: number,
  mode: ReceiverRunMode = "cli",
): Promise<ReceiverRunOutcome> {
  const reportDir = path.join(workDir, c.label);
  if (mode !== "cli") return runInProcess(c, effort, reportDir, timeoutMs, mode === "inline");
  const started = Date.now();
  const child = spawn(process.execPath, receiverArgs(c, effort, reportDir), {
    cwd: REPO_ROOT,
    env: childEnvironment(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeoutMs);
  const exitCode = await new Promise<number | null>((resolve) => {
    child.on("error", () => resolve(null));
    child.on("close", (code) => resolve(code));
  });
  clearTimeout(timer);
  const lines = stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as unknown];
      } catch {
        return [];
      }
    });
  let report: Report | undefined;
  try {
    report = JSON.parse(await readFile(path.join(reportDir, "report.json"), "utf8")) as Report;
  } catch {
    report = undefined;
  }
  return {
    exitCode: timedOut ? null : exitCode,
    timedOut,
    ...(report !== undefined ? { report } : {}),
    lines,
    stderr,
    durationMs: Date.now() - started,
  };
}

async function runInProcess(
  c: ReceiverCase,
  effort: ReceiverEffort,
  reportDir: string,
  timeoutMs: number,
  inline: boolean,
): Promise<ReceiverRunOutcome> {
  const [{ runReceiverSession }, { runTrace }] = await Promise.all([
    import("../harness/receiver/session.ts"),
    import("../receiver/trace.ts"),
  ]);
  const started = Date.now();
  const args = receiverArgs(c, effort, reportDir);
  const command = args.slice(args.indexOf("--") + 1);
  const lines: unknown[] = [];
  const notes: string[] = [];
  // Ends the recording: the inline receiver when it is done, or the time bound.
  const end = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    end.abort("SIGTERM");
  }, timeoutMs);
  const receive = (setup: ReceiverSetup) => {
    void runTrace({
      identifier: setup.task,
      eventsBase: setup.eventsUrl,
      resolverBase: setup.resolverUrl,
      apiKey: setup.apiKey,
      faults: c.fault === undefined ? [] : [c.fault.id],
      resolve: c.redirects === true ? "redirect" : "linkset",
    })
      .then(
        (outcome) => notes.push(...outcome.gaps),
        (error: unknown) => notes.push(`the receiver failed: ${(error as Error).message}`),
      )
      .finally(() => end.abort("SIGTERM"));
  };
  try {
    const outcome = await runReceiverSession(
      {
        port: 0,
        ...(c.configuration === DEFAULT_CONFIGURATION ? {} : { referenceConfig: c.configuration }),
        reportDir,
        ...(inline ? {} : { command }),
        seed: effort.seed,
        events: effort.events,
        timeoutMs: 10_000,
      },
      {
        setup: (s) => {
          lines.push({ kind: "setup", ...s });
          if (inline) receive(s);
        },
        note: (line) => notes.push(line),
        summary: () => {},
        color: false,
        commandOutput: "notes",
      },
      end.signal,
    );
    return {
      exitCode: timedOut ? null : outcome.exitCode,
      timedOut,
      ...(outcome.report !== undefined ? { report: outcome.report } : {}),
      lines,
      stderr: notes.join("\n"),
      durationMs: Date.now() - started,
    };
  } finally {
    clearTimeout(timer);
  }
}

export type ReceiverVerdict = "clean" | "caught" | "missed" | "false verdict" | "broken";

export interface ReceiverRow {
  label: string;
  configuration: string;
  fault?: string;
  /** The reference receiver followed the resolver's redirects. */
  redirects?: boolean;
  /** The requirements a fault names; empty for a clean case. */
  violates: string[];
  exitCode: number | null;
  failed: string[];
  warned: string[];
  errored: string[];
  /** The named requirements that failed, or warned at SHOULD. */
  caughtBy: string[];
  verdict: ReceiverVerdict;
  ok: boolean;
  durationMs: number;
  note?: string;
}

/** Judges one case: clean means exit 0 with no fail, warn or error; a fault must be caught by a requirement it names. */
export function judgeReceiverCase(c: ReceiverCase, o: ReceiverRunOutcome): ReceiverRow {
  const requirements = o.report?.requirements ?? [];
  const ids = (status: string) => requirements.filter((r) => r.status === status).map((r) => r.id);
  const violates = c.fault?.violates ?? [];
  const caughtBy = requirements
    .filter((r) => violates.includes(r.id))
    .filter((r) => r.status === "fail" || (r.level !== "MUST" && r.status === "warn"))
    .map((r) => r.id);
  const row: Omit<ReceiverRow, "verdict" | "ok"> = {
    label: c.label,
    configuration: c.configuration,
    ...(c.fault !== undefined ? { fault: c.fault.id } : {}),
    ...(c.redirects === true ? { redirects: true } : {}),
    violates,
    exitCode: o.exitCode,
    failed: ids("fail"),
    warned: ids("warn"),
    errored: ids("error"),
    caughtBy,
    durationMs: o.durationMs,
  };
  if (o.report === undefined || o.exitCode === null || o.exitCode === 2) {
    const why = o.timedOut
      ? "the run was stopped at its time bound"
      : o.stderr.trim().split("\n").slice(-3).join(" ");
    return { ...row, verdict: "broken", ok: false, note: why };
  }
  if (c.fault === undefined) {
    const clean = o.exitCode === 0 && row.failed.length + row.warned.length + row.errored.length === 0;
    return clean
      ? { ...row, verdict: "clean", ok: true }
      : {
          ...row,
          verdict: "false verdict",
          ok: false,
          note: requirements
            .filter((r) => r.status === "fail" || r.status === "warn" || r.status === "error")
            .map((r) => `${r.id}: ${r.reason ?? r.status}`)
            .join("; "),
        };
  }
  return caughtBy.length > 0
    ? { ...row, verdict: "caught", ok: true }
    : { ...row, verdict: "missed", ok: false, note: `none of ${violates.join(", ")} failed` };
}

export interface ReceiverMatrix {
  generatedAt: string;
  effort: ReceiverEffort["name"];
  seed: number;
  events: number;
  wallMs: number;
  rows: ReceiverRow[];
  ok: number;
  total: number;
}

export interface ReceiverMatrixOptions {
  effort: ReceiverEffort;
  concurrency: number;
  /** Report directories go here, one per case. */
  workDir: string;
  runTimeoutMs: number;
  /** Only these cases (all of the effort's by default). */
  cases?: readonly ReceiverCase[];
  /** How each case runs; default "cli" for all. */
  mode?: ReceiverRunMode | ((c: ReceiverCase) => ReceiverRunMode);
  onRow?: (row: ReceiverRow) => void;
}

export async function runReceiverMatrix(opts: ReceiverMatrixOptions): Promise<ReceiverMatrix> {
  const started = Date.now();
  const cases = opts.cases ?? receiverCases(opts.effort);
  const rows = await mapPool(cases, opts.concurrency, async (c) => {
    const mode = typeof opts.mode === "function" ? opts.mode(c) : opts.mode;
    const outcome = await runReceiverCase(c, opts.effort, opts.workDir, opts.runTimeoutMs, mode);
    const row = judgeReceiverCase(c, outcome);
    opts.onRow?.(row);
    return row;
  });
  return {
    generatedAt: new Date(started).toISOString(),
    effort: opts.effort.name,
    seed: opts.effort.seed,
    events: opts.effort.events,
    wallMs: Date.now() - started,
    rows,
    ok: rows.filter((r) => r.ok).length,
    total: rows.length,
  };
}

export function formatReceiverMatrix(m: ReceiverMatrix): string {
  const head = ["configuration", "fault", "exit", "failed", "warned", "verdict"];
  const rows = m.rows.map((r) => [
    r.redirects === true ? `${r.configuration} (redirects)` : r.configuration,
    r.fault ?? "-",
    String(r.exitCode ?? "-"),
    r.failed.join(",") || "-",
    r.warned.join(",") || "-",
    r.verdict,
  ]);
  const notes = m.rows.filter((r) => !r.ok && r.note).map((r) => `  ${r.label}: ${r.note}`);
  return [
    `receiver matrix (${m.effort} effort, seed ${m.seed}, ${m.events} events, ${Math.round(m.wallMs / 1000)} s): tracecheck receiver -- tracecheck trace`,
    columns([head, ...rows]),
    "",
    `${m.ok} of ${m.total} runs as expected: the reference receiver clean in every configuration, reading link sets and following redirects, each client fault caught by a requirement it names`,
    ...(notes.length > 0 ? ["", "not as expected:", ...notes] : []),
  ].join("\n");
}
