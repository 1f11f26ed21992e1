// The one object `tracecheck run --json` prints on stdout (CONTRACT.md): what a CI step needs to decide and to
// point at the artefacts, without parsing report.json.
import path from "node:path";
import type { Report, RunVerdict, Summary } from "../engine/types.ts";

export interface JsonSummary {
  verdict: RunVerdict;
  exitCode: number;
  summary: Summary | null;
  /** Ids of the requirements that failed, and of those that could not be decided. */
  failed: string[];
  errored: string[];
  /** With --baseline: ids of the requirements that regressed (were pass, warn or skip; now fail). */
  regressed: string[];
  incompleteReason?: string;
  interrupted?: boolean;
  reports: { json: string; junit: string; html: string } | null;
}

/**
 * The object for a run's outcome. `reason` says why a run that wrote no report stopped (a usage mistake, a
 * report directory that cannot be written); `reportDir` is undefined when the run stopped before it was known.
 */
export function jsonSummary(
  outcome: { exitCode: number; report?: Report; reason?: string },
  reportDir: string | undefined,
): JsonSummary {
  const { report, exitCode } = outcome;
  const verdict: RunVerdict =
    report?.verdict ?? (exitCode === 0 ? "pass" : exitCode === 1 ? "fail" : "incomplete");
  const ids = (status: string) =>
    (report?.requirements ?? []).filter((r) => r.status === status).map((r) => r.id);
  const out: JsonSummary = {
    verdict,
    exitCode,
    summary: report?.summary ?? null,
    failed: ids("fail"),
    errored: ids("error"),
    regressed: (report?.changes?.newlyFailing ?? []).map((c) => c.id),
    // A run stopped before its report directory was found writable has no reports to point at.
    reports:
      report === undefined || reportDir === undefined
        ? null
        : {
            json: path.join(reportDir, "report.json"),
            junit: path.join(reportDir, "junit.xml"),
            html: path.join(reportDir, "report.html"),
          },
  };
  const reason = report?.incompleteReason ?? outcome.reason;
  if (reason !== undefined) out.incompleteReason = reason;
  if (report?.interrupted === true) out.interrupted = true;
  return out;
}
