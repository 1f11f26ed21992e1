// Spec 1: from a product's events a receiver traces back, querying only GET /events, through aggregations
// (parentID, childEPCs) and transformation inputs (inputEPCList, inputQuantityList) to the events that
// commissioned the inputs. The target's walk must reach every event the same walk reaches over the oracle, each
// hop asked with the identifier as the events write it and expecting only the events that hold it so (a sender
// may match an EPC or class only as written). The oracle's walk makes no query the target's did not: a hop the
// target refuses with 413 is inconclusive, and one its walk, cut at its bound, never made is not judged.
// A hop answered wrong, refused or broken is a defect of GET /events, which its own requirements judge: the walk's
// failure names those of the filters its failed hops used, and stands only where none of them failed.

import { answerExplainedBy, failUnlessExplained } from "../../src/assertions/blockers.ts";
import {
  type AskHop,
  alongWalk,
  type Hop,
  hopQuery,
  selectedAsWritten,
  traceBack,
  traceProblem,
} from "../../src/assertions/trace-back.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import type { ExchangeRecord } from "../../src/http/record.ts";
import { loadBaseline } from "../../src/target/client.ts";
import { exchangeOf, queryEvents } from "../../src/target/events.ts";
import { chooseProduct } from "./support/exchanged.ts";
import { type AskedHop, walkExplainedBy } from "./support/walk.ts";

/** Queries one trace may make: a bound on a large repository, far above what a chain of the embedded data needs. */
const MAX_HOPS = 150;

requirementTest("FLOW-TRACEBACK", "Trace-back reaches the first events", async (checks, ctx) => {
  const baseline = loadBaseline(ctx);
  const product = chooseProduct(ctx, baseline.events);
  if (product === undefined) {
    checks.skip(
      "trace-back: the harness knows no SSCC, lot or serial of the target's events; pass one with --start-from",
    );
    return;
  }
  // The answer to the first hop, the product's own events, where the walk starts: a pass's evidence.
  let start: ExchangeRecord | undefined;
  // Every hop asked, with the requirements that explain a failed answer: what a failed walk is traced back to. The
  // walk asks a level's hops at once; they are kept in the order it asked them, not the order their answers came
  // back, so that a failed walk names the same blocker run after run.
  const asked: Promise<AskedHop>[] = [];
  const answerHop = async (hop: Hop): Promise<AskedHop> => {
    const answer = await queryEvents(ctx, hopQuery(hop));
    switch (answer.kind) {
      case "events":
        if (hop === product.hop) start = exchangeOf(answer);
        return { hop, answer: { kind: "events", events: answer.events } };
      case "refused":
        // Inconclusive beyond this hop: whether a one-identifier query may be refused is EVT-413-NARROW's.
        return { hop, answer: { kind: "refused", evidence: exchangeEvidence(answer.result.exchange) } };
      case "rejected":
      case "throttled":
        return {
          hop,
          answer: {
            kind: "failed",
            reason: `refused with ${answer.result.status}`,
            evidence: exchangeEvidence(answer.result.exchange),
          },
          // A query for one identifier refused is its filter's; a 429 still standing is left undecided (suite.ts).
          failedBy: answer.kind === "rejected" ? answerExplainedBy(hopQuery(hop)) : [],
        };
      case "broken":
        return {
          hop,
          answer: { kind: "failed", reason: answer.message, evidence: exchangeEvidence(answer.exchange) },
          // A 5xx or a body that is no query document, to a query for one identifier, is as much its filter's as
          // a refusal is: the walk is blocked where that filter's own check failed, and fails where none did.
          failedBy: answer.paging === undefined ? answerExplainedBy(hopQuery(hop)) : ["EVT-PAGING"],
        };
    }
  };
  const ask: AskHop = async (hop) => {
    const answered = answerHop(hop);
    asked.push(answered);
    return (await answered).answer;
  };
  const oracle: AskHop = async (hop) => ({
    kind: "events",
    events: selectedAsWritten(baseline.events, hopQuery(hop)),
  });
  const actual = await traceBack([product.hop], ask, MAX_HOPS);
  // Only what lies behind the target's own queries is expected of it: not behind a hop it refused with 413 (spec
  // 7: inconclusive), nor behind one its walk, cut at the bound, never made (alongWalk). The oracle's walk makes
  // no query the target's did not, so it needs no bound of its own.
  const expected = await traceBack([product.hop], alongWalk(oracle, actual), Number.POSITIVE_INFINITY);
  const problem = traceProblem(actual, expected);
  if (problem !== undefined) {
    failUnlessExplained(
      checks,
      ctx,
      walkExplainedBy(await Promise.all(asked), baseline.events),
      `trace-back from ${product.id}: ${problem.message}`,
      { ...problem, seed: ctx.seed },
    );
    return;
  }
  const refused = [...actual.refused.values()].map(({ hop }) => `${hop.parameter}=${hop.value}`);
  if (actual.reached.size === 0) {
    checks.skip(
      refused.length > 0
        ? `trace-back from ${product.id} is inconclusive: the query for it was refused with 413 (${refused.join(", ")})`
        : `trace-back: the harness knows no event of ${product.id} to start from`,
    );
    return;
  }
  const notes = [
    `${product.note}; ${actual.hops} queries reached ${actual.reached.size} events, ${actual.firstEvents.length} of them first events`,
    actual.firstEvents.length === 0
      ? "the sender's events hold no commissioning upstream of the product"
      : "",
    actual.bounded
      ? `the walk stopped at its bound of ${MAX_HOPS} queries; what lies behind the queries it did not make is not judged`
      : "",
    refused.length > 0
      ? `${refused.length} queries were refused with 413 and the walk went on without them, so what lies behind them is inconclusive (${refused.slice(0, 3).join(", ")}${refused.length > 3 ? ", …" : ""})`
      : "",
    baseline.complete ? "" : `the harness knows only part of the target's events (${baseline.note})`,
  ];
  checks.pass(
    notes.filter((n) => n !== "").join("; "),
    exchangeEvidence(start, {
      message: `the trace-back's first query, for ${product.id}`,
      actual: { reached: actual.reached.size, firstEvents: actual.firstEvents.length, queries: actual.hops },
    }),
  );
});
