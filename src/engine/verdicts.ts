// Verdicts as suites record them, and how a requirement's status follows from its checks.
import type { Evidence, Level, Requirement, RequirementResult, Status } from "./types.ts";

export interface CheckVerdict {
  id: string;
  status: Status;
  reason?: string;
  evidence?: Evidence;
  /**
   * Set on a skip recorded by `checks.blocked`: the requirement whose failure took away what this check needed, or
   * the requirements any one of which could have (an answer a wrong filter or wrong paging may explain). The block
   * stands only where one of them failed in the same run (aggregate), and then names that one.
   */
  blockedBy?: string | readonly string[];
  /** Of a blocked check: the finding in its own words, which the aggregate's reason follows with. */
  why?: string;
  /**
   * What a blocked check is where none of its blockers failed (checks.failUnlessBlocked): a failure of its own,
   * with its evidence. Without it, such a block is an error of the harness.
   */
  otherwise?: "fail";
}

/**
 * The reason of a check blocked by another requirement's failure (TEAM Engine and TestNG report a test whose
 * prerequisite failed as skipped, naming it): one defect, one failure.
 */
export function blockedReason(byId: string, why: string): string {
  return `blocked by ${byId}, which failed: ${why}`;
}

/** Said of a block whose requirements were not checked in the run at all. */
function unchecked(count: number): string {
  return count === 1 ? " (it was not checked in this run)" : " (none of them was checked in this run)";
}

/** The requirements a block names, as a list. */
function blockers(by: string | readonly string[]): readonly string[] {
  return typeof by === "string" ? [by] : by;
}

/** Whether `id` failed among a run's verdicts: a check of it recorded a failure (before its level weighs it). */
function failedIn(checks: readonly CheckVerdict[], id: string): boolean {
  return checks.some((c) => c.id === id && c.status === "fail");
}

/**
 * A blocked check as the run's verdicts bear it out: a skip where a blocker failed at MUST, so that the run fails
 * by that one; else its own failure (checks.failUnlessBlocked) or an error, so that a dependency named wrongly, or
 * one whose failure is only a SHOULD's warning, is never a silent pass (nor a skip that hides a defect).
 */
function borneOut(
  c: CheckVerdict,
  checks: readonly CheckVerdict[],
  levelOf: (id: string) => Level | undefined,
): CheckVerdict {
  if (c.blockedBy === undefined) return c;
  const named = blockers(c.blockedBy);
  const why = c.why ?? c.reason ?? "";
  const failedIds = named.filter((id) => failedIn(checks, id));
  const failed = failedIds.find((id) => (levelOf(id) ?? "MUST") === "MUST");
  if (failed !== undefined) return { ...c, reason: blockedReason(failed, why), blockedBy: failed };
  if (c.otherwise === "fail") {
    const own: CheckVerdict = { id: c.id, status: "fail", reason: why };
    if (c.evidence !== undefined) own.evidence = c.evidence;
    return own;
  }
  const checked = named.some((id) => checks.some((v) => v.id === id));
  const which =
    failedIds.length > 0
      ? `${failedIds.join(" or ")}, which only warned (not a MUST)`
      : named.length === 1
        ? `${named[0]}, which did not fail`
        : `${named.join(" or ")}, none of which failed`;
  return {
    id: c.id,
    status: "error",
    reason: `blocked by ${which}${checked ? "" : unchecked(named.length)}: ${why}`,
  };
}

const RANK: Record<Status, number> = { pass: 0, skip: 1, warn: 2, error: 3, fail: 4 };

/** What a failed check means at a requirement's level: only MUST text fails a vendor (ARCHITECTURE.md). */
export function statusAtLevel(status: Status, level: Level): Status {
  return status === "fail" && level !== "MUST" ? "warn" : status;
}

/** What shapes a requirement's verdict beyond its checks. */
export interface AggregateOptions {
  /** The user passed `--definition FILE`: requirements with a `definitionLevel` are judged at that level. */
  definitionGiven?: boolean;
  /** The status of a requirement no check recorded a verdict for (default skip, with noCheckReason). */
  noCheckStatus?: "skip" | "error";
  /**
   * How many exchanges a pass carries at most (default one): a receiver's pass is often decided by two requests
   * together (the link set that named an href, and the request that asked it), so it shows several.
   */
  proofs?: number;
  /**
   * The level each requirement of the run is judged at (effectiveLevel), by id: a block stands only on a MUST that
   * failed. Without it, every blocker counts as a MUST.
   */
  levelOf?: (id: string) => Level | undefined;
}

/**
 * The level a requirement is judged at: its `definitionLevel` when the user checks a definition of their own, else
 * its `level`.
 */
export function effectiveLevel(req: Requirement, definitionGiven: boolean): Level {
  return definitionGiven && req.definitionLevel !== undefined ? req.definitionLevel : req.level;
}

/**
 * A requirement's status is the worst of its checks. A requirement whose checks were all skipped is skipped; one
 * with no checks at all is skipped with the reason given.
 */
export function aggregate(
  req: Requirement,
  checks: readonly CheckVerdict[],
  noCheckReason: string,
  options: AggregateOptions = {},
): RequirementResult {
  const level = effectiveLevel(req, options.definitionGiven ?? false);
  const levelOf = options.levelOf ?? (() => undefined);
  const mine = checks.filter((c) => c.id === req.id).map((c) => borneOut(c, checks, levelOf));
  let status: Status = mine.length === 0 ? (options.noCheckStatus ?? "skip") : "pass";
  let reason: string | undefined = mine.length === 0 ? noCheckReason : undefined;
  const evidence: Evidence[] = [];
  const sawPass = mine.some((c) => c.status === "pass");
  // The requirement whose failure the status comes from, when it is a blocked skip (CONTRACT.md's blockedBy).
  let blocker: string | undefined;
  for (const c of mine) {
    const s = statusAtLevel(c.status, level);
    // A skip beside passes is a case that did not apply; a blocked one is a case that could not be judged, so the
    // requirement cannot pass on the others.
    const blocks = s === "skip" && c.blockedBy !== undefined;
    if (s === "skip" && sawPass && !blocks) continue;
    if (
      RANK[s] > RANK[status] ||
      (status === "pass" && s === "skip") ||
      (status === "skip" && blocks && blocker === undefined)
    ) {
      status = s;
      reason = c.reason;
      // borneOut leaves a standing block naming the one blocker that failed.
      blocker = blocks ? String(c.blockedBy) : undefined;
    }
    if (c.evidence && s !== "pass" && s !== "skip") evidence.push(c.evidence);
  }
  const result: RequirementResult = {
    id: req.id,
    level,
    class: req.class,
    section: req.section,
    title: req.title,
    spec: req.spec,
    status,
    checks: mine.length,
    evidence: evidence.slice(0, 20),
  };
  if (reason !== undefined) result.reason = reason;
  if (status === "skip" && blocker !== undefined) result.blockedBy = blocker;
  // A pass carries the exchanges that prove it, when its checks recorded them, in the order recorded, and the note
  // of its first check that wrote one (what was covered, what was inconclusive).
  if (status === "pass") {
    const proofs = mine.flatMap((c) => (c.status === "pass" && c.evidence !== undefined ? [c.evidence] : []));
    if (proofs.length > 0) result.evidence = proofs.slice(0, options.proofs ?? 1);
    const note = mine.find((c) => c.status === "pass" && c.reason !== undefined && c.reason !== "")?.reason;
    if (note !== undefined) result.reason = note;
  }
  return result;
}
