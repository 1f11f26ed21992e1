// What the suites keep for one run: the client and every memo a check shares with the others of its run (the
// baseline among them), held by the run's context object. The suites run in the harness's process (engine.ts),
// where one process may run tracecheck many times, and at once (a proving worker, the project's tests): each run
// hands its checks a context object of its own, so each sees only its own scope. Each check sees its run's context
// through a view of its own (checkContext), which tells the check of the exchanges its requests make.
import type { HttpClient } from "../http/index.ts";
import type { ExchangeRecord } from "../http/record.ts";
import type { RunContext } from "./context.ts";

export interface RunScope {
  /** Apart from the memos: the run's end closes it, if a check made it (engine.ts). */
  client?: HttpClient;
  readonly memos: Map<object, unknown>;
}

const scopes = new WeakMap<RunContext, RunScope>();
/** A check's view of a run's context, to the run's context itself and what gives the check its exchanges. */
const views = new WeakMap<RunContext, { run: RunContext; note: (exchange: ExchangeRecord) => void }>();

/** The scope of the run whose context this is (or whose check's view this is), made on first use. */
export function scopeOf(ctx: RunContext): RunScope {
  const run = views.get(ctx)?.run ?? ctx;
  let scope = scopes.get(run);
  if (scope === undefined) {
    scope = { memos: new Map() };
    scopes.set(run, scope);
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

/** What one check's requests left: the last exchange that got an answer, for a pass that carries no proof. */
export interface CheckExchanges {
  lastAnswered?: ExchangeRecord;
}

/**
 * The run's context as one check sees it: every field read through to the run's, the same scope, and `record` told
 * of the answered exchanges that requests made with this view make (target.ts). The checks of a run go several at a
 * time (engine.ts), so an exchange belongs to the check whose context asked for it. The view is passed down
 * explicitly rather than found from the asynchronous context: tracking that costs every promise of the run.
 */
export function checkContext(ctx: RunContext, record: CheckExchanges): RunContext {
  const view = Object.create(ctx) as RunContext;
  const note = (exchange: ExchangeRecord) => {
    if (exchange.response !== undefined) record.lastAnswered = exchange;
  };
  views.set(view, { run: views.get(ctx)?.run ?? ctx, note });
  return view;
}

/** What gives an exchange to the check whose view `ctx` is; undefined for a context that is no check's view. */
export function exchangeNoter(ctx: RunContext): ((exchange: ExchangeRecord) => void) | undefined {
  return views.get(ctx)?.note;
}
