// Verdicts of the receiver class, collected in-process: a receiver is judged on what it sent, after the recording
// has ended, so the checks are plain functions over the recorded requests rather than vitest tests. They record
// into the same CheckVerdict list the suites fill, and the same aggregate and reports turn it into a verdict.
import type { Evidence } from "../../src/harness/types.ts";
import { blockedReason, type CheckVerdict } from "../../src/harness/verdicts.ts";

/** Records verdicts for one requirement; several calls accumulate and the worst decides (aggregate). */
export interface ReceiverChecks {
  readonly id: string;
  pass(note?: string, evidence?: Evidence): void;
  fail(reason: string, evidence?: Evidence): void;
  warn(reason: string, evidence?: Evidence): void;
  skip(reason: string): void;
  /**
   * Skips what this check cannot judge because requirement `byId` failed on what it needs: one defect, one
   * failure. Aggregating makes it an error where `byId` did not fail.
   */
  blocked(byId: string, why: string): void;
  /** The checks of another requirement, recording into the same list. */
  for(id: string): ReceiverChecks;
}

/** A list of verdicts and the checks that fill it. */
export class VerdictSink {
  readonly verdicts: CheckVerdict[] = [];

  for(id: string): ReceiverChecks {
    const add = (status: CheckVerdict["status"], reason?: string, evidence?: Evidence) => {
      const v: CheckVerdict = { id, status };
      if (reason !== undefined) v.reason = reason;
      if (evidence !== undefined) v.evidence = evidence;
      this.verdicts.push(v);
    };
    return {
      id,
      pass: (note, evidence) => add("pass", note, evidence),
      fail: (reason, evidence) => add("fail", reason, evidence),
      warn: (reason, evidence) => add("warn", reason, evidence),
      skip: (reason) => add("skip", reason),
      blocked: (byId, why) => {
        add("skip", blockedReason(byId, why));
        this.verdicts.at(-1)!.blockedBy = byId;
      },
      for: (other) => this.for(other),
    };
  }
}
