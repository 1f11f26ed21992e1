// Spec 4.2 and 2.3: "GET /{AI}/{value}… Returns links about …"; "A request for a link set uses the value
// linkset, and the response is the link set of part 2.3." Each of the six path forms is asked about with
// identifiers from the baseline and the setup values, and every link set answered is held to spec 2.3.

import {
  anchorProblem,
  defaultLinkProblem,
  entryAbout,
  linksetEntries,
  linksetShapeProblem,
  linkTypeSpellingProblem,
  missingLinkTypesProblem,
} from "../../src/harness/assertions/linkset.ts";
import type { PathForm } from "../../src/harness/identifiers-from-baseline.ts";
import { runDefinition } from "../../src/harness/run-definition.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { exchangeEvidence } from "../../src/harness/target.ts";
import { ANY_OF_LINK_TYPES, linkTypesFor } from "./support/definition.ts";
import { noIdentifierReason } from "./support/identifiers.ts";
import { goodLinksets, linksetAnswers } from "./support/linksets.ts";
import { judgePathForm } from "./support/verdicts.ts";

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

requirementTest("RES-LINKSET-SHAPE", "The link set has the fields of spec 2.3", async (checks, ctx) => {
  const answers = await goodLinksets(ctx);
  if (answers.length === 0) return checks.skip(NO_LINKSET);
  for (const a of answers) {
    const problem = linksetShapeProblem(a.body);
    if (problem) checks.fail(`${a.url}: ${problem.message}`, exchangeEvidence(a.exchange, problem));
    else checks.pass();
  }
});

requirementTest("RES-ANCHOR", "The anchor is the Digital Link URI asked about", async (checks, ctx) => {
  const answers = await goodLinksets(ctx);
  if (answers.length === 0) return checks.skip(NO_LINKSET);
  for (const a of answers) {
    const problem = anchorProblem(a.body, a.uri);
    if (problem) checks.fail(`${a.url}: ${problem.message}`, exchangeEvidence(a.exchange, problem));
    else checks.pass();
  }
});

requirementTest(
  "RES-LINKTYPES",
  "Each path offers the link types the spec names for it",
  async (checks, ctx) => {
    const answers = await goodLinksets(ctx);
    if (answers.length === 0) return checks.skip(NO_LINKSET);
    const definition = await runDefinition(ctx);
    for (const a of answers) {
      const linkTypes = linkTypesFor(definition, a.form);
      if (linkTypes === undefined) {
        checks.skip(`the definition declares no resolver path /${a.form}, so it names no link types for it`);
        continue;
      }
      const entry = entryAbout(a.body, a.uri) ?? linksetEntries(a.body)[0];
      if (entry === undefined) {
        checks.fail(
          `${a.url}: the link set has no entry`,
          exchangeEvidence(a.exchange, { expected: linkTypes }),
        );
        continue;
      }
      const problem = missingLinkTypesProblem(entry, linkTypes, { anyOf: ANY_OF_LINK_TYPES.has(a.form) });
      if (problem) checks.fail(`${a.url}: ${problem.message}`, exchangeEvidence(a.exchange, problem));
      else checks.pass();
    }
  },
);

requirementTest(
  "RES-LINKTYPE-SPELLING",
  "Link types are written as spec 2.3 writes them",
  async (checks, ctx) => {
    const answers = await goodLinksets(ctx);
    if (answers.length === 0) return checks.skip(NO_LINKSET);
    for (const a of answers) {
      const problem = linkTypeSpellingProblem(a.body);
      if (problem) checks.fail(`${a.url}: ${problem.message}`, exchangeEvidence(a.exchange, problem));
      else checks.pass();
    }
  },
);

requirementTest("RES-DEFAULT-LINK", "Each link-set entry carries a default link", async (checks, ctx) => {
  const answers = await goodLinksets(ctx);
  if (answers.length === 0) return checks.skip(NO_LINKSET);
  for (const a of answers) {
    const problem = defaultLinkProblem(a.body);
    if (problem) checks.fail(`${a.url}: ${problem.message}`, exchangeEvidence(a.exchange, problem));
    else checks.pass();
  }
});
