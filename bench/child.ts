// Benchmarks whose memory matters run in a child process of their own, so that the resident set they report is
// theirs alone and not what earlier benchmarks left in this process.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { timeCommand } from "./command.ts";

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

/** Marks the line that carries a child's result, so that anything else it prints is left alone. */
const RESULT_PREFIX = "bench-result ";

/** Runs bench/<script> under tsx and returns the result it emitted; its stderr goes to ours as progress. */
export async function runChild<T>(
  script: string,
  args: readonly string[],
  timeoutMs: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<T> {
  const child = await timeCommand(
    process.execPath,
    ["--import", "tsx", path.join(BENCH_DIR, script), ...args],
    env,
    timeoutMs,
    "show",
  );
  const line = child.stdout.split("\n").find((l) => l.startsWith(RESULT_PREFIX));
  if (line === undefined) {
    const why =
      child.signal === "SIGKILL"
        ? `was stopped after ${timeoutMs} ms`
        : `exited with ${child.signal ?? child.exitCode}`;
    throw new Error(`bench/${script} ${args.join(" ")} ${why} without a result; its messages are above.`);
  }
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as T;
}

/** Called by a child script to hand its result to the parent. */
export function emitResult(value: unknown): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(value)}\n`);
}

/** The largest resident set this process has had so far, in bytes. */
export function peakRssBytes(): number {
  return process.resourceUsage().maxRSS * 1024;
}

export function progress(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}
