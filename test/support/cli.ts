// Runs the real `tracecheck` command as a child process, the way users and CI pipelines call it.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Report, RequirementResult } from "../../src/engine/types.ts";
import { sharedForTests } from "./for-tests.ts";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = path.join(REPO_ROOT, "bin", "tracecheck.js");
export const CONTRACT_FILE = path.resolve(REPO_ROOT, "../shared/design/CONTRACT.md");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment a child gets: ours without the variables tracecheck reads (so a developer's key or mirror
 * cannot change a result) and without vitest's own, which would confuse the vitest the runner starts.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith("TRACECHECK_") || k.startsWith("VITEST") || k === "NODE_OPTIONS") continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: "1", ...extra };
}

/** `node bin/tracecheck.js …args` from the repository root; resolves when the process exits. */
export function runCli(
  args: readonly string[],
  opts: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliResult> {
  return runNode([BIN, ...args], opts);
}

/** `node …args` (this Node), from the repository root unless told otherwise; resolves when the process exits. */
export function runNode(
  args: readonly string[],
  opts: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: opts.cwd ?? REPO_ROOT,
      env: childEnv(opts.env),
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
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A fresh directory under the system's temporary folder, and a way to remove it. */
export async function tempDir(label: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `tracecheck-test-${label}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A fresh temporary directory for the tests of one file: made before they run, removed after them, also when one
 * fails. The function gives its path.
 */
export function tempDirOfFile(label: string): () => string {
  const made = sharedForTests(
    `the temporary directory of ${label}`,
    () => tempDir(label),
    (t) => t.remove(),
  );
  return () => made().dir;
}

/** Runs `use` in a fresh temporary directory, removed afterwards whatever happens. */
export async function withTempDir<T>(label: string, use: (dir: string) => Promise<T>): Promise<T> {
  const { dir, remove } = await tempDir(label);
  try {
    return await use(dir);
  } finally {
    await remove();
  }
}

/** A `tracecheck run` with `args`, its reports written to `dir`/`label`, and the report.json it wrote. */
export async function runForReport(
  dir: string,
  label: string,
  args: readonly string[],
): Promise<CliResult & { report: Report }> {
  const reports = path.join(dir, label);
  const result = await runCli(["run", ...args, "--report-dir", reports]);
  const report = JSON.parse(await readFile(path.join(reports, "report.json"), "utf8")) as Report;
  return { ...result, report };
}

/** The verdict a report gives a requirement; throws when it gives none. */
export function verdictIn(report: Report, id: string): RequirementResult {
  const found = report.requirements.find((q) => q.id === id);
  if (found === undefined) throw new Error(`no verdict for ${id}`);
  return found;
}
