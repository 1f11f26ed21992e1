// Spec 1, steps 2 and 3: the receiver formats a product identifier as a Digital Link URI, sends it to the
// sender's resolver, and follows the epcis link of the link set to the product's events. A step that fails on
// what a requirement of the resolver or of GET /events judges directly (the path's link set, its link types,
// where the epcis link leads, the filter the query uses) is that requirement's failure, not failed again here.

import {
  answerExplainedBy,
  atTargetEvents,
  explainedAsWritten,
  failUnlessExplained,
  queryOf,
  selectsIdentifierAlone,
} from "../../src/assertions/blockers.ts";
import { interfaceOwes } from "../../src/assertions/epcis-link.ts";
import { compareEventSets, describeComparison } from "../../src/assertions/event-sets.ts";
import { declined } from "../../src/assertions/path-verdicts.ts";
import { hopQuery, selectedAsWritten } from "../../src/assertions/trace-back.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { eventIdentity } from "../../src/model/index.ts";
import { loadBaseline } from "../../src/target/client.ts";
import { eventsAt, eventsRequest, type LinkedEvents } from "../../src/target/follow.ts";
import { EPCIS_LINK } from "../../src/target/linkset.ts";
import { ownership, sender } from "../../src/target/sender.ts";
import { chooseProduct } from "./support/exchanged.ts";
import { linkOf, resolveLinkset } from "./support/resolve.ts";

/** Why a GET /events URL yielded no events: its status or what broke, and whether the key was withheld from it. */
function noEvents(url: string, answer: Exclude<LinkedEvents, { kind: "events" }>): string {
  const why = answer.kind === "broken" ? answer.message : `${url} answered ${answer.status}`;
  return answer.withheld === undefined ? why : `${why}; ${answer.withheld}`;
}

requirementTest(
  "FLOW-PRODUCT",
  "A product id resolves and its epcis link yields its events",
  async (checks, ctx) => {
    const baseline = loadBaseline(ctx);
    const product = chooseProduct(ctx, baseline.events);
    if (product === undefined) {
      checks.skip(
        "product: the harness knows no SSCC, lot or serial of the target's events; pass one with --start-from",
      );
      return;
    }
    const resolved = await resolveLinkset(ctx, product.id);
    const own = ownership(sender(ctx), product.id);
    if (!resolved.ok && own === undefined && declined(resolved.status)) {
      checks.skip(
        `product: ${product.id} answered ${resolved.status}, and it is not known to be the sender's own, so the sender may not resolve it (spec: the resolver's status codes are not shown); pass a product of the sender's with --start-from, or the sender's party with --party`,
      );
      return;
    }
    if (!resolved.ok) {
      const why = own === undefined ? "" : `, although ${own.why}`;
      failUnlessExplained(
        checks,
        ctx,
        resolved.explainedBy ?? [],
        `product: ${product.id} does not resolve: ${resolved.reason}${why}`,
        { ...resolved.evidence, seed: ctx.seed },
      );
      return;
    }
    const link = linkOf(resolved.value, EPCIS_LINK);
    if (!link.ok) {
      failUnlessExplained(checks, ctx, link.explainedBy ?? [], `product: ${link.reason}`, {
        ...link.evidence,
        seed: ctx.seed,
      });
      return;
    }
    const query = hopQuery(product.hop);
    const request = eventsRequest(link.value.href, query);
    const answer = await eventsAt(ctx, request.url);
    const status = answer.kind === "events" ? undefined : answer.status;
    // Where the epcis link leads is RES-EPCIS-LINK's; a wrong answer of the target's own GET /events to a query for
    // the product alone, that of the requirements of the filter it uses (what RES-EPCIS-LINK is blocked by).
    const asked = queryOf(request.url);
    const ofInterface = atTargetEvents(ctx, request.url) && selectsIdentifierAlone(asked, product.id);
    const explainedBy = (lacking?: Parameters<typeof answerExplainedBy>[1]) => [
      "RES-EPCIS-LINK",
      ...(ofInterface ? answerExplainedBy(asked, lacking) : []),
    ];
    // The harness asked the query interface with the product in a spelling none of the target's events writes:
    // a sender that matches identifiers only as written may refuse it or answer nothing.
    const probe = request.queried && !product.written;
    const probeNote = `the query ${request.url} names ${product.hop.value}, a spelling none of the target's events writes, and a sender may match identifiers only as written`;
    if (probe && status !== undefined && status >= 400 && status < 500) {
      checks.skip(`product: ${probeNote}; it answered ${status}, so the product's events are inconclusive`);
      return;
    }
    if (status === 413) {
      checks.skip(
        `product: the query ${request.url} from the epcis link of ${product.id} was refused with 413, so the product's events are inconclusive (whether a query for one identifier may be refused is EVT-413-NARROW's)`,
      );
      return;
    }
    if (answer.kind !== "events") {
      // Pages that break off, go round or never end are EVT-PAGING's.
      const paging = answer.kind === "broken" && answer.paging === true;
      failUnlessExplained(
        checks,
        ctx,
        [...explainedBy(), ...(paging ? ["EVT-PAGING"] : [])],
        `product: the epcis link ${link.value.href} does not yield events: ${noEvents(request.url, answer)}`,
        {
          ...exchangeEvidence(answer.exchange, paging ? {} : { expected: "an EPCISQueryDocument" }),
          seed: ctx.seed,
        },
      );
      return;
    }
    // The events that hold the product as the query writes it; another spelling selecting them too is
    // EVT-EPC-FORMS' and its kin's (SHOULD).
    const expected = selectedAsWritten(baseline.events, query);
    const comparison = compareEventSets(expected, answer.events);
    const evidence = exchangeEvidence(answer.exchange, {
      expected: { events: expected.length, query },
      actual: { events: answer.events.length },
    });
    if (comparison.missing.length > 0) {
      const missing = new Set(comparison.missing);
      const lacking = expected.filter((e) => missing.has(eventIdentity(e)));
      // Where the link spells the product otherwise than the lacking events, GET /events is asked as they write it.
      const explained =
        !ofInterface || interfaceOwes(asked, lacking, baseline.events)
          ? explainedBy(lacking)
          : ["RES-EPCIS-LINK", ...(await explainedAsWritten(ctx, query, lacking))];
      failUnlessExplained(
        checks,
        ctx,
        explained,
        `product: the events the epcis link of ${product.id} yields lack some of the product's events: ${describeComparison({ ...comparison, extra: [], duplicated: [] })}`,
        { ...evidence, missing: comparison.missing, seed: ctx.seed },
      );
      return;
    }
    if (answer.events.length === 0 && probe) {
      checks.skip(`product: ${probeNote}; it answered no event, so the product's events are inconclusive`);
      return;
    }
    if (answer.events.length === 0) {
      // The harness knows no event the query selects as written: nothing the query interface left out.
      failUnlessExplained(
        checks,
        ctx,
        ["RES-EPCIS-LINK"],
        `product: the epcis link of ${product.id} yields no event`,
        { ...evidence, seed: ctx.seed },
      );
      return;
    }
    const notes = [
      `${product.note}; its epcis link yields its ${expected.length} events`,
      request.queried
        ? "the link names the repository, which was queried for the product (spec 1, step 3)"
        : "",
      comparison.extra.length > 0 ? `${comparison.extra.length} further events came with them` : "",
      baseline.complete ? "" : `the harness knows only part of the target's events (${baseline.note})`,
    ];
    checks.pass(notes.filter((n) => n !== "").join("; "), evidence);
  },
);
