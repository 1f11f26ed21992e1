// The endpoints whose key check is put to the test (spec 5), each asked once with the valid key and once without
// any. GET /events always, once a key is given: whether it needs the key is the sender's choice (spec 5.6, 5.7),
// and the checks follow what it answered. The resolver and master data only when they refuse a request without
// the key, since spec 5.6 names a resolver sharing trade-item information as a case that needs none.

import {
  type Access,
  type AuthVerdict,
  accessOf,
  type Probe,
  type ProbedEndpoint,
} from "../../../src/assertions/auth.ts";
import type { RunContext } from "../../../src/engine/context.ts";
import { exchangeEvidence } from "../../../src/engine/evidence.ts";
import { perRun } from "../../../src/engine/run-scope.ts";
import type { Checks } from "../../../src/engine/suite.ts";
import type { GetOptions } from "../../../src/http/options.ts";
import { PATH_FORMS } from "../../../src/model/index.ts";
import { identifiersOf } from "../../../src/target/baseline.ts";
import { eventsUrl, loadBaseline } from "../../../src/target/client.ts";
import { entryToFollow, linksOf, MASTER_DATA_LINK } from "../../../src/target/linkset.ts";
import { identifierLinksetUrl, type ResolverRequest, requestResolver } from "../../../src/target/resolver.ts";
import { sampledIdentifiers } from "../../../src/target/sampled-identifiers.ts";

export interface AuthEndpoint extends ProbedEndpoint {
  url: string;
  access: Access;
}

export interface EndpointSurvey {
  /** GET /events, whatever it answered. */
  events: AuthEndpoint;
  /** The endpoints that answer the valid key and refuse a request without it: GET /events among them if it does. */
  guarded: AuthEndpoint[];
  /** What was found about the resolver and master data when they were not put among the guarded. */
  notes: string[];
}

const is2xx = (status: number) => status >= 200 && status <= 299;

export function send(ctx: RunContext, url: string, options: GetOptions): Promise<ResolverRequest> {
  return requestResolver(ctx, url, { accept: "application/ld+json, application/json;q=0.9", ...options });
}

/** A request's outcome as the assertions read it. */
export function probeOf(outcome: ResolverRequest): Probe {
  const probe: Probe = { evidence: exchangeEvidence(outcome.exchange) };
  if (outcome.result !== undefined) probe.status = outcome.result.status;
  if (outcome.error !== undefined) probe.error = outcome.error;
  return probe;
}

export async function sendProbe(ctx: RunContext, url: string, options: GetOptions): Promise<Probe> {
  return probeOf(await send(ctx, url, options));
}

/** GET /events for one EPC the target holds: narrow, so that an answered request gets a query document. */
export function eventsRequest(ctx: RunContext): { url: string; accepted(status: number): boolean } {
  const epc = loadBaseline(ctx).events.flatMap((e) => identifiersOf(e).epcs)[0];
  const url = eventsUrl(ctx, epc === undefined ? {} : { MATCH_anyEPC: [epc] });
  // A 413 also shows that the request got past the key check (spec 7): the query was judged, not the key. That a
  // query for one EPC may not be refused is EVT-413-NARROW's to say.
  return { url, accepted: (s) => is2xx(s) || s === 413 };
}

async function probe(
  ctx: RunContext,
  name: string,
  url: string,
  accepted: (status: number) => boolean,
): Promise<AuthEndpoint & { keyed: ResolverRequest }> {
  const [keyed, bare] = await Promise.all([send(ctx, url, {}), send(ctx, url, { withKey: false })]);
  const probed: ProbedEndpoint = { name, accepted, withKey: probeOf(keyed), withoutKey: probeOf(bare) };
  return { ...probed, url, access: accessOf(probed), keyed };
}

function masterDataHref(outcome: ResolverRequest, uri: string): string | undefined {
  try {
    const body = outcome.result?.json();
    const entry = entryToFollow(body, uri);
    return entry === undefined ? undefined : linksOf(entry, MASTER_DATA_LINK)[0]?.href;
  } catch {
    return undefined;
  }
}

/** Puts a resolver or master data endpoint among the guarded when it refuses a request without the key. */
function sortOther(found: EndpointSurvey, endpoint: AuthEndpoint): void {
  if (endpoint.access.kind === "guarded") found.guarded.push(endpoint);
  else if (endpoint.access.kind === "open")
    found.notes.push(`${endpoint.name} answers without a key (public, allowed by spec 5.6)`);
  else found.notes.push(`${endpoint.name} was not judged: ${endpoint.access.reason}`);
}

/** Asks every endpoint once with and once without the key; the checks of the class read the answers. */
export const surveyEndpoints = perRun(async (ctx: RunContext): Promise<EndpointSurvey> => {
  const request = eventsRequest(ctx);
  const ids = sampledIdentifiers(ctx);
  // A product, location or party first: its link set carries the masterData link to survey as well.
  const order = ["01", "414", "417", ...PATH_FORMS] as const;
  const form = order.find((f) => ids[f].length > 0);
  const uri = form === undefined ? undefined : ids[form][0];
  // GET /events and the resolver are asked at once: neither request depends on the other's answer.
  const [events, resolver] = await Promise.all([
    probe(ctx, "GET /events", request.url, request.accepted),
    uri === undefined
      ? undefined
      : probe(ctx, `the resolver (${uri})`, identifierLinksetUrl(ctx.resolverBase, uri), is2xx),
  ]);
  const found: EndpointSurvey = {
    events,
    guarded: events.access.kind === "guarded" ? [events] : [],
    notes: [],
  };
  if (uri === undefined || resolver === undefined) {
    found.notes.push("the resolver was not judged: no identifier is known to ask it about");
    return found;
  }
  sortOther(found, resolver);
  const href = masterDataHref(resolver.keyed, uri);
  if (href === undefined)
    found.notes.push(`master data was not judged: the link set of ${uri} offers no masterData link`);
  else sortOther(found, await probe(ctx, `master data (${href})`, href, is2xx));
  return found;
});

/** Records a verdict of the assertions as a check. */
export function record(checks: Checks, verdict: AuthVerdict): void {
  const { reason, evidence } = verdict;
  if (verdict.status === "pass") checks.pass(reason, evidence);
  else if (verdict.status === "fail") checks.fail(reason, evidence);
  else if (verdict.status === "error") checks.error(reason, evidence);
  else checks.skip(reason);
}

export const NO_KEY_REASON =
  "no API key was given (--api-key or TRACECHECK_API_KEY), so the target is treated as public and the key checks do not apply";
