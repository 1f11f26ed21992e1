// How an answer that is not a link set counts against a path form (spec 4.2). The sender's own identifiers (those
// exchanged at setup, and those under its party's company prefix) must resolve. Another company's identifier seen
// in the events may get a 404 or 410 from a sender that resolves only what it issued: a note, never a failure.
import type { RunContext } from "../../../src/harness/context.ts";
import type { Checks } from "../../../src/harness/suite.ts";
import { exchangeEvidence } from "../../../src/harness/target.ts";
import type { LinksetAnswer } from "./linksets.ts";
import { ownership, sender } from "./sender.ts";

export const UNKNOWN_STATUSES: ReadonlySet<number> = new Set([404, 410]);

/** The resolver answered that it knows nothing of the identifier asked about. */
export function answeredUnknown(a: LinksetAnswer): boolean {
  return a.result !== undefined && UNKNOWN_STATUSES.has(a.result.status);
}

/** Records the verdict of one path form from the answers for its identifiers. */
export function judgePathForm(checks: Checks, ctx: RunContext, answers: readonly LinksetAnswer[]): void {
  const values = sender(ctx);
  const good = answers.filter((a) => a.problem === undefined);
  const notes: string[] = [];
  let failed = false;
  for (const a of answers) {
    if (a.problem === undefined) continue;
    const own = ownership(values, a.uri);
    if (answeredUnknown(a) && own === undefined) {
      notes.push(
        `${a.uri} answered ${a.result?.status} (not known to be the sender's, so it may not resolve it)`,
      );
      continue;
    }
    const why = own === undefined ? a.problem : `${a.problem}, although ${own.why}`;
    failed = true;
    checks.fail(
      `${a.url}: ${why}`,
      exchangeEvidence(a.exchange, { message: why, expected: "a 2xx link set (spec 2.3)" }),
    );
  }
  if (good.length > 0) {
    const asked = good.map((a) => a.uri).join(", ");
    checks.pass(`answered a link set for ${asked}` + (notes.length > 0 ? `; ${notes.join("; ")}` : ""));
  } else if (!failed) {
    const prefix =
      values.prefix === undefined
        ? "the events write no EPC URN of the sender's party, so its company prefix is unknown"
        : `none is under the company prefix ${values.prefix} of the sender's party`;
    checks.skip(
      `every identifier asked about answered 404 or 410 and none is known to be the sender's own (${prefix}; pass --party and --gln to name the sender): ${notes.join("; ")}`,
    );
  }
}
