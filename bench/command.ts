import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface CommandOutcome {
  ms: number;
  exitCode: number | null;
  /** The signal that ended the command, if one did: SIGKILL when it ran past its time. */
  signal: NodeJS.Signals | null;
  stdout: string;
  /** What it wrote to stderr; empty when that went straight to ours. */
  stderr: string;
}

/**
 * Runs a command from the repository root and times it from spawn to exit; past `timeoutMs` it is killed. Its
 * stderr is kept, or with `stderr: "show"` written to ours as it comes, as progress.
 */
export function timeCommand(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  stderr: "keep" | "show" = "keep",
): Promise<CommandOutcome> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: REPO_ROOT,
      env,
      stdio: ["ignore", "pipe", stderr === "keep" ? "pipe" : "inherit"],
    });
    const out = { stdout: "", stderr: "" };
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out.stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      out.stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - started, exitCode, signal, ...out });
    });
  });
}

/** Runs `tracecheck <args>` as a user would, and times it from spawn to exit. */
export function timeTracecheck(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<CommandOutcome> {
  return timeCommand(process.execPath, [path.join(REPO_ROOT, "bin/tracecheck.js"), ...args], env, timeoutMs);
}
