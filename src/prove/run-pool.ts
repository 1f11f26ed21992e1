// Runs `tracecheck run` in a few worker processes, one run per worker at a time. A run that outlives its bound
// has its worker killed and replaced, so one hung run costs its bound and nothing more.
import { type ChildProcess, fork } from "node:child_process";
import path from "node:path";
import { CODE_FORM, pathInForm } from "../definition/locations.ts";
import { REPO_ROOT } from "../engine/repo.ts";
import { childEnvironment, type TracecheckOutcome, type TracecheckRun } from "./outcome.ts";
import { mapPool } from "./pool.ts";
import type { WorkerReply, WorkerRequest } from "./worker.ts";

/**
 * The proving worker in the form this process runs in (src/definition/locations.ts): its file in the bundle, else
 * its source through tsx; its runs import the suites of the same form.
 */
const workerEntry = () => ({
  file: pathInForm(REPO_ROOT, CODE_FORM, "src/prove/worker.ts"),
  execArgv: CODE_FORM === "sources" ? ["--import", "tsx"] : [],
});

export interface RunPoolOptions {
  /** Workers, and so runs at once. */
  size: number;
  /** Report directories go here, one per run label. */
  workDir: string;
  /** Bound on one run. */
  runTimeoutMs: number;
  /**
   * A worker is replaced after this many runs (default 40), so that nothing one run leaves behind piles up; its
   * heap grows by well under a megabyte a run.
   */
  recycleAfter?: number;
}

interface Worker {
  child: ChildProcess;
  runs: number;
}

function startWorker(): Worker {
  const entry = workerEntry();
  const child = fork(entry.file, [], {
    cwd: REPO_ROOT,
    env: childEnvironment(),
    execArgv: entry.execArgv,
    stdio: ["ignore", "ignore", "ignore", "ipc"],
  });
  return { child, runs: 0 };
}

function stopWorker(w: Worker): void {
  if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
}

export class RunPool {
  readonly #opts: RunPoolOptions;
  readonly #idle: Worker[] = [];
  readonly #all = new Set<Worker>();

  constructor(opts: RunPoolOptions) {
    if (!Number.isInteger(opts.size) || opts.size < 1) {
      throw new RangeError(`The pool size is ${opts.size} but must be a whole number of at least 1.`);
    }
    this.#opts = opts;
  }

  /** Every run, at most `size` at once; outcomes in the order of the runs. */
  runAll(
    runs: readonly TracecheckRun[],
    onRun?: (o: TracecheckOutcome) => void,
  ): Promise<TracecheckOutcome[]> {
    return mapPool(runs, this.#opts.size, async (run) => {
      const outcome = await this.run(run);
      onRun?.(outcome);
      return outcome;
    });
  }

  async run(run: TracecheckRun): Promise<TracecheckOutcome> {
    if (!/^[\w.-]+$/.test(run.label)) {
      throw new Error(
        `The run label "${run.label}" must be letters, digits, dots and dashes; rename the run.`,
      );
    }
    const reportDir = path.join(this.#opts.workDir, run.label);
    const worker = this.#idle.pop() ?? this.#track(startWorker());
    const started = Date.now();
    const request: WorkerRequest = { args: run.args, reportDir };
    if (run.onlyRequirements !== undefined) request.onlyRequirements = run.onlyRequirements;
    const reply = await this.#ask(worker, request);
    const outcome: TracecheckOutcome = {
      label: run.label,
      args: run.args,
      exitCode: reply.kind === "reply" ? reply.reply.exitCode : null,
      timedOut: reply.kind === "timeout",
      ...(reply.kind === "reply" && reply.reply.report ? { report: reply.reply.report } : {}),
      reportDir,
      stdout: reply.kind === "reply" ? reply.reply.stdout : "",
      stderr: reply.kind === "reply" ? reply.reply.stderr : reply.message,
      durationMs: Date.now() - started,
      ...(reply.kind === "reply" ? { peakRssBytes: reply.reply.peakRssBytes } : {}),
    };
    worker.runs += 1;
    if (reply.kind === "reply" && worker.runs < (this.#opts.recycleAfter ?? 40)) {
      this.#idle.push(worker);
    } else {
      this.#retire(worker);
    }
    return outcome;
  }

  close(): void {
    for (const w of [...this.#all]) this.#retire(w);
  }

  #track(w: Worker): Worker {
    this.#all.add(w);
    return w;
  }

  #retire(w: Worker): void {
    stopWorker(w);
    this.#all.delete(w);
    const at = this.#idle.indexOf(w);
    if (at >= 0) this.#idle.splice(at, 1);
  }

  #ask(
    w: Worker,
    request: WorkerRequest,
  ): Promise<{ kind: "reply"; reply: WorkerReply } | { kind: "timeout" | "died"; message: string }> {
    return new Promise((resolve) => {
      const finish = (value: Parameters<typeof resolve>[0]) => {
        clearTimeout(timer);
        w.child.off("message", onMessage);
        w.child.off("exit", onExit);
        resolve(value);
      };
      const onMessage = (reply: WorkerReply) => finish({ kind: "reply", reply });
      const onExit = (code: number | null, signal: string | null) =>
        finish({
          kind: "died",
          message: `the run's process ended (exit ${code}, signal ${signal}) before the run did.`,
        });
      const timer = setTimeout(
        () =>
          finish({ kind: "timeout", message: `the run was stopped after ${this.#opts.runTimeoutMs} ms.` }),
        this.#opts.runTimeoutMs,
      );
      w.child.on("message", onMessage);
      w.child.on("exit", onExit);
      w.child.send(request);
    });
  }
}
