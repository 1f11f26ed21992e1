// The hostile matrix's runner: a row's hostile target started and set to misbehave, `tracecheck run` against it in a
// process of its own as users run it, stopped at a bound only a hang would cross, its peak resident memory measured,
// and what it left (output, report files, the requests that reached the other origin) gathered for the judge
// (hostile-judge.ts).
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { REPO_ROOT } from "../engine/repo.ts";
import type { Report } from "../engine/types.ts";
import { type Received, startHostileTarget } from "./hostile-server.ts";
import { type HostileEffort, type HostileRow, rowFlags } from "./hostile-table.ts";
import { childEnvironment } from "./outcome.ts";

const BIN = path.join(REPO_ROOT, "bin", "tracecheck.js");
/** Preloaded into each run: writes the process's peak resident memory as it exits. */
const PEAK_HOOK = path.join(REPO_ROOT, "src", "prove", "peak-rss.mjs");

/** Distinctive, so that finding it anywhere it should not be is unambiguous. */
export const HOSTILE_KEY = "hostile-matrix-KEY-8c41d07e2b";
/** What of a run's output is kept: a crash's last words, not a flood. */
const OUTPUT_KEPT = 64 * 1024;

export interface MeasuredRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Stopped at its bound. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
  /**
   * Peak resident memory of the whole process, every thread included: what it wrote as it exited, or, when it
   * never exited by itself (killed, crashed), the kernel's high-water mark last read while it ran.
   */
  peakRssBytes?: number;
  /** peakRssBytes is what the process wrote as it exited, not a reading taken while it ran. */
  peakAtExit: boolean;
  report?: Report;
}

function highWaterMark(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const found = /VmHWM:\s+(\d+)\s*kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return found ? Number(found[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `node bin/tracecheck.js …args` in a process of its own, its peak resident memory measured, stopped at
 * `boundMs`; `peakFile` is where the process writes its peak, `reportDir` where it was told to write its report.
 */
export async function runMeasured(
  args: readonly string[],
  opts: { reportDir: string; peakFile: string; boundMs: number },
): Promise<MeasuredRun> {
  const started = Date.now();
  const child = spawn(process.execPath, ["--import", PEAK_HOOK, BIN, ...args], {
    cwd: REPO_ROOT,
    env: { ...childEnvironment(), PEAK_RSS_FILE: opts.peakFile },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const keep = (text: string) => (text.length > OUTPUT_KEPT ? text.slice(-OUTPUT_KEPT) : text);
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout = keep(stdout + d);
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr = keep(stderr + d);
  });
  let sampled: number | undefined;
  const sampler = setInterval(() => {
    sampled = highWaterMark(child.pid) ?? sampled;
  }, 500);
  let timedOut = false;
  const bound = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, opts.boundMs);
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.on("error", (error) => {
      stderr += `\n${error.message}`;
      resolve([null, null]);
    });
    child.on("close", (code, sig) => resolve([code, sig]));
  });
  clearTimeout(bound);
  clearInterval(sampler);
  const written = existsSync(opts.peakFile) ? Number(readFileSync(opts.peakFile, "utf8")) : undefined;
  const peakRssBytes = written ?? sampled;
  let report: Report | undefined;
  try {
    report = JSON.parse(await readFile(path.join(opts.reportDir, "report.json"), "utf8")) as Report;
  } catch {
    report = undefined;
  }
  return {
    exitCode,
    signal,
    timedOut,
    stdout,
    stderr,
    durationMs: Date.now() - started,
    ...(peakRssBytes === undefined ? {} : { peakRssBytes }),
    peakAtExit: written !== undefined,
    ...(report === undefined ? {} : { report }),
  };
}

async function readIfThere(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch {
    return "";
  }
}

/** What one row's run left for the judge. */
export interface HostileRun {
  /** The flags beyond the target, key, seed and report directory. */
  flags: string[];
  run: MeasuredRun;
  /** The requests that reached the other origin. */
  otherOrigin: Received[];
  /** Where the key must not show, by name: the run's stdout and stderr, each report file. */
  texts: Record<string, string>;
}

/** Runs one row against a hostile target of its own, with the key HOSTILE_KEY. */
export async function runAgainstHostileTarget(
  row: HostileRow,
  effort: HostileEffort,
  workDir: string,
): Promise<HostileRun> {
  const target = await startHostileTarget({
    apiKey: HOSTILE_KEY,
    seed: 11,
    events: effort.events,
    pageBytes: effort.pageBytes,
  });
  try {
    target.misbehave(row.misbehaviour, row.scope);
    const reportDir = path.join(workDir, row.label);
    const flags = rowFlags(row, effort);
    const args = ["run", "--target", target.origin, "--api-key", HOSTILE_KEY, "--seed", String(effort.seed)];
    if (target.party !== undefined) args.push("--party", target.party);
    args.push("--report-dir", reportDir, "--quiet", ...flags);
    const run = await runMeasured(args, {
      reportDir,
      peakFile: path.join(workDir, `${row.label}.peak`),
      boundMs: effort.runBoundMs,
    });
    const texts: Record<string, string> = { "the run's stdout": run.stdout, "the run's stderr": run.stderr };
    for (const file of ["report.json", "junit.xml", "report.html"]) {
      texts[file] = await readIfThere(path.join(reportDir, file));
    }
    return { flags, run, otherOrigin: [...target.other.received], texts };
  } finally {
    await target.close();
  }
}
