// Spec 4.2: "gs1:epcis Returns a link to the EPCIS query interface for the requested identifier";
// "gs1:masterData Returns a link that resolves to the GS1 Web Vocabulary JSON-LD for the requested GTIN, GLN
// or PGLN." Each link of the link sets answered is followed as a receiver would (spec 1, steps 2 and 3): an epcis
// link that selects events as it is, one that names the query interface itself queried for the identifier.
import { compareEventSets, describeComparison } from "../../src/harness/assertions/event-sets.ts";
import { EPCIS_LINK } from "../../src/harness/assertions/linkset.ts";
import { selectedAsWritten } from "../../src/harness/assertions/trace-back.ts";
import type { RunContext } from "../../src/harness/context.ts";
import { type Checks, requirementTest } from "../../src/harness/suite.ts";
import { exchangeEvidence, loadBaseline } from "../../src/harness/target.ts";
import { eventIdentity } from "../../src/model/index.ts";
import { mentions, writtenQuery } from "./support/concerns.ts";
import { reachedDocumentProblem, reachedDocuments } from "./support/documents.ts";
import { eventsAt, eventsRequest, mayBeRefusedAsBroad } from "./support/follow.ts";
import { goodLinksets, type LinksetAnswer, linksOfAnswer } from "./support/linksets.ts";

/** What one epcis link showed: a note for the pass, or why it decided nothing. */
type LinkNote = { decided: boolean; note: string };

/** Follows one epcis link: records a failure and answers undefined, or answers a note. */
async function checkEpcisLink(
  checks: Checks,
  ctx: RunContext,
  a: LinksetAnswer,
  href: string,
): Promise<LinkNote | undefined> {
  const baseline = loadBaseline(ctx);
  // The identifier as the target's own events write it: a sender may match EPCs, classes and locations only as
  // written (the spec states form equivalence for bizStep alone).
  const certain = writtenQuery(a.form, a.uri, baseline.events);
  const query = certain?.query;
  const request = eventsRequest(href, query);
  // A query the harness wrote with the canonical form, which none of the target's events writes: a probe.
  const probe = request.queried && certain?.asWritten === false;
  const linked = await eventsAt(ctx, request.url);
  const about = request.queried
    ? `the epcis link of ${a.uri} (${href}, the query interface, asked ${request.url})`
    : `the epcis link of ${a.uri} (${href})`;
  if (linked.kind === "refused") {
    if (mayBeRefusedAsBroad(request))
      return {
        decided: true,
        note: `${about} was refused with 413 as too broad (allowed for ${request.repository ? "the whole repository" : "a query that is not narrow"})`,
      };
    checks.fail(
      `${about} was refused with 413, but a query for one EPC, one lot or one transformation is narrow (EVT-413-NARROW)`,
      exchangeEvidence(linked.exchange, { expected: "a query document with the identifier's events" }),
    );
    return undefined;
  }
  if (linked.kind === "rejected" && probe) {
    return {
      decided: false,
      note: `${about} was refused with ${linked.status}: the query names the identifier in its canonical form, which none of the target's events writes, and a sender may match only as written`,
    };
  }
  if (linked.kind === "rejected" || linked.kind === "broken") {
    const message =
      linked.kind === "rejected" ? `${request.url} answered status ${linked.status}` : linked.message;
    checks.fail(
      `${about} does not answer as a query interface: ${message}`,
      exchangeEvidence(linked.exchange),
    );
    return undefined;
  }
  // A party's link, or one naming the repository with no query to ask it, leads to the sender's repository
  // (spec 1, step 2): any query document will do.
  if (a.form === "417" || request.repository) {
    return { decided: true, note: `${about} answered ${linked.events.length} events of the repository` };
  }
  const unrelated = linked.events.filter((e) => !mentions(e, a.uri));
  if (unrelated.length > 0) {
    checks.fail(
      `${about} answered ${unrelated.length} event(s) that do not mention the identifier`,
      exchangeEvidence(linked.exchange, {
        expected: `events naming ${a.uri}`,
        extra: unrelated.map(eventIdentity).slice(0, 20),
      }),
    );
    return undefined;
  }
  if (query !== undefined) {
    // Only the events that hold the identifier as the query writes it are required: one holding another spelling
    // of it is EVT-EPC-FORMS' and its kin's (SHOULD).
    const expected = selectedAsWritten(baseline.events, query);
    const comparison = compareEventSets(expected, linked.events);
    if (comparison.missing.length > 0) {
      checks.fail(
        `${about} left out events the harness knows hold the identifier as asked: ${describeComparison({ ...comparison, extra: [], duplicated: [] })}`,
        exchangeEvidence(linked.exchange, { expected: query, missing: comparison.missing.slice(0, 20) }),
      );
      return undefined;
    }
  }
  if (probe && linked.events.length === 0) {
    return {
      decided: false,
      note: `${about} answered no event: the query names the identifier in its canonical form, which none of the target's events writes, and a sender may match only as written`,
    };
  }
  return {
    decided: true,
    note: `${about} answered ${linked.events.length} events, all about the identifier`,
  };
}

requirementTest(
  "RES-EPCIS-LINK",
  "The epcis link leads to events about the identifier",
  async (checks, ctx) => {
    const withLink = (await goodLinksets(ctx))
      .map((a) => ({ a, links: linksOfAnswer(a, EPCIS_LINK) }))
      .filter((x) => x.links.length > 0);
    if (withLink.length === 0) return checks.skip("no link set answered offers an epcis link to follow");
    const notes = await Promise.all(
      withLink.flatMap(({ a, links }) => links.map((link) => checkEpcisLink(checks, ctx, a, link.href))),
    );
    const said = notes.filter((n): n is LinkNote => n !== undefined);
    const decided = said.filter((n) => n.decided).map((n) => n.note);
    const undecided = said.filter((n) => !n.decided).map((n) => n.note);
    const few = (list: string[]) =>
      list.slice(0, 6).join("; ") + (list.length > 6 ? `; and ${list.length - 6} more` : "");
    if (decided.length > 0) {
      const partial = loadBaseline(ctx).complete
        ? ""
        : " (the baseline is partial: only events the harness saw were required)";
      const inconclusive = undecided.length > 0 ? `; inconclusive: ${few(undecided)}` : "";
      checks.pass(few(decided) + partial + inconclusive);
    } else if (undecided.length > 0) {
      checks.skip(`every epcis link followed was inconclusive: ${few(undecided)}`);
    }
  },
);

requirementTest(
  "RES-MASTERDATA-LINK",
  "The masterData link leads to master data of the right type",
  async (checks, ctx) => {
    const documents = await reachedDocuments(ctx);
    if (documents.length === 0) {
      return checks.skip("no /01, /414 or /417 link set answered offers a masterData link");
    }
    for (const d of documents) {
      const about = `the masterData link of ${d.uri} (${d.href})`;
      const problem = await reachedDocumentProblem(d);
      if (problem) checks.fail(`${about}: ${problem.message}`, exchangeEvidence(d.exchange, problem));
      else checks.pass();
    }
  },
);
