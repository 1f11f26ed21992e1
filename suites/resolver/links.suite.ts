// Spec 4.2: "gs1:epcis Returns a link to the EPCIS query interface for the requested identifier";
// "gs1:masterData Returns a link that resolves to the GS1 Web Vocabulary JSON-LD for the requested GTIN, GLN
// or PGLN." Each link of the link sets answered is followed as a receiver would (spec 1, steps 2 and 3): an epcis
// link that selects events as it is, one that names the query interface itself queried for the identifier.
import { compareEventSets, describeComparison } from "../../src/harness/assertions/event-sets.ts";
import { EPCIS_LINK } from "../../src/harness/assertions/linkset.ts";
import { identifierProblem, masterDataTypeProblem } from "../../src/harness/assertions/master-data.ts";
import type { RunContext } from "../../src/harness/context.ts";
import type { PathForm } from "../../src/harness/identifiers-from-baseline.ts";
import { type Checks, requirementTest } from "../../src/harness/suite.ts";
import { exchangeEvidence, loadBaseline } from "../../src/harness/target.ts";
import { eventIdentity, runOracle } from "../../src/model/index.ts";
import { certainQuery, mentions } from "./support/concerns.ts";
import { reachedDocuments } from "./support/documents.ts";
import { eventsAt, eventsRequest } from "./support/follow.ts";
import { goodLinksets, type LinksetAnswer, linksOfAnswer } from "./support/linksets.ts";

// A query for one EPC or one class is narrow (EVT-413-NARROW); a location or a whole repository may not be.
const MAY_BE_BROAD = new Set<PathForm>(["414", "417"]);

/** Follows one epcis link: records a failure and answers undefined, or answers a note for the pass. */
async function checkEpcisLink(
  checks: Checks,
  ctx: RunContext,
  a: LinksetAnswer,
  href: string,
): Promise<string | undefined> {
  const query = certainQuery(a.form, a.uri);
  const request = eventsRequest(href, query);
  const linked = await eventsAt(ctx, request.url);
  const about = request.queried
    ? `the epcis link of ${a.uri} (${href}, the query interface, asked ${request.url})`
    : `the epcis link of ${a.uri} (${href})`;
  if (linked.kind === "refused") {
    if (MAY_BE_BROAD.has(a.form) || request.repository)
      return `${about} was refused with 413 as too broad (allowed for ${request.repository ? "the whole repository" : `a /${a.form} link`})`;
    checks.fail(
      `${about} was refused with 413, but a query for one identifier is narrow`,
      exchangeEvidence(linked.exchange, { expected: "a query document with the identifier's events" }),
    );
    return undefined;
  }
  if (linked.kind === "broken") {
    checks.fail(
      `${about} does not answer as a query interface: ${linked.message}`,
      exchangeEvidence(linked.exchange),
    );
    return undefined;
  }
  // A party's link, or one naming the repository with no query to ask it, leads to the sender's repository
  // (spec 1, step 2): any query document will do.
  if (a.form === "417" || request.repository) {
    return `${about} answered ${linked.events.length} events of the repository`;
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
    const baseline = loadBaseline(ctx);
    const expected = runOracle(baseline.events, query);
    const comparison = compareEventSets(expected, linked.events);
    if (comparison.missing.length > 0) {
      checks.fail(
        `${about} left out events the harness knows name the identifier: ${describeComparison({ ...comparison, extra: [], duplicated: [] })}`,
        exchangeEvidence(linked.exchange, { expected: query, missing: comparison.missing.slice(0, 20) }),
      );
      return undefined;
    }
  }
  return `${about} answered ${linked.events.length} events, all about the identifier`;
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
    const said = notes.filter((n): n is string => n !== undefined);
    if (said.length > 0) {
      const partial = loadBaseline(ctx).complete
        ? ""
        : " (the baseline is partial: only events the harness saw were required)";
      checks.pass(
        said.slice(0, 6).join("; ") + (said.length > 6 ? `; and ${said.length - 6} more` : "") + partial,
      );
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
      const problem =
        d.problem !== undefined
          ? { message: d.problem, expected: d.expected }
          : ((await masterDataTypeProblem(d.doc, d.expected)) ?? (await identifierProblem(d.doc, d.uri)));
      if (problem) checks.fail(`${about}: ${problem.message}`, exchangeEvidence(d.exchange, problem));
      else checks.pass();
    }
  },
);
