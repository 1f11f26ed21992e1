// Spec 1, step 3: the receiver queries for the events and the master data of the products. The locations,
// products and parties that the product's events name resolve through the sender's resolver to master data, as
// far as the sender offers links for them: another company's identifier may be declined with any answer but a
// 2xx (the spec does not show the resolver's status codes), and a location or party may offer only gs1:epcis
// (spec 4.2: "reachable with gs1:masterData or gs1:epcis"). A link the sender does offer must lead to master data
// of the right type. What a requirement judging the link set, the link or the document fails is not failed again.

import { failUnlessExplained } from "../../src/assertions/blockers.ts";
import { hopQuery } from "../../src/assertions/trace-back.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import type { Evidence } from "../../src/engine/types.ts";
import { runOracle } from "../../src/model/index.ts";
import { loadBaseline } from "../../src/target/client.ts";
import { ownership, sender } from "../../src/target/sender.ts";
import { masterDataSubjects } from "../../src/target/subjects.ts";
import { chooseProduct } from "./support/exchanged.ts";
import { masterDataExcuse } from "./support/excuses.ts";
import { resolveMasterData } from "./support/resolve.ts";

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
  const values = sender(ctx);
  const subjects = all.slice(0, MAX_SUBJECTS);
  const steps = await Promise.all(subjects.map((s) => resolveMasterData(ctx, s.id, s.type)));
  let failures = 0;
  let reached = 0;
  let shown: Evidence | undefined;
  const unknown: string[] = [];
  const epcisOnly: string[] = [];
  steps.forEach((step, i) => {
    const s = subjects[i]!;
    if (step.ok) {
      reached += 1;
      shown ??= exchangeEvidence(step.value.exchange, {
        message: `the ${s.role} ${s.id} leads to its ${s.type} master data`,
      });
      return;
    }
    const own = ownership(values, s.id);
    const excuse = masterDataExcuse(s, step, own?.why);
    if (excuse !== undefined) {
      (step.stage === "no-link" ? epcisOnly : unknown).push(excuse);
      return;
    }
    failures += 1;
    const why = own !== undefined && step.stage === "linkset" ? `, although ${own.why}` : "";
    // A link set, link or document the resolver and masterdata classes judge is their failure to report.
    failUnlessExplained(
      checks,
      ctx,
      step.explainedBy ?? [],
      `master data: the ${s.role} ${s.id} does not lead to its ${s.type}: ${step.reason}${why}`,
      { ...step.evidence, seed: ctx.seed },
    );
  });
  if (failures > 0) return;
  const notes = [
    unknown.length > 0
      ? `${unknown.length} identifiers not known to be the sender's were declined, which a sender that resolves only its own may do (${unknown.slice(0, 3).join("; ")}${unknown.length > 3 ? "; …" : ""})`
      : "",
    epcisOnly.length > 0
      ? `${epcisOnly.length} locations or parties offer gs1:epcis without gs1:masterData, as spec 4.2 allows (${epcisOnly.slice(0, 3).join("; ")}${epcisOnly.length > 3 ? "; …" : ""})`
      : "",
  ].filter((n) => n !== "");
  if (reached === 0) {
    checks.skip(
      `master data: none of the ${subjects.length} identifiers the events of ${product.id} name led to master data: ${notes.join("; ")}`,
    );
    return;
  }
  const bounded = all.length > subjects.length ? ` (of the first ${subjects.length} of ${all.length})` : "";
  checks.pass(
    [
      `${product.note}; ${reached} of the ${subjects.length} locations, products and parties its events name${bounded} resolve to master data`,
      ...notes,
    ].join("; "),
    shown,
  );
});
