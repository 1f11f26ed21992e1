// Spec 1: the resolver "turns a product, lot, serial, container, location or party identifier into links". With
// --dataset the harness knows what the sender was loaded with; an identifier of that data the resolver answers
// as unknown is counted and warned. Not a failure: a sender may resolve only the identifiers it issued, and a
// loaded dataset names other companies' too (FLOW-MASTERDATA and RES-PATH-* pass over those).

import { answeredUnknown } from "../../src/assertions/path-verdicts.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { PATH_FORMS } from "../../src/model/index.ts";
import { loadBaseline } from "../../src/target/client.ts";
import { identifiersFromBaseline, sampleIdentifiers } from "../../src/target/identifiers.ts";
import { requestLinkset } from "../../src/target/linkset-answers.ts";

/** Identifiers of the dataset asked about per path form. */
const PER_FORM = 8;

requirementTest(
  "FLOW-DATASET-RESOLVES",
  "The identifiers of the loaded dataset resolve",
  async (checks, ctx) => {
    const loaded = loadBaseline(ctx).datasetEvents;
    if (loaded === undefined) {
      return checks.skip(
        "no --dataset was given, so the harness does not know what the sender was loaded with",
      );
    }
    const all = identifiersFromBaseline({ events: loaded });
    const asked = PATH_FORMS.flatMap((form) =>
      sampleIdentifiers(all[form], PER_FORM, ctx.seed).map((uri) => ({ form, uri })),
    );
    if (asked.length === 0)
      return checks.skip("the loaded dataset names no identifier of the six path forms");
    const answers = await Promise.all(asked.map(({ form, uri }) => requestLinkset(ctx, form, uri)));
    const unknown = answers.filter(answeredUnknown);
    if (unknown.length === 0) {
      checks.pass(
        `the resolver knows the ${answers.length} identifiers of the loaded dataset asked about`,
        exchangeEvidence(answers[0]!.exchange, { message: `the link set of ${answers[0]!.uri}` }),
      );
      return;
    }
    const first = unknown[0]!;
    checks.fail(
      `${unknown.length} of the ${answers.length} identifiers of the loaded dataset asked about were answered as unknown (404 or 410): ${unknown
        .slice(0, 5)
        .map((a) => a.uri)
        .join(", ")}${unknown.length > 5 ? ", …" : ""}`,
      exchangeEvidence(first.exchange, {
        expected: "a link set for every identifier the sender was loaded with",
        actual: unknown.map((a) => `${a.uri}: ${a.result?.status}`),
      }),
    );
  },
);
