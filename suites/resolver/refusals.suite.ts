// Spec 4.2 and 9: "Paths use numeric application identifiers only. The alphabetic form (for example gtin) is
// not allowed"; "numeric application identifiers only, alphabetic forms are not allowed"; "with the identifiers in
// the order shown". Each malformed path below is built from an identifier the resolver does answer for, so that
// only the malformation can explain a refusal.
import type { RunContext } from "../../src/engine/context.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { type Checks, requirementTest } from "../../src/engine/suite.ts";
import {
  alphabeticNameOf,
  CANONICAL_DL_BASE,
  type DigitalLinkElement,
  formatDigitalLink,
  PATH_FORMS,
  type PathForm,
  parseDigitalLink,
} from "../../src/model/index.ts";
import { requestResolver } from "../../src/target/linkset-answers.ts";
import { linksetUrl } from "../../src/target/resolver.ts";
import { sampledIdentifiers } from "../../src/target/sampled-identifiers.ts";
import { judgeAlphabetic } from "./support/alphabetic.ts";

function firstOf(ctx: RunContext, form: PathForm): DigitalLinkElement[] | undefined {
  const uri = sampledIdentifiers(ctx)[form][0];
  return uri === undefined ? undefined : parseDigitalLink(uri).elements;
}

/** The path of the elements, values percent-encoded as in any Digital Link, AIs written by `name`. */
function pathOf(elements: DigitalLinkElement[], name: (ai: string) => string): string {
  return formatDigitalLink("", elements)
    .split("/")
    .map((segment, i) => (i % 2 === 1 ? name(segment) : segment))
    .join("/");
}

function urlOf(ctx: RunContext, path: string): string {
  return linksetUrl(`${ctx.resolverBase.replace(/\/+$/, "")}${path}`);
}

interface Case {
  label: string;
  url: string;
}

/**
 * Sends each case and records a pass for a 4xx, a fail for anything else (spec 4.2 shows no status); sent at once,
 * recorded in the cases' order, so that a report names the same proof run after run.
 */
async function expectRefusals(checks: Checks, ctx: RunContext, cases: Case[]): Promise<void> {
  const answered = await Promise.all(
    cases.map(async (c) => ({ ...c, ...(await requestResolver(ctx, c.url)) })),
  );
  for (const { label, url, result, exchange, error } of answered) {
    if (result === undefined) {
      checks.fail(`${label} (${url}) got no answer: ${error}`, exchangeEvidence(exchange));
    } else if (result.status >= 400 && result.status <= 499) {
      checks.pass(`${label} refused with ${result.status}`, exchangeEvidence(exchange));
    } else {
      checks.fail(
        `${label} (${url}) was answered ${result.status} instead of being refused with a 4xx`,
        exchangeEvidence(exchange, { expected: "a 4xx refusal", actual: result.status }),
      );
    }
  }
}

requirementTest(
  "RES-NUMERIC-ONLY",
  "Alphabetic AI paths are not answered as numeric ones",
  async (checks, ctx) => {
    const forms = PATH_FORMS.filter((form) => firstOf(ctx, form) !== undefined);
    if (forms.length === 0) return checks.skip("no identifier is known to build an alphabetic path from");
    // Asked at once, recorded in the forms' order, so that a report names the same proof run after run.
    const verdicts = await Promise.all(
      forms.map(async (form) => {
        const elements = firstOf(ctx, form)!;
        const path = pathOf(elements, (ai) => alphabeticNameOf(ai) ?? ai);
        const answer = await requestResolver(ctx, urlOf(ctx, path));
        return judgeAlphabetic(path, formatDigitalLink(CANONICAL_DL_BASE, elements), answer);
      }),
    );
    for (const verdict of verdicts) {
      const evidence = exchangeEvidence(verdict.exchange);
      if (verdict.status === "pass") checks.pass(verdict.note, evidence);
      else if (verdict.status === "warn") {
        checks.warn(verdict.note, { ...evidence, expected: "a 4xx refusal" });
      } else {
        checks.fail(verdict.note, {
          ...evidence,
          expected: "a 4xx refusal (spec 4.2: the alphabetic form is not allowed)",
        });
      }
    }
  },
);

requirementTest("RES-AI-ORDER", "Identifiers in the wrong order are refused", async (checks, ctx) => {
  const cases: Case[] = [];
  for (const form of ["01/10", "01/21"] as const) {
    const elements = firstOf(ctx, form);
    if (elements === undefined) continue;
    const path = pathOf([...elements].reverse(), (ai) => ai);
    cases.push({ label: `the qualifier before the GTIN, ${path}`, url: urlOf(ctx, path) });
  }
  if (cases.length === 0) {
    return checks.skip("no lot or serial identifier (/01/…/10/… or /01/…/21/…) is known to put out of order");
  }
  await expectRefusals(checks, ctx, cases);
});

/** The key with its check digit changed, and with a leading zero that keeps the digit but breaks the length. */
function badKeys(key: string): { what: string; value: string }[] {
  const last = Number(key.slice(-1));
  return [
    { what: "a wrong check digit", value: key.slice(0, -1) + String((last + 1) % 10) },
    { what: `${key.length + 1} digits`, value: `0${key}` },
  ];
}

requirementTest("RES-AI-VALUE", "A bad check digit or length is refused", async (checks, ctx) => {
  const cases: Case[] = [];
  for (const form of ["00", "01", "414", "417"] as const) {
    const key = firstOf(ctx, form)?.[0];
    if (key === undefined) continue;
    for (const bad of badKeys(key.value)) {
      const path = `/${key.ai}/${bad.value}`;
      cases.push({ label: `AI ${key.ai} with ${bad.what}, ${path}`, url: urlOf(ctx, path) });
    }
  }
  if (cases.length === 0) return checks.skip("no SSCC, GTIN, GLN or PGLN is known to alter");
  await expectRefusals(checks, ctx, cases);
});
