import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { REPO_ROOT } from "./command.ts";

export interface ServedTarget {
  eventsBase: string;
  stop(): Promise<void>;
}

/** Starts `tracecheck serve` as a process of its own and resolves once it prints its listening line. */
export function serveTarget(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<ServedTarget> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, "bin/tracecheck.js"), "serve", ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`tracecheck serve ${args.join(" ")} did not start within ${timeoutMs} ms.`));
    }, timeoutMs);
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      const line = /^listening (\S+) \S+$/m.exec(out);
      if (line?.[1] === undefined) return;
      clearTimeout(timer);
      resolve({ eventsBase: line[1], stop: () => stopped(child) });
    });
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`tracecheck serve ${args.join(" ")} exited with ${signal ?? code} before listening.`));
    });
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
