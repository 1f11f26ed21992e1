// Spec 4.2: "Digital Link identifiers issued under the canonical base are resolved by replacing that base with
// the base of the sender's resolver." The identifiers are taken as the target writes them: the https://id.gs1.org
// Digital Links of its events, and its link-set anchors written under https://id.gs1.org. The canonical base of
// each is replaced by the resolver base, the rest of the URI kept as written (the harness's own requests write it
// in the canonical form), and the answer must be a link set about the same identifier with the same link types
// as the harness's own request for it.

import type { RunContext } from "../../src/engine/context.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import {
  CANONICAL_DL_BASE,
  canonicalId,
  type PathForm,
  parseDigitalLink,
  pathFormOf,
} from "../../src/model/index.ts";
import { entryAbout, linksetEntries, linkTypesOffered } from "../../src/target/linkset.ts";
import {
  canonicalBaseReplaced,
  entryOf,
  goodLinksets,
  type LinksetAnswer,
  requestLinkset,
} from "../../src/target/linkset-answers.ts";
import { linksetUrl } from "../../src/target/resolver.ts";
import { knownEvents } from "../../src/target/sampled-identifiers.ts";
import { identifiersNamedIn } from "../../src/target/sender.ts";

function linkTypesOf(a: LinksetAnswer): string[] {
  const read = entryOf(a);
  return "entry" in read ? linkTypesOffered(read.entry) : [];
}

function formOf(issued: string): PathForm | undefined {
  try {
    return pathFormOf(parseDigitalLink(issued).elements);
  } catch {
    return undefined;
  }
}

/** A Digital Link URI under any base written under https://id.gs1.org, its path kept as written. */
function underCanonicalBase(uri: unknown): string | undefined {
  if (typeof uri !== "string") return undefined;
  try {
    const { base } = parseDigitalLink(uri);
    return uri.startsWith(base) ? CANONICAL_DL_BASE + uri.slice(base.length) : undefined;
  } catch {
    return undefined;
  }
}

interface Issued {
  issued: string;
  where: string;
  direct: LinksetAnswer;
}

/**
 * One identifier per path form that the resolver answered directly, as the target issued it under the canonical
 * base; a spelling other than the harness's canonical one first, since it is the one a resolver may miss.
 */
async function issuedIdentifiers(ctx: RunContext): Promise<Issued[]> {
  const direct = new Map((await goodLinksets(ctx)).map((a) => [a.uri, a]));
  const found = new Map<string, Issued>();
  const consider = (value: unknown, where: string) => {
    if (typeof value !== "string" || !value.startsWith(`${CANONICAL_DL_BASE}/`)) return;
    if (formOf(value) === undefined) return;
    const answer = direct.get(canonicalId(value));
    if (answer === undefined || found.has(value)) return;
    found.set(value, { issued: value, where, direct: answer });
  };
  for (const a of direct.values()) {
    for (const entry of linksetEntries(a.body)) {
      const issued = underCanonicalBase(entry.anchor);
      if (issued !== undefined) consider(issued, `the anchor ${String(entry.anchor)} of its link set`);
    }
  }
  for (const e of knownEvents(ctx)) {
    for (const value of identifiersNamedIn(e)) consider(value, "an event");
  }
  // Per form: one whose direct link set has an entry about it before one without (which RES-ANCHOR fails, and
  // which leaves nothing to compare), then one spelled otherwise than the harness spells it.
  const rank = (c: Issued) => ("entry" in entryOf(c.direct) ? 2 : 0) + (c.issued !== c.direct.uri ? 1 : 0);
  const perForm = new Map<PathForm, Issued>();
  for (const candidate of found.values()) {
    const form = candidate.direct.form;
    const kept = perForm.get(form);
    if (kept === undefined || rank(candidate) > rank(kept)) perForm.set(form, candidate);
  }
  return [...perForm.values()];
}

requirementTest(
  "RES-CANONICAL-BASE",
  "Identifiers under https://id.gs1.org resolve at the sender's base",
  async (checks, ctx) => {
    const issued = await issuedIdentifiers(ctx);
    if (issued.length === 0) {
      return checks.skip(
        "neither the events nor the link-set anchors write an identifier the resolver answers for under https://id.gs1.org, so none was issued there to resolve",
      );
    }
    // Asked at once, recorded in the order the identifiers were found, so that a report names the same proof run
    // after run.
    const verdicts = await Promise.all(
      issued.map(async ({ issued: uri, where, direct }): Promise<() => void> => {
        const read = entryOf(direct);
        if (!("entry" in read)) return () => checks.blocked(read.blocker, read.why);
        const url = linksetUrl(canonicalBaseReplaced(uri, ctx.resolverBase));
        const answer = await requestLinkset(ctx, direct.form, direct.uri, url);
        const about = `${uri} (as ${where} writes it) with the resolver base, ${url},`;
        if (answer.problem !== undefined) {
          const problem = answer.problem;
          return () =>
            checks.fail(
              `${about} was not resolved: ${problem}`,
              exchangeEvidence(answer.exchange, { expected: `the link set ${direct.url} answers` }),
            );
        }
        if (entryAbout(answer.body, direct.uri) === undefined) {
          return () =>
            checks.fail(
              `${about} answered a link set about another identifier`,
              exchangeEvidence(answer.exchange, {
                expected: `an entry anchored at ${direct.uri} under any base`,
              }),
            );
        }
        if (linkTypesOf(answer).join() !== linkTypesOf(direct).join()) {
          return () =>
            checks.fail(
              `${about} answered other link types than ${direct.url}`,
              exchangeEvidence(answer.exchange, {
                expected: linkTypesOf(direct),
                actual: linkTypesOf(answer),
              }),
            );
        }
        return () =>
          checks.pass(
            `${about} resolved to the link set of ${direct.url}` +
              (uri === direct.uri ? "" : ", though spelled otherwise"),
            exchangeEvidence(answer.exchange),
          );
      }),
    );
    for (const record of verdicts) record();
  },
);
