// How an answer that is not a link set counts against a path form (spec 4.2). The sender's own identifiers (those
// exchanged at setup, and those under its party's company prefix) must resolve. The spec leaves the resolver's
// status codes open ("Not shown: status codes and error bodies of the resolver"), so another company's identifier
// seen in the events may get any answer but a 2xx from a sender that resolves only what it issued: a note, never
// a failure. A 2xx that is not a link set is the sender's claim to resolve it, and is judged.
import type { RunContext } from "../engine/context.ts";
import { exchangeEvidence } from "../engine/evidence.ts";
import type { Checks } from "../engine/suite.ts";
import type { LinksetAnswer } from "../target/linkset-answers.ts";
import { type Ownership, ownership, sender } from "../target/sender.ts";

/** The statuses that say the resolver knows nothing of an identifier (FLOW-DATASET-RESOLVES counts them). */
export const UNKNOWN_STATUSES: ReadonlySet<number> = new Set([404, 410]);

/** The resolver answered that it knows nothing of the identifier asked about. */
export function answeredUnknown(a: LinksetAnswer): boolean {
  return a.result !== undefined && UNKNOWN_STATUSES.has(a.result.status);
}

/** The resolver answered, but not with a 2xx: it declined to resolve the identifier, for whatever reason. */
export function declined(status: number | undefined): boolean {
  return status !== undefined && (status < 200 || status > 299);
}

/**
 * Why an answer that is not a link set is no failure of the sender's: it declined an identifier not known to be
 * its own. Undefined when it is a failure: the identifier is the sender's own, or the answer was a 2xx (or none).
 */
export function pathFormExcuse(a: LinksetAnswer, own: Ownership | undefined): string | undefined {
  if (a.problem === undefined || own !== undefined || !declined(a.result?.status)) return undefined;
  return `${a.uri} answered ${a.result?.status} (not known to be the sender's, so it may not resolve it)`;
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
    const excuse = pathFormExcuse(a, own);
    if (excuse !== undefined) {
      notes.push(excuse);
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
    const shown = good.slice(0, 6).map((a) => a.uri);
    const asked =
      shown.join(", ") + (good.length > shown.length ? ` and ${good.length - shown.length} more` : "");
    const declinedNote =
      notes.length === 0
        ? ""
        : `; ${notes.slice(0, 6).join("; ")}${notes.length > 6 ? `; and ${notes.length - 6} more declined` : ""}`;
    checks.pass(`answered a link set for ${asked}${declinedNote}`, exchangeEvidence(good[0]?.exchange));
  } else if (!failed) {
    const prefix =
      values.partyGiven !== true
        ? "no --party was given, so the party taken from the events is a guess and its identifiers are not known to be the sender's"
        : values.prefix === undefined
          ? "the events write no EPC URN of the sender's party, so its company prefix is unknown"
          : `none is under the company prefix ${values.prefix} of the sender's party`;
    checks.skip(
      `every identifier asked about answered without a link set (not 2xx) and none is known to be the sender's own (${prefix}; pass --party and --gln to name the sender): ${notes.slice(0, 6).join("; ")}${notes.length > 6 ? `; and ${notes.length - 6} more` : ""}`,
    );
  }
}
