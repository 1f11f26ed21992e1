// The run's verdict in the words every reader sees: the console's last line and report.html's banner say the same.
import type { Report } from "../engine/types.ts";
import type { ReportDiff } from "./diff.ts";
import { exitCodeFor } from "./exit-code.ts";

export type VerdictWord = "PASS" | "FAIL" | "INCOMPLETE" | "INTERRUPTED";

export interface VerdictText {
  word: VerdictWord;
  exitCode: number;
  /** Why, in a few words: what failed, or why the run is incomplete. */
  because: string;
  /** MUST requirements that failed, and requirements that warn (a failed SHOULD or MAY). */
  mustFailed: number;
  warnings: number;
  regressed: number;
}

/**
 * The verdict a report carries (verdict, exitCode, interrupted, set by the run), else the one its requirements
 * give, as in a report of an older version. A diff (given, or the report's changes) turns a regression into a failure
 * as the exit status does.
 */
export function verdictOf(report: Report, given?: ReportDiff): VerdictText {
  // A report written with --baseline records its diff (changes), so that report.html names the regression too.
  const diff = given ?? report.changes;
  const exitCode = report.exitCode ?? exitCodeFor(report, diff);
  const must = report.requirements.filter((r) => r.level === "MUST");
  const mustFailed = must.filter((r) => r.status === "fail").length;
  const warnings = report.requirements.filter((r) => r.status === "warn").length;
  const regressed = diff?.regressed ? diff.newlyFailing.length : 0;
  const counts = { exitCode, mustFailed, warnings, regressed };
  if (report.interrupted === true || exitCode === 130 || exitCode === 143) {
    return {
      word: "INTERRUPTED",
      because: report.incompleteReason ?? "stopped before it finished",
      ...counts,
    };
  }
  if (exitCode === 1) {
    const causes = [
      ...(mustFailed > 0 ? [`${mustFailed} MUST requirement(s) failed`] : []),
      ...(regressed > 0 ? [`${regressed} requirement(s) regressed against the baseline`] : []),
    ];
    return { word: "FAIL", because: causes.join(" and ") || "the run failed", ...counts };
  }
  if (exitCode !== 0) {
    const errored = must.filter((r) => r.status === "error").length;
    return {
      word: "INCOMPLETE",
      because: report.incompleteReason ?? `${errored} MUST requirement(s) could not be checked`,
      ...counts,
    };
  }
  return { word: "PASS", because: "every applicable MUST requirement passed", ...counts };
}
