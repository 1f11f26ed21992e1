// Spec 4.2 and 2.3: "GET /{AI}/{value}… Returns links about …"; "A request for a link set uses the value
// linkset, and the response is the link set of part 2.3." Each of the six path forms is asked about with
// identifiers from the baseline and the setup values (every product the events name among them, with some of its
// lots and serials), and every link set answered is held to spec 2.3. A rule about the entry of the identifier
// asked about judges only that entry: a link set without one fails RES-ANCHOR once, and blocks the rest.

import {
  anchorProblem,
  defaultLinkProblem,
  linksetShapeProblem,
  linkTypeSpellingProblem,
  missingLinkTypesProblem,
} from "../../src/assertions/linkset.ts";
import { judgePathForm } from "../../src/assertions/path-verdicts.ts";
import type { RunContext } from "../../src/engine/context.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { runDefinition } from "../../src/engine/run-definition.ts";
import { type Checks, requirementTest } from "../../src/engine/suite.ts";
import type { Evidence } from "../../src/engine/types.ts";
import type { PathForm } from "../../src/model/index.ts";
import {
  coverageNote,
  entryOf,
  goodLinksets,
  type LinksetAnswer,
  linksetAnswers,
} from "../../src/target/linkset-answers.ts";
import { noIdentifierReason } from "../../src/target/sampled-identifiers.ts";
import { ANY_OF_LINK_TYPES, linkTypesFor } from "./support/definition.ts";

const PATH_REQUIREMENTS: [PathForm, string, string][] = [
  ["00", "RES-PATH-SSCC", "/00/{sscc} answers with a link set"],
  ["417", "RES-PATH-PGLN", "/417/{pgln} answers with a link set"],
  ["414", "RES-PATH-GLN", "/414/{gln} answers with a link set"],
  ["01", "RES-PATH-GTIN", "/01/{gtin} answers with a link set"],
  ["01/10", "RES-PATH-GTIN-LOT", "/01/{gtin}/10/{lot} answers with a link set"],
  ["01/21", "RES-PATH-GTIN-SERIAL", "/01/{gtin}/21/{serial} answers with a link set"],
];

const NO_LINKSET = "no identifier was answered with a link set, so there is none to inspect";

for (const [form, id, title] of PATH_REQUIREMENTS) {
  requirementTest(id, title, async (checks, ctx) => {
    const answers = (await linksetAnswers(ctx)).get(form) ?? [];
    if (answers.length === 0) return checks.skip(noIdentifierReason(form));
    judgePathForm(checks, ctx, answers);
  });
}

/** What a rule says of one link set: a problem, a block, a reason it does not apply, or nothing (it holds). */
type Judged = Evidence | { blocker: string; why: string } | { skip: string } | undefined;

/**
 * Judges every link set answered by `judge`: a failure per link set that breaks the rule, a block where another
 * requirement's failure leaves nothing to judge, and one pass, proven by the first link set that holds, for the rest.
 */
async function judgeLinksets(
  checks: Checks,
  ctx: RunContext,
  judge: (a: LinksetAnswer) => Judged | Promise<Judged>,
): Promise<void> {
  const answers = await goodLinksets(ctx);
  if (answers.length === 0) return checks.skip(NO_LINKSET);
  const held: LinksetAnswer[] = [];
  const skipped = new Set<string>();
  for (const a of answers) {
    const judged = await judge(a);
    if (judged === undefined) held.push(a);
    else if ("skip" in judged) skipped.add(judged.skip);
    else if ("blocker" in judged) checks.blocked(judged.blocker, judged.why);
    else checks.fail(`${a.url}: ${judged.message}`, exchangeEvidence(a.exchange, judged));
  }
  for (const reason of skipped) checks.skip(reason);
  const first = held[0];
  if (first !== undefined) {
    checks.pass(
      `${held.length} of the ${answers.length} link sets of ${coverageNote(ctx)} hold it, ${first.url} first`,
      exchangeEvidence(first.exchange),
    );
  }
}

requirementTest("RES-LINKSET-SHAPE", "The link set has the fields of spec 2.3", (checks, ctx) =>
  judgeLinksets(checks, ctx, (a) => linksetShapeProblem(a.body)),
);

requirementTest("RES-ANCHOR", "The anchor is the Digital Link URI asked about", (checks, ctx) =>
  judgeLinksets(checks, ctx, (a) => {
    // Without an array of entries there is no anchor to read: RES-LINKSET-SHAPE's failure.
    const read = entryOf(a);
    if ("blocker" in read && read.blocker === "RES-LINKSET-SHAPE") return read;
    return anchorProblem(a.body, a.uri);
  }),
);

requirementTest(
  "RES-LINKTYPES",
  "Each path offers the link types the spec names for it",
  async (checks, ctx) => {
    const definition = await runDefinition(ctx);
    await judgeLinksets(checks, ctx, (a) => {
      const linkTypes = linkTypesFor(definition, a.form);
      if (linkTypes === undefined) {
        return {
          skip: `the definition declares no resolver path /${a.form}, so it names no link types for it`,
        };
      }
      const read = entryOf(a);
      if (!("entry" in read)) return read;
      return missingLinkTypesProblem(read.entry, linkTypes, { anyOf: ANY_OF_LINK_TYPES.has(a.form) });
    });
  },
);

requirementTest("RES-LINKTYPE-SPELLING", "Link types are written as spec 2.3 writes them", (checks, ctx) =>
  judgeLinksets(checks, ctx, (a) => linkTypeSpellingProblem(a.body)),
);

requirementTest("RES-DEFAULT-LINK", "Each link-set entry carries a default link", (checks, ctx) =>
  judgeLinksets(checks, ctx, (a) => defaultLinkProblem(a.body)),
);
