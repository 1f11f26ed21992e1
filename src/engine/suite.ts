// What a suite file uses: the run context, and `requirementTest`, which declares a check by its requirement id.
// The harness runs the declared checks itself (engine.ts) and collects the verdicts each returns.
import type { RunContext } from "./context.ts";
import type { Evidence } from "./types.ts";
import { blockedReason, type CheckVerdict } from "./verdicts.ts";

/** A check a suite file declared, as the harness's runner takes it (engine.ts). */
export interface DeclaredCheck {
  readonly id: string;
  /** The id and title, as the check is named in errors. */
  readonly name: string;
  readonly timeoutMs?: number;
  /** Runs the check for the run of `ctx`; `sink` receives its verdicts as they are recorded. */
  run(sink: CheckVerdict[], ctx: RunContext): Promise<void>;
}

let declaring: DeclaredCheck[] | undefined;

/**
 * Loads a suite file with `load` and returns the checks it declares. Loads must not overlap: the caller runs them
 * one at a time, since a file declares its checks while it is evaluated.
 */
export async function declaredBy(load: () => Promise<unknown>): Promise<DeclaredCheck[]> {
  const checks: DeclaredCheck[] = [];
  declaring = checks;
  try {
    await load();
  } finally {
    declaring = undefined;
  }
  return checks;
}

/** Records verdicts for one requirement; several calls accumulate, the worst decides (verdicts.ts). */
export interface Checks {
  readonly id: string;
  /** A pass may carry the exchange that shows it, so that a report can prove it as well as a failure. */
  pass(note?: string, evidence?: Evidence): void;
  fail(reason: string, evidence?: Evidence): void;
  warn(reason: string, evidence?: Evidence): void;
  skip(reason: string): void;
  /**
   * Skips a case this check cannot judge because requirement `byId` failed on what it needs ("blocked by BYID,
   * which failed: why"): one defect, one failure. Given several ids (the requirements any one of which explains
   * what the check met), the block names the first of them that failed. Where none failed in the same run, the
   * skip is an error.
   */
  blocked(byId: string | readonly string[], why: string): void;
  /**
   * A finding that requirement `byId` (or any one of several) may explain: blocked by the one that failed in the
   * same run, else a failure of this requirement with `reason` and `evidence`, as `fail` records it. For a check
   * that meets, through another requirement's feature, what that requirement judges directly (an epcis link's
   * answer that a broken filter explains): one defect, one failure, and a defect the other's check missed still
   * fails here rather than leaving the run undecided.
   */
  failUnlessBlocked(byId: string | readonly string[], reason: string, evidence?: Evidence): void;
  error(reason: string, evidence?: Evidence): void;
  /** Records a verdict for another requirement from the same exchange (one request can serve several rules). */
  for(id: string): Checks;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Why a failure or warning cannot stand, or undefined when it can. A verdict against the sender must rest on an
 * answer it gave: a request to the target that got no answer or only part of one (a timeout, a reset, more than
 * the harness reads of one answer) or an answer asking to be asked later (429, or 503 with Retry-After, still
 * standing after the run's retry budget) decides nothing about conformance. A link the sender handed out that
 * leads to another origin where nothing answers is the sender's doing, so with `targetOrigins` given, a missing
 * answer decides only off those origins.
 */
export function undecidedBy(
  evidence: Evidence | undefined,
  targetOrigins?: readonly string[],
): string | undefined {
  if (evidence?.request === undefined) return undefined;
  const response = evidence.response;
  if (response === undefined) {
    const origin = originOf(evidence.request.url);
    const onTarget = targetOrigins === undefined || (origin !== undefined && targetOrigins.includes(origin));
    return onTarget ? "the request got no answer from the target" : undefined;
  }
  if (response.truncated && response.readStopped !== true)
    return "the answer was cut short (a timeout, a reset or the harness's body cap)";
  if (response.status === 429) return "the target kept answering 429 Too Many Requests";
  if (response.status === 503 && response.headers["retry-after"] !== undefined) {
    return "the target kept answering 503 with Retry-After";
  }
  if (evidence.keyWithheld === true && (response.status === 401 || response.status === 403)) {
    const origin = originOf(evidence.request.url) ?? evidence.request.url;
    return `the request was refused with ${response.status}, but it went to ${origin} without the key, since that is not an origin of the target (add it with --allow-origin)`;
  }
  return undefined;
}

export function makeChecks(id: string, sink: CheckVerdict[], targetOrigins?: readonly string[]): Checks {
  const add = (given: CheckVerdict["status"], givenReason?: string, evidence?: Evidence) => {
    let status = given;
    let reason = givenReason;
    const undecided =
      status === "fail" || status === "warn" ? undecidedBy(evidence, targetOrigins) : undefined;
    if (undecided !== undefined) {
      status = "error";
      reason = `not decided: ${undecided}${givenReason === undefined ? "" : ` (${givenReason})`}`;
    }
    const v: CheckVerdict = { id, status };
    if (reason !== undefined) v.reason = reason;
    if (evidence !== undefined) v.evidence = evidence;
    sink.push(v);
  };
  return {
    id,
    pass: (note, evidence) => add("pass", note, evidence),
    fail: (reason, evidence) => add("fail", reason, evidence),
    warn: (reason, evidence) => add("warn", reason, evidence),
    skip: (reason) => add("skip", reason),
    blocked: (byId, why) => {
      const named = typeof byId === "string" ? byId : byId.join(" or ");
      sink.push({ id, status: "skip", reason: blockedReason(named, why), why, blockedBy: byId });
    },
    failUnlessBlocked: (byId, reason, evidence) => {
      // A finding the answer cannot decide is undecided whatever explains it.
      if (undecidedBy(evidence, targetOrigins) !== undefined) return add("fail", reason, evidence);
      const named = typeof byId === "string" ? byId : byId.join(" or ");
      const v: CheckVerdict = {
        id,
        status: "skip",
        reason: blockedReason(named, reason),
        why: reason,
        blockedBy: byId,
      };
      v.otherwise = "fail";
      if (evidence !== undefined) v.evidence = evidence;
      sink.push(v);
    },
    error: (reason, evidence) => add("error", reason, evidence),
    for: (other) => makeChecks(other, sink, targetOrigins),
  };
}

function targetOriginsOf(ctx: RunContext): string[] {
  return [ctx.eventsBase, ctx.resolverBase].flatMap((base) => originOf(base) ?? []);
}

/** Runs one check, with its verdicts in `sink`: what requirementTest declares. */
async function runCheck(
  id: string,
  fn: (checks: Checks, ctx: RunContext) => Promise<void> | void,
  sink: CheckVerdict[],
  ctx: RunContext,
): Promise<void> {
  const checks = makeChecks(id, sink, targetOriginsOf(ctx));
  try {
    await fn(checks, ctx);
    if (!sink.some((v) => v.id === id)) checks.error("the check finished without a verdict");
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const evidence = (err as { evidence?: Evidence }).evidence;
    checks.error(`check could not finish: ${message}`, evidence);
  }
}

/**
 * Declares a check of requirement `id`. An exception thrown by `fn` is an `error` verdict with its message: a
 * harness fault or a target so broken the check could not finish, never a silent pass.
 */
export function requirementTest(
  id: string,
  title: string,
  fn: (checks: Checks, ctx: RunContext) => Promise<void> | void,
  timeoutMs?: number,
): void {
  const name = `${id} ${title}`;
  if (declaring === undefined) throw new Error(`${name}: a suite file was loaded outside a tracecheck run`);
  declaring.push({
    id,
    name,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    run: (sink, ctx) => runCheck(id, fn, sink, ctx),
  });
}
