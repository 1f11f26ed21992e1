import { spawn } from "node:child_process";
import path from "node:path";
import { REPO_ROOT } from "./child.ts";

export interface CommandOutcome {
  ms: number;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command from the repository root and times it from spawn to exit; past `timeoutMs` it is killed. */
export function timeCommand(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<CommandOutcome> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - started, exitCode: code, stdout, stderr });
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
