// What a shared assertion returns when its rule is broken: one sentence for the report line and the evidence
// behind it (ARCHITECTURE.md "Evidence or it did not happen"). A rule that holds gives `undefined`.
import type { Evidence } from "../engine/types.ts";

export interface Failure {
  reason: string;
  evidence: Evidence;
}
