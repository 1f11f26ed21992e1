// Spec 1, step 3: the receiver queries for the events and the master data of the products. The locations,
// products and parties that the product's events name resolve through the sender's resolver to master data.
import { hopQuery } from "../../src/harness/assertions/trace-back.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { loadBaseline } from "../../src/harness/target.ts";
import { runOracle } from "../../src/model/index.ts";
import { chooseProduct } from "./support/exchanged.ts";
import { resolveMasterData } from "./support/resolve.ts";
import { masterDataSubjects } from "./support/subjects.ts";

/** Subjects asked about in one run: enough to cover each kind, few enough to keep a run short. */
const MAX_SUBJECTS = 24;

requirementTest("FLOW-MASTERDATA", "The identifiers in events lead to master data", async (checks, ctx) => {
  const baseline = loadBaseline(ctx);
  const product = chooseProduct(ctx, baseline.events);
  if (product === undefined) {
    checks.skip(
      "master data: the harness knows no SSCC, lot or serial of the target's events; pass one with --start-from",
    );
    return;
  }
  // The product's events as the target served them to the baseline, so that this step stands apart from the
  // resolver's epcis link (FLOW-PRODUCT).
  const events = runOracle(baseline.events, hopQuery(product.hop));
  const all = masterDataSubjects(events);
  if (all.length === 0) {
    checks.skip(
      `master data: the ${events.length} events of ${product.id} name no location, product or party`,
    );
    return;
  }
  const subjects = all.slice(0, MAX_SUBJECTS);
  const steps = await Promise.all(subjects.map((s) => resolveMasterData(ctx, s.id, s.type)));
  let failures = 0;
  steps.forEach((step, i) => {
    const s = subjects[i]!;
    if (step.ok) return;
    failures += 1;
    checks.fail(`master data: the ${s.role} ${s.id} does not lead to its ${s.type}: ${step.reason}`, {
      ...step.evidence,
      seed: ctx.seed,
    });
  });
  if (failures === 0) {
    const bounded = all.length > subjects.length ? ` (the first ${subjects.length} of ${all.length})` : "";
    checks.pass(
      `${product.note}; the ${subjects.length} locations, products and parties its events name${bounded} resolve to master data`,
    );
  }
});
