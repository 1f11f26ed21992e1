// `tracecheck serve` as a child process: started, read until its listening line, stopped with SIGTERM.
import { type ChildProcess, spawn } from "node:child_process";
import { BIN, childEnv, REPO_ROOT } from "./cli.ts";

export interface ServeProcess {
  eventsBase: string;
  resolverBase: string;
  /** Everything the process wrote so far. */
  output(): { stdout: string; stderr: string };
  /** Sends SIGTERM (once) and resolves with the exit code; null when a signal ended it instead. */
  stop(): Promise<number | null>;
}

const LISTENING = /^listening (\S+) (\S+)$/m;

/** Starts `tracecheck serve …args` and resolves once it prints `listening <events> <resolver>` (CONTRACT.md). */
export function startServe(args: readonly string[]): Promise<ServeProcess> {
  const child: ChildProcess = spawn(process.execPath, [BIN, "serve", ...args], {
    cwd: REPO_ROOT,
    env: childEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  let stopping: Promise<number | null> | undefined;
  return new Promise((resolve, reject) => {
    let started = false;
    child.stdout?.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      const line = LISTENING.exec(stdout);
      if (started || !line) return;
      started = true;
      resolve({
        eventsBase: line[1]!,
        resolverBase: line[2]!,
        output: () => ({ stdout, stderr }),
        stop: () => {
          if (!stopping) {
            if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
            stopping = exited;
          }
          return stopping;
        },
      });
    });
    child.stderr?.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.on("error", reject);
    void exited.then((code) => {
      if (!started)
        reject(new Error(`tracecheck serve exited with ${code} before listening: ${stderr.trim()}`));
    });
  });
}
