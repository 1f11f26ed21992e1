// Verdicts as suites record them, and how a requirement's status follows from its checks.
import type { Evidence, Level, Requirement, RequirementResult, Status } from "./types.ts";

export interface CheckVerdict {
  id: string;
  status: Status;
  reason?: string;
  evidence?: Evidence;
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
  const mine = checks.filter((c) => c.id === req.id);
  let status: Status = mine.length === 0 ? (options.noCheckStatus ?? "skip") : "pass";
  let reason: string | undefined = mine.length === 0 ? noCheckReason : undefined;
  const evidence: Evidence[] = [];
  const sawPass = mine.some((c) => c.status === "pass");
  for (const c of mine) {
    const s = statusAtLevel(c.status, level);
    if (s === "skip" && sawPass) continue;
    if (RANK[s] > RANK[status] || (status === "pass" && s === "skip")) {
      status = s;
      reason = c.reason;
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
  // A pass carries the exchange that proves it, when its checks recorded one.
  if (status === "pass") {
    const proof = mine.find((c) => c.status === "pass" && c.evidence !== undefined)?.evidence;
    if (proof !== undefined) result.evidence = [proof];
  }
  return result;
}
