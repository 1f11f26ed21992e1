// Spec 4.2: "Digital Link identifiers issued under the canonical base are resolved by replacing that base
// with the base of the sender's resolver." An identifier the resolver answers for is taken as issued
// (https://id.gs1.org/…, query string included), rebased the way the model does it, and must resolve to a link
// set about the same identifier with the same link types as the path asked directly.
import { entryAbout, linksetEntries } from "../../src/harness/assertions/linkset.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { exchangeEvidence } from "../../src/harness/target.ts";
import { rebaseDigitalLink } from "../../src/model/index.ts";
import { goodLinksets, type LinksetAnswer, requestLinkset } from "./support/linksets.ts";

function linkTypesOf(a: LinksetAnswer): string[] {
  const entry = entryAbout(a.body, a.uri) ?? linksetEntries(a.body)[0] ?? {};
  return Object.keys(entry)
    .filter((k) => k !== "anchor" && k !== "itemDescription")
    .sort();
}

requirementTest(
  "RES-CANONICAL-BASE",
  "Identifiers under https://id.gs1.org resolve at the sender's base",
  async (checks, ctx) => {
    const direct = await goodLinksets(ctx);
    const firstPerForm = direct.filter((a, i) => direct.findIndex((b) => b.form === a.form) === i);
    if (firstPerForm.length === 0)
      return checks.skip("no identifier was answered with a link set to issue anew");
    await Promise.all(
      firstPerForm.map(async (asked) => {
        const issued = `${asked.uri}?linkType=linkset`;
        const url = rebaseDigitalLink(issued, ctx.resolverBase);
        const answer = await requestLinkset(ctx, asked.form, asked.uri, url);
        const about = `${issued} rebased to ${url}`;
        if (answer.problem !== undefined) {
          checks.fail(
            `${about}: ${answer.problem}`,
            exchangeEvidence(answer.exchange, { expected: "a link set" }),
          );
        } else if (entryAbout(answer.body, asked.uri) === undefined) {
          checks.fail(
            `${about} answered a link set about another identifier`,
            exchangeEvidence(answer.exchange, {
              expected: `an entry anchored at ${asked.uri} or its rebased form`,
            }),
          );
        } else if (linkTypesOf(answer).join() !== linkTypesOf(asked).join()) {
          checks.fail(
            `${about} answered other link types than the path asked directly`,
            exchangeEvidence(answer.exchange, { expected: linkTypesOf(asked), actual: linkTypesOf(answer) }),
          );
        } else {
          checks.pass(`${about} resolved`);
        }
      }),
    );
  },
);
