// What the suites keep for one run: the client and every memo a check shares with the others of its run (the
// baseline among them), held by the run's context object. The suites run in the harness's process (engine.ts),
// where one process may run tracecheck many times, and at once (a proving worker, the project's tests): each run
// hands its checks a context object of its own, so each sees only its own scope. A check is given its run's context
// itself: it proves a pass with the exchange that decides it (suite.ts), so nothing needs to know which check made
// a request.
import type { HttpClient } from "../http/index.ts";
import type { RunContext } from "./context.ts";

export interface RunScope {
  /** Apart from the memos: the run's end closes it, if a check made it (engine.ts). */
  client?: HttpClient;
  readonly memos: Map<object, unknown>;
}

const scopes = new WeakMap<RunContext, RunScope>();

/** The scope of the run whose context this is, made on first use. */
export function scopeOf(ctx: RunContext): RunScope {
  let scope = scopes.get(ctx);
  if (scope === undefined) {
    scope = { memos: new Map() };
    scopes.set(ctx, scope);
  }
  return scope;
}

/**
 * A value made once per run from its context, on first use: what several checks of a run share (the probes they
 * judge, the validators, the known events), never carried into the next run.
 */
export function perRun<T>(make: (ctx: RunContext) => T): (ctx: RunContext) => T {
  const key = {};
  return (ctx) => {
    const memos = scopeOf(ctx).memos;
    if (!memos.has(key)) memos.set(key, make(ctx));
    return memos.get(key) as T;
  };
}
