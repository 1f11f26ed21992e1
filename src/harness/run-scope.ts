// What the suites keep for one run: the run context, the client, the baseline and every memo a check shares with
// the others of its run. The suites run in the harness's process (engine.ts), where one process may run tracecheck
// many times, and at once (a proving worker, the project's tests): each run's checks see that run's scope alone.
// Code outside any run (a suite file under vitest, a test calling a helper) shares one scope per process, which is
// one run's, since a vitest worker serves one run.
import { AsyncLocalStorage } from "node:async_hooks";
import type { HttpClient } from "../http/index.ts";
import type { Baseline } from "./baseline.ts";
import type { RunContext } from "./context.ts";

export interface RunScope {
  /** The run's context, where the harness runs the suites itself; under vitest it comes by `inject`. */
  readonly ctx?: RunContext;
  client?: HttpClient;
  baseline?: Baseline;
  readonly memos: Map<object, unknown>;
}

const storage = new AsyncLocalStorage<RunScope>();
const outsideAnyRun: RunScope = { memos: new Map() };

export function currentScope(): RunScope {
  return storage.getStore() ?? outsideAnyRun;
}

/** Runs `fn`, and everything it starts, in a new scope for the run of `ctx`. */
export function inRunScope<T>(scope: RunScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/**
 * A value made once per run from its context, on first use: what several checks of a run share (the probes they
 * judge, the validators, the known events), never carried into the next run.
 */
export function perRun<T>(make: (ctx: RunContext) => T): (ctx: RunContext) => T {
  const key = {};
  return (ctx) => {
    const memos = currentScope().memos;
    if (!memos.has(key)) memos.set(key, make(ctx));
    return memos.get(key) as T;
  };
}
