// What a case of the events suite gives back, and what every check of a run shares: the run context, the known
// events and the answers read so far.
import type { RunContext } from "../../../src/engine/context.ts";
import { perRun } from "../../../src/engine/run-scope.ts";
import type { Evidence } from "../../../src/engine/types.ts";
import { type Answer, AnswerCache } from "./answers.ts";
import { type Known, knownEvents } from "./known.ts";

export type CaseResult =
  /**
   * The case held; `proof` gives the exchange that decides it (made only for the case a pass is proven by), so
   * that the pass carries its own deciding exchange and never one another check happened to make.
   */
  | { status: "ok"; proof?: () => Evidence }
  | { status: "inconclusive"; reason: string }
  | { status: "fail"; reason: string; evidence: Evidence }
  /** The case could not be decided for a reason that is no verdict on the sender (429 after every retry). */
  | { status: "error"; reason: string; evidence: Evidence };

/** What every check of a run shares: the run context, the known events and the answers read so far. */
export interface SuiteEnv {
  ctx: RunContext;
  known: Known;
  answers: AnswerCache;
}

/** The answers read so far in a run, by URL, whichever check asked. */
const runAnswers = perRun((): Map<string, Promise<Answer>> => new Map());

/** What a check shares with the others of its run, from the run's context (run-scope.ts). */
export function suiteEnv(ctx: RunContext): SuiteEnv {
  return { ctx, known: knownEvents(ctx), answers: new AnswerCache(ctx, runAnswers(ctx)) };
}
