// Spec 4.2: "gs1:epcis Returns a link to the EPCIS query interface for the requested identifier";
// "gs1:masterData Returns a link that resolves to the GS1 Web Vocabulary JSON-LD for the requested GTIN, GLN
// or PGLN." Each link of the link sets answered (every product the events name among them, with some of its lots
// and serials) is followed as a receiver would (spec 1, steps 2 and 3): an epcis link that selects events as it
// is, one that names the query interface itself queried for the identifier. Links are read from the entry about
// the identifier; a link set without one is RES-ANCHOR's (or RES-LINKSET-SHAPE's) failure, and blocks these. A
// wrong answer of the target's own GET /events to a query for the identifier alone, and a master data document
// that is not JSON-LD of a master data type at all, are the failures of the requirements that judge those
// directly (blockers.ts): one defect, one failure.

import { atTargetEvents, explainedAsWritten, failUnlessExplained } from "../../src/assertions/blockers.ts";
import { type EpcisLinkPlan, judgeEpcisLink, planEpcisLink } from "../../src/assertions/epcis-link.ts";
import { jsonLdProblem } from "../../src/assertions/master-data.ts";
import type { RunContext } from "../../src/engine/context.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import type { ExchangeRecord } from "../../src/http/record.ts";
import { loadBaseline } from "../../src/target/client.ts";
import { MASTER_DATA_TYPE_OF, type ReachedDocument, reachedDocuments } from "../../src/target/documents.ts";
import { eventsAt } from "../../src/target/follow.ts";
import { runContextLoader } from "../../src/target/jsonld/index.ts";
import { EPCIS_LINK, linksOf } from "../../src/target/linkset.ts";
import { coverageNote, entryOf, goodLinksets } from "../../src/target/linkset-answers.ts";
import { reachedDocumentProblem } from "./support/documents.ts";

function few(list: readonly string[]): string {
  return list.slice(0, 6).join("; ") + (list.length > 6 ? `; and ${list.length - 6} more` : "");
}

function isUrl(href: string): boolean {
  try {
    new URL(href);
    return true;
  } catch {
    return false;
  }
}

requirementTest(
  "RES-EPCIS-LINK",
  "The epcis link leads to events about the identifier",
  async (checks, ctx) => {
    const baseline = loadBaseline(ctx);
    const plans: EpcisLinkPlan[] = [];
    for (const a of await goodLinksets(ctx)) {
      const read = entryOf(a);
      if (!("entry" in read)) {
        checks.blocked(read.blocker, read.why);
        continue;
      }
      for (const { href } of linksOf(read.entry, EPCIS_LINK)) {
        if (isUrl(href)) plans.push(planEpcisLink(a.form, a.uri, href, baseline.events));
        else checks.blocked("RES-LINKSET-SHAPE", `${a.url}: the epcis href "${href}" is not an absolute URL`);
      }
    }
    if (plans.length === 0) return checks.skip("no link set answered offers an epcis link to follow");
    const outcomes = await Promise.all(
      plans.map(async (plan) => {
        const linked = await eventsAt(ctx, plan.request.url);
        return { plan, outcome: judgeEpcisLink(plan, linked, baseline.events), exchange: linked.exchange };
      }),
    );
    const decided: string[] = [];
    const undecided: string[] = [];
    let proof: ExchangeRecord | undefined;
    for (const { plan, outcome, exchange } of outcomes) {
      if (outcome.kind === "fail") {
        // What GET /events answers wrong is its own requirements' to fail, where the link leads to it.
        const atTarget = atTargetEvents(ctx, plan.request.url);
        const { recheck } = outcome;
        const explainedBy = !atTarget
          ? []
          : recheck === undefined
            ? (outcome.explainedBy ?? [])
            : await explainedAsWritten(ctx, recheck.query, recheck.lacking);
        failUnlessExplained(
          checks,
          ctx,
          explainedBy,
          outcome.reason,
          exchangeEvidence(exchange, outcome.evidence),
        );
      } else if (outcome.kind === "inconclusive") undecided.push(outcome.note);
      else {
        decided.push(outcome.note);
        proof ??= exchange;
      }
    }
    if (decided.length > 0) {
      const partial = baseline.complete
        ? ""
        : " (the baseline is partial: only events the harness saw were required)";
      const inconclusive = undecided.length > 0 ? `; inconclusive: ${few(undecided)}` : "";
      checks.pass(
        `${decided.length} epcis link(s) of ${coverageNote(ctx)} led to the identifier's events: ${few(decided)}${partial}${inconclusive}`,
        exchangeEvidence(proof),
      );
    } else if (undecided.length > 0) {
      checks.skip(`every epcis link followed was inconclusive: ${few(undecided)}`);
    }
  },
);

/**
 * Whether the document reached is no GS1 Web Vocabulary JSON-LD of any master data type, read as MD-JSONLD reads
 * it (suites/masterdata): a defect of the document, which MD-JSONLD fails, whatever the link's type.
 */
async function notMasterData(ctx: RunContext, d: ReachedDocument): Promise<boolean> {
  if (d.doc === undefined) return false;
  try {
    return (await jsonLdProblem(d.doc, { loader: runContextLoader(ctx), base: d.href })) !== undefined;
  } catch {
    // A context that could not be loaded: MD-JSONLD decides nothing of it.
    return false;
  }
}

requirementTest(
  "RES-MASTERDATA-LINK",
  "The masterData link leads to master data of the right type",
  async (checks, ctx) => {
    for (const a of await goodLinksets(ctx)) {
      const read = entryOf(a);
      if (MASTER_DATA_TYPE_OF[a.form] !== undefined && !("entry" in read))
        checks.blocked(read.blocker, read.why);
    }
    // A document reached from an entry about another identifier is the masterdata class's to read, not this.
    const documents = (await reachedDocuments(ctx)).filter((d) => d.aboutIdentifier);
    if (documents.length === 0) {
      return checks.skip("no /01, /414 or /417 link set answered offers a masterData link");
    }
    const passed: string[] = [];
    let proof: ExchangeRecord | undefined;
    for (const d of documents) {
      const about = `the masterData link of ${d.uri} (${d.href})`;
      const problem = await reachedDocumentProblem(d, { loader: runContextLoader(ctx), base: d.href });
      if (problem) {
        const explainedBy = (await notMasterData(ctx, d)) ? ["MD-JSONLD"] : [];
        failUnlessExplained(
          checks,
          ctx,
          explainedBy,
          `${about}: ${problem.message}`,
          exchangeEvidence(d.exchange, problem),
        );
      } else {
        passed.push(d.uri);
        proof ??= d.exchange;
      }
    }
    if (passed.length > 0) {
      checks.pass(
        `${passed.length} masterData link(s) of ${coverageNote(ctx)} led to a document of the identifier's type naming it: ${few(passed)}`,
        exchangeEvidence(proof),
      );
    }
  },
);
