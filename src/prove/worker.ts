// A proving worker: runs `tracecheck run` in-process, one run at a time, for the pool that started it. Keeping
// the process, with its loaded suites and compiled code, between runs saves the start-up each run would otherwise
// pay; the options are read exactly as the command line reads them.
import { RUN_OPTIONS } from "../cli/main.ts";
import { parse } from "../cli/parse.ts";
import type { Report } from "../engine/types.ts";
import { resolveRunOptions, UsageError } from "../harness/options.ts";
import { runTracecheck } from "../harness/run.ts";

export interface WorkerRequest {
  args: string[];
  reportDir: string;
  onlyRequirements?: string[];
}

export interface WorkerReply {
  exitCode: number;
  report?: Report;
  stdout: string;
  stderr: string;
  /** The worker process's peak resident memory so far, in bytes: the run's own in a worker that ran only it. */
  peakRssBytes: number;
}

async function runOne(request: WorkerRequest): Promise<WorkerReply> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), color: false };
  const reply = (exitCode: number, report?: Report): WorkerReply => ({
    exitCode,
    ...(report ? { report } : {}),
    stdout: out.join("\n"),
    stderr: err.join("\n"),
    // resourceUsage reports kibibytes.
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  });
  try {
    const { values, positionals } = parse(request.args, RUN_OPTIONS);
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}".`);
    const { config: _config, ...flags } = values;
    // The environment is left out on purpose: a proving run depends on its arguments alone.
    const opts = resolveRunOptions(flags, {}, {});
    opts.reportDir = request.reportDir;
    if (request.onlyRequirements !== undefined) opts.onlyRequirements = request.onlyRequirements;
    opts.quiet = true;
    const outcome = await runTracecheck(opts, io);
    return reply(outcome.exitCode, outcome.report);
  } catch (error) {
    const message =
      error instanceof UsageError ? error.message : `harness error: ${(error as Error).stack ?? error}`;
    io.err(`tracecheck: ${message}`);
    return reply(2);
  }
}

process.on("message", (request: WorkerRequest) => {
  void runOne(request).then((reply) => process.send?.(reply));
});
