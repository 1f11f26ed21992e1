// How an answer that is not a link set counts against a path form (spec 4.2). Identifiers exchanged at setup
// are the sender's own and must resolve; one only seen in events may belong to a partner the sender does not
// resolve for, so its 404 is a note as long as the form resolves for another identifier.
import type { RunContext } from "../../../src/harness/context.ts";
import type { Checks } from "../../../src/harness/suite.ts";
import { exchangeEvidence } from "../../../src/harness/target.ts";
import { isSetupIdentifier } from "./identifiers.ts";
import type { LinksetAnswer } from "./linksets.ts";

const UNKNOWN_STATUSES = new Set([404, 410]);

/** Records the verdict of one path form from the answers for its identifiers. */
export function judgePathForm(checks: Checks, ctx: RunContext, answers: readonly LinksetAnswer[]): void {
  const good = answers.filter((a) => a.problem === undefined);
  const notes: string[] = [];
  for (const a of answers) {
    if (a.problem === undefined) continue;
    const unknown = a.result !== undefined && UNKNOWN_STATUSES.has(a.result.status);
    if (unknown && good.length > 0 && !isSetupIdentifier(ctx, a.uri)) {
      notes.push(`${a.uri} answered ${a.result?.status} (an identifier the sender may not resolve)`);
      continue;
    }
    const why =
      unknown && isSetupIdentifier(ctx, a.uri)
        ? `${a.problem}, although it was exchanged at setup`
        : a.problem;
    checks.fail(
      `${a.url}: ${why}`,
      exchangeEvidence(a.exchange, { message: why, expected: "a 2xx link set (spec 2.3)" }),
    );
  }
  if (good.length > 0) {
    const asked = good.map((a) => a.uri).join(", ");
    checks.pass(`answered a link set for ${asked}` + (notes.length > 0 ? `; ${notes.join("; ")}` : ""));
  }
}
