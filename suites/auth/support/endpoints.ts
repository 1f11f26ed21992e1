// The endpoints whose key check is put to the test (spec 5). GET /events always, once a key is given; the
// resolver and the master data endpoint only when they refuse a request without the key, since spec 5.6 lets
// them be public. Each is a URL that a valid key makes answerable.

import {
  entryAbout,
  linksetEntries,
  linksOf,
  MASTER_DATA_LINK,
} from "../../../src/harness/assertions/linkset.ts";
import { identifiersOf } from "../../../src/harness/baseline.ts";
import type { RunContext } from "../../../src/harness/context.ts";
import { PATH_FORMS } from "../../../src/harness/identifiers-from-baseline.ts";
import { eventsUrl, loadBaseline } from "../../../src/harness/target.ts";
import type { GetOptions } from "../../../src/http/index.ts";
import { sampledIdentifiers } from "../../resolver/support/identifiers.ts";
import { type HttpRequestOutcome, linksetUrl, requestResolver } from "../../resolver/support/linksets.ts";

export interface AuthEndpoint {
  name: string;
  url: string;
  /** Whether a status means the request got past the key check. */
  accepted(status: number): boolean;
}

export interface EndpointSurvey {
  /** Endpoints that check the key. */
  checked: AuthEndpoint[];
  /** What was found about the others: public, or not judged and why. */
  notes: string[];
}

const is2xx = (status: number) => status >= 200 && status <= 299;
const is4xx = (status: number) => status >= 400 && status <= 499;

/** GET /events for one EPC the target holds: narrow, so a key that is accepted gets a query document. */
export function eventsEndpoint(ctx: RunContext): AuthEndpoint {
  const epc = loadBaseline(ctx).events.flatMap((e) => identifiersOf(e).epcs)[0];
  const url = eventsUrl(ctx, epc === undefined ? {} : { MATCH_anyEPC: [epc] });
  // Without an EPC to narrow by, 413 also shows that the request got past the key check (spec 7).
  return { name: "GET /events", url, accepted: (s) => is2xx(s) || (epc === undefined && s === 413) };
}

export function send(ctx: RunContext, url: string, options: GetOptions): Promise<HttpRequestOutcome> {
  return requestResolver(ctx, url, { accept: "application/ld+json, application/json;q=0.9", ...options });
}

/** Asks with and without the key: an endpoint that answers the first and refuses the second checks keys. */
async function survey(
  ctx: RunContext,
  name: string,
  url: string,
  into: EndpointSurvey,
): Promise<HttpRequestOutcome> {
  const [keyed, bare] = await Promise.all([send(ctx, url, {}), send(ctx, url, { withKey: false })]);
  if (keyed.result === undefined || !is2xx(keyed.result.status)) {
    into.notes.push(
      `${name} was not judged: with the key it answered ${keyed.result?.status ?? keyed.error}`,
    );
  } else if (bare.result !== undefined && is4xx(bare.result.status)) {
    into.checked.push({ name, url, accepted: is2xx });
  } else {
    into.notes.push(`${name} answers without a key (public, allowed by spec 5.6)`);
  }
  return keyed;
}

function masterDataHref(outcome: HttpRequestOutcome, uri: string): string | undefined {
  try {
    const body = outcome.result?.json();
    const entry = entryAbout(body, uri) ?? linksetEntries(body)[0];
    return entry === undefined ? undefined : linksOf(entry, MASTER_DATA_LINK)[0]?.href;
  } catch {
    return undefined;
  }
}

let surveyed: Promise<EndpointSurvey> | undefined;

export function surveyEndpoints(ctx: RunContext): Promise<EndpointSurvey> {
  surveyed ??= (async () => {
    const found: EndpointSurvey = { checked: [eventsEndpoint(ctx)], notes: [] };
    const ids = sampledIdentifiers(ctx);
    // A product, location or party first: its link set carries the masterData link to survey as well.
    const order = ["01", "414", "417", ...PATH_FORMS] as const;
    const form = order.find((f) => ids[f].length > 0);
    const uri = form === undefined ? undefined : ids[form][0];
    if (uri === undefined) {
      found.notes.push("the resolver was not judged: no identifier is known to ask it about");
      return found;
    }
    const keyed = await survey(ctx, `the resolver (${uri})`, linksetUrl(ctx, uri), found);
    const href = masterDataHref(keyed, uri);
    if (href === undefined)
      found.notes.push(`master data was not judged: the link set of ${uri} offers no masterData link`);
    else await survey(ctx, `master data (${href})`, href, found);
    return found;
  })();
  return surveyed;
}

export const NO_KEY_REASON =
  "no API key was given (--api-key or TRACECHECK_API_KEY), so the target is treated as public and the key checks do not apply";
