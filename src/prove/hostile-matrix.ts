// The hostile matrix at full size: `tracecheck run`, a process of its own as users run it, against targets that
// misbehave in every way a target was seen to (pages of ~15 MiB that never end, a body of a gigabyte, hangs, drips,
// resets, loops, redirects and links to another origin, 500, a standing 429, slow headers, a resolver that hangs).
// Each row must end with the exit status due, within a bound only a hang would cross, under the bound of resident
// memory, with its report written, and without the key reaching another origin. `npm test` runs the same targets
// small (test/hostile); this is where their full sizes are shown.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { REPO_ROOT } from "../harness/repo.ts";
import type { Report } from "../harness/types.ts";
import {
  LARGE_PAGE_BYTES,
  type Misbehaviour,
  type Received,
  type Scope,
  startHostileTarget,
} from "./hostile-server.ts";
import { childEnvironment } from "./outcome.ts";
import { mapPool } from "./pool.ts";
import { columns } from "./table.ts";

const BIN = path.join(REPO_ROOT, "bin", "tracecheck.js");
/** Preloaded into each run: writes the process's peak resident memory as it exits. */
const PEAK_HOOK = path.join(REPO_ROOT, "src", "prove", "peak-rss.mjs");
const MIB = 1024 * 1024;

/** No target may take the harness's resident memory past this: the project's bound on a hostile run. */
export const PEAK_RSS_BOUND_BYTES = 600 * MIB;
/** Distinctive, so that finding it anywhere it should not be is unambiguous. */
export const HOSTILE_KEY = "hostile-matrix-KEY-8c41d07e2b";
/** What of a run's output is kept: a crash's last words, not a flood. */
const OUTPUT_KEPT = 64 * 1024;

export interface HostileRow {
  /** Names the row and its report directory: letters, digits, dots and dashes. */
  label: string;
  /** What the target does, as the table says it. */
  behaviour: string;
  misbehaviour: Misbehaviour;
  scope: Scope;
  /** The exit status due: 2 when what the target did leaves the run incomplete, 1 when a MUST was decided failed. */
  exit: 0 | 1 | 2;
  /** Flags of the full-size run beyond the common ones: a budget where the default would take too long. */
  flags?: string[];
  /** Why the row sets `flags` rather than keep tracecheck's defaults. */
  why?: string;
  /** Flags of the quick run, which keeps every wait and budget small. */
  quickFlags?: readonly string[];
}

/** The byte budget of discovery's runaway answer: some 35 pages of ~15 MiB. */
const LARGE_PAGES_BUDGET = String(512 * MIB);

/**
 * The quick run's timeout where only some requests hang: short, since each hung one waits it out, yet it bounds every
 * request of the run, discovery's included, so it leaves a correct answer ample room on a loaded machine (four runs
 * and their targets sharing two cores). test/hostile uses it too.
 */
export const QUICK_SLOW_TIMEOUT_MS = 2500;
const QUICK_SLOW_FLAGS = ["--timeout", String(QUICK_SLOW_TIMEOUT_MS)];

/**
 * The rows, the longest first (pages without end, then the waits on timeouts and bodies cut at the cap), so that
 * the short ones fill in beside them rather than trail after.
 */
export const HOSTILE_ROWS: readonly HostileRow[] = [
  {
    label: "endless-pages",
    behaviour: "pages filtered queries without end, each page a new one",
    misbehaviour: "endless-pages",
    scope: "filtered",
    exit: 1,
    quickFlags: ["--max-pages", "3"],
  },
  {
    label: "endless-large-pages-filtered",
    behaviour: "answers filtered queries, after discovery, with ~15 MiB pages of new events without end",
    misbehaviour: "endless-large-pages",
    scope: "filtered",
    exit: 1,
    quickFlags: ["--max-answer-bytes", String(64 * MIB)],
  },
  {
    label: "silent-epc",
    behaviour: "never answers an EPC query",
    misbehaviour: "silent",
    scope: "epc",
    exit: 2,
    quickFlags: QUICK_SLOW_FLAGS,
  },
  {
    label: "trickle-epc",
    behaviour: "answers EPC queries one byte a second",
    misbehaviour: "trickle",
    scope: "epc",
    exit: 2,
    quickFlags: QUICK_SLOW_FLAGS,
  },
  {
    label: "slow-headers-epc",
    behaviour: "sends the status line of EPC answers 30 s late",
    misbehaviour: "slow-headers",
    scope: "epc",
    exit: 2,
    quickFlags: QUICK_SLOW_FLAGS,
  },
  {
    label: "huge-body",
    behaviour:
      "sends a body of 1 GiB to every request but discovery (read no further than the answer may hold)",
    misbehaviour: "huge-body",
    scope: "all-but-discovery",
    // A query's answer passes four times the whole repository within its first page, which decides it: the
    // filters fail. The resolver's answers, cut at the body cap, were not heard out and are undecided.
    exit: 1,
  },
  {
    label: "endless-large-pages-discovery",
    behaviour: "answers GET /events, discovery's query first, with ~15 MiB pages of new events without end",
    misbehaviour: "endless-large-pages",
    scope: "events",
    exit: 2,
    flags: ["--max-answer-bytes", LARGE_PAGES_BUDGET],
    why: "the default byte budget, 16 GiB, is some 1,100 pages of 15 MiB: about 18 minutes at the page a second measured here; 512 MiB is some 35 of them",
    quickFlags: ["--max-answer-bytes", String(128 * MIB)],
  },
  {
    label: "silent-resolver",
    behaviour: "never answers the resolver while GET /events answers",
    misbehaviour: "silent",
    scope: "resolver",
    exit: 2,
    quickFlags: QUICK_SLOW_FLAGS,
  },
  {
    label: "status-429-all",
    behaviour: "answers 429 with Retry-After to everything",
    misbehaviour: "status-429",
    scope: "all",
    exit: 2,
    quickFlags: ["--retry-budget", "2"],
  },
  {
    label: "silent-all",
    behaviour: "never answers anything",
    misbehaviour: "silent",
    scope: "all",
    exit: 2,
    quickFlags: ["--timeout", "1000"],
  },
  {
    label: "reset-epc",
    behaviour: "resets the connection mid-body of EPC answers",
    misbehaviour: "reset",
    scope: "epc",
    exit: 2,
  },
  {
    label: "status-500-all",
    behaviour: "answers 500 to everything",
    misbehaviour: "status-500",
    scope: "all",
    exit: 2,
  },
  {
    label: "status-500-filtered",
    behaviour: "answers 500 to filtered queries",
    misbehaviour: "status-500",
    scope: "filtered",
    exit: 1,
  },
  {
    label: "invalid-json-filtered",
    behaviour: "sends invalid JSON to filtered queries",
    misbehaviour: "invalid-json",
    scope: "filtered",
    exit: 1,
  },
  {
    label: "html-body-filtered",
    behaviour: "serves an HTML page to filtered queries",
    misbehaviour: "html-body",
    scope: "filtered",
    exit: 1,
  },
  {
    label: "wrong-content-type-all",
    behaviour: "labels its correct JSON text/html",
    misbehaviour: "wrong-content-type",
    scope: "all",
    exit: 0,
  },
  {
    label: "redirect-loop-filtered",
    behaviour: "redirects filtered queries in a loop",
    misbehaviour: "redirect-loop",
    scope: "filtered",
    exit: 1,
  },
  {
    label: "redirect-loop-resolver",
    behaviour: "redirects the resolver in a loop",
    misbehaviour: "redirect-loop",
    scope: "resolver",
    exit: 1,
  },
  {
    label: "redirect-off-origin",
    behaviour: "redirects every request but discovery to another origin, query (and key) and all",
    misbehaviour: "redirect-off-origin",
    scope: "all-but-discovery",
    exit: 1,
  },
  {
    label: "linkset-off-origin",
    behaviour: "links to another origin from its link sets",
    misbehaviour: "linkset-off-origin",
    scope: "resolver",
    exit: 1,
  },
  {
    label: "linkset-unreachable",
    behaviour: "links to an unreachable address from its link sets",
    misbehaviour: "linkset-unreachable",
    scope: "resolver",
    exit: 1,
  },
  {
    label: "paging-off-origin",
    behaviour: "links the next page of filtered queries to another origin",
    misbehaviour: "paging-off-origin",
    scope: "filtered",
    exit: 1,
  },
  {
    label: "paging-loop",
    behaviour: "pages filtered queries in a loop",
    misbehaviour: "paging-loop",
    scope: "filtered",
    exit: 1,
  },
];

export interface HostileEffort {
  name: "quick" | "full";
  seed: number;
  /** Events of the dataset behind the hostile proxy. */
  events: number;
  /** The size of each page of endless-large-pages. */
  pageBytes: number;
  /** Options every run of the effort shares (beyond target, key, seed and report directory). */
  common: readonly string[];
  /** The bound on one run: far above what its waits and budgets imply, far below a hang. */
  runBoundMs: number;
}

export const FULL_HOSTILE_EFFORT: Readonly<HostileEffort> = Object.freeze({
  name: "full",
  seed: 7,
  events: 200,
  pageBytes: LARGE_PAGE_BYTES,
  common: [],
  runBoundMs: 15 * 60_000,
});

/** The sizes of npm test's hostile matrix: one case per property, small pages, budgets through flags. */
export const QUICK_HOSTILE_EFFORT: Readonly<HostileEffort> = Object.freeze({
  name: "quick",
  seed: 7,
  events: 40,
  pageBytes: 4 * MIB,
  common: ["--runs", "1", "--suite", "events,resolver"],
  runBoundMs: 4 * 60_000,
});

/** The flags a row runs with at an effort. */
export function rowFlags(row: HostileRow, effort: HostileEffort): string[] {
  const own = effort.name === "quick" ? (row.quickFlags ?? []) : (row.flags ?? []);
  return [...effort.common, ...own];
}

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

/** Where the key showed that it must not: a request on another origin, the run's output, its report files. */
export function keyLeaks(key: string, other: readonly Received[], texts: Record<string, string>): string[] {
  const found: string[] = [];
  for (const r of other) {
    if (r.key !== undefined) found.push(`X-API-Key on the other origin's ${r.path}`);
    else if (r.headerText.includes(key)) found.push(`a header on the other origin's ${r.path}`);
    if (r.path.includes(key)) found.push(`the URL ${r.path.split(key).join("<key>")} on the other origin`);
  }
  for (const [where, text] of Object.entries(texts)) if (text.includes(key)) found.push(where);
  return found;
}

export interface HostileResult {
  label: string;
  behaviour: string;
  misbehaviour: Misbehaviour;
  scope: Scope;
  /** The flags beyond the target, key, seed and report directory. */
  flags: string[];
  why?: string;
  exitDue: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  durationMs: number;
  boundMs: number;
  peakRssBytes?: number;
  peakAtExit: boolean;
  reportWritten: boolean;
  /** What the run decided: the requirements it failed and those it left undecided (error). */
  failed: string[];
  errored: string[];
  /** Requests that reached the other origin, and where the key showed that it must not. */
  otherOriginRequests: number;
  keyLeaks: string[];
  /** Why the row is not as it must be; empty when it is. */
  problems: string[];
  ok: boolean;
  /** The run's reason when incomplete, or, when it wrote no report, the last lines it printed on stderr. */
  note?: string;
}

/** Judges one run: the exit due, ended by itself within its bound, under the memory bound, report written, key kept. */
export function judgeHostileRun(
  row: HostileRow,
  flags: string[],
  run: MeasuredRun,
  leaks: string[],
  otherOriginRequests: number,
  boundMs: number,
): HostileResult {
  const problems: string[] = [];
  if (run.timedOut) problems.push(`still running after ${Math.round(boundMs / 1000)} s, stopped`);
  else if (run.signal !== null) problems.push(`killed by ${run.signal}`);
  if (run.exitCode !== row.exit) problems.push(`exit ${run.exitCode ?? "-"}, due ${row.exit}`);
  if (run.peakRssBytes === undefined) problems.push("no peak resident memory was measured");
  else if (run.peakRssBytes >= PEAK_RSS_BOUND_BYTES || !run.peakAtExit) {
    const mib = Math.round(run.peakRssBytes / MIB);
    problems.push(
      run.peakAtExit
        ? `peak resident memory ${mib} MiB, over ${PEAK_RSS_BOUND_BYTES / MIB} MiB`
        : `peak resident memory at least ${mib} MiB before the process died`,
    );
  }
  if (run.report === undefined) problems.push("no report.json");
  if (leaks.length > 0) problems.push(`the key showed in ${leaks.join("; ")}`);
  if (/heap out of memory|harness error|Unhandled/.test(run.stderr)) problems.push("the harness crashed");
  const lastWords = run.stderr.trim().split("\n").slice(-3).join(" ").trim();
  const note = run.report === undefined ? lastWords || undefined : run.report.incompleteReason;
  const ids = (status: string) =>
    (run.report?.requirements ?? []).filter((r) => r.status === status).map((r) => r.id);
  return {
    label: row.label,
    behaviour: row.behaviour,
    misbehaviour: row.misbehaviour,
    scope: row.scope,
    flags,
    ...(row.why === undefined ? {} : { why: row.why }),
    exitDue: row.exit,
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    boundMs,
    ...(run.peakRssBytes === undefined ? {} : { peakRssBytes: run.peakRssBytes }),
    peakAtExit: run.peakAtExit,
    reportWritten: run.report !== undefined,
    failed: ids("fail"),
    errored: ids("error"),
    otherOriginRequests,
    keyLeaks: leaks,
    problems,
    ok: problems.length === 0,
    ...(note === undefined ? {} : { note }),
  };
}

async function readIfThere(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch {
    return "";
  }
}

/** Runs one row against a hostile target of its own and judges it. */
export async function runHostileRow(
  row: HostileRow,
  effort: HostileEffort,
  workDir: string,
): Promise<HostileResult> {
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
    const leaks = keyLeaks(HOSTILE_KEY, target.other.received, texts);
    // The reason for a budget flag is the full size's; the quick effort sets its small budgets on every row.
    const judged = effort.name === "full" ? row : { ...row, why: undefined };
    return judgeHostileRun(judged, flags, run, leaks, target.other.received.length, effort.runBoundMs);
  } finally {
    await target.close();
  }
}

export interface HostileMatrix {
  generatedAt: string;
  effort: HostileEffort["name"];
  events: number;
  pageBytes: number;
  peakBoundBytes: number;
  concurrency: number;
  wallMs: number;
  rows: HostileResult[];
  ok: number;
  total: number;
}

export interface HostileMatrixOptions {
  effort: HostileEffort;
  concurrency: number;
  /** Report directories go here, one per row. */
  workDir: string;
  /** Only these rows (all by default). */
  rows?: readonly HostileRow[];
  onRow?: (row: HostileResult) => void;
}

export async function runHostileMatrix(opts: HostileMatrixOptions): Promise<HostileMatrix> {
  const started = Date.now();
  await mkdir(opts.workDir, { recursive: true });
  const rows = await mapPool(opts.rows ?? HOSTILE_ROWS, opts.concurrency, async (row) => {
    const result = await runHostileRow(row, opts.effort, opts.workDir);
    opts.onRow?.(result);
    return result;
  });
  return {
    generatedAt: new Date(started).toISOString(),
    effort: opts.effort.name,
    events: opts.effort.events,
    pageBytes: opts.effort.pageBytes,
    peakBoundBytes: PEAK_RSS_BOUND_BYTES,
    concurrency: opts.concurrency,
    wallMs: Date.now() - started,
    rows,
    ok: rows.filter((r) => r.ok).length,
    total: rows.length,
  };
}

/** A byte count as the table shows it: whole GiB or MiB where it is one. */
function bytesText(n: number): string {
  if (n % 1024 ** 3 === 0) return `${n / 1024 ** 3} GiB`;
  if (n % MIB === 0) return `${n / MIB} MiB`;
  return String(n);
}

/** The budget flags of a row as the table shows them; "default" when it sets none. */
function budgetText(flags: readonly string[]): string {
  const shown: string[] = [];
  for (let i = 0; i < flags.length; i += 1) {
    const flag = flags[i]!;
    if (flag === "--max-answer-bytes") shown.push(`${flag} ${bytesText(Number(flags[i + 1]))}`);
    else if (flag === "--max-pages" || flag === "--retry-budget" || flag === "--timeout") {
      shown.push(`${flag} ${flags[i + 1]}`);
    }
  }
  return shown.length > 0 ? shown.join(" ") : "default";
}

function peakText(r: HostileResult): string {
  if (r.peakRssBytes === undefined) return "-";
  const mib = Math.round(r.peakRssBytes / MIB);
  return r.peakAtExit ? `${mib} MiB` : `>=${mib} MiB`;
}

export function formatHostileMatrix(m: HostileMatrix): string {
  const head = [
    "row",
    "scope",
    "budget",
    "exit",
    "due",
    "fail",
    "error",
    "time",
    "peak RSS",
    "other origin",
    "key",
    "verdict",
  ];
  const rows = m.rows.map((r) => [
    r.label,
    r.scope,
    budgetText(r.flags),
    r.timedOut ? "-" : String(r.exitCode ?? r.signal ?? "-"),
    String(r.exitDue),
    r.reportWritten ? String(r.failed.length) : "-",
    r.reportWritten ? String(r.errored.length) : "-",
    `${Math.round(r.durationMs / 1000)} s`,
    peakText(r),
    `${r.otherOriginRequests} req`,
    r.keyLeaks.length > 0 ? "LEAKED" : "kept",
    r.ok ? "ok" : "FAILED",
  ]);
  const behaviours = m.rows.map((r) => `  ${r.label}: ${r.behaviour}`);
  const budgets = m.rows.filter((r) => r.why).map((r) => `  ${r.label}: ${r.why}`);
  const failed = m.rows
    .filter((r) => !r.ok)
    .flatMap((r) => [`  ${r.label}: ${r.problems.join("; ")}`, ...(r.note ? [`    ${r.note}`] : [])]);
  return [
    `hostile matrix (${m.effort} effort, ${m.events} events, large pages of ${bytesText(m.pageBytes)}, ${m.concurrency} at once, ${Math.round(m.wallMs / 1000)} s): tracecheck run, each in a process of its own, against a target that misbehaves`,
    columns([head, ...rows]),
    "",
    "what each target does:",
    ...behaviours,
    ...(budgets.length > 0 ? ["", "budgets set by flag instead of the default:", ...budgets] : []),
    "",
    `${m.ok} of ${m.total} runs ended by themselves with the exit due, under ${m.peakBoundBytes / MIB} MiB of resident memory, their report written and the key kept from every other origin`,
    ...(failed.length > 0 ? ["", "not as due:", ...failed] : []),
  ].join("\n");
}
