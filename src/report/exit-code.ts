import type { Report } from "../engine/types.ts";
import type { ReportDiff } from "./diff.ts";

/**
 * The exit status CONTRACT.md fixes: 1 when a MUST requirement failed or the run regressed against a baseline,
 * 2 when a MUST requirement could not be checked and none failed, 0 otherwise (a SHOULD is reported as warn).
 */
export function exitCodeFor(report: Report, diff?: ReportDiff): 0 | 1 | 2 {
  const must = report.requirements.filter((r) => r.level === "MUST");
  if (must.some((r) => r.status === "fail") || diff?.regressed === true) return 1;
  if (must.some((r) => r.status === "error")) return 2;
  return 0;
}
