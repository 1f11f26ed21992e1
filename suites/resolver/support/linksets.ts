// Asking the resolver for link sets (spec 4.2: linkType=linkset) and telling an answer that is a link set from
// one that is not. Every answer keeps its exchange, so that any verdict built on it carries the evidence.
import {
  entryAbout,
  type LinkObject,
  linksetEntries,
  linksOf,
} from "../../../src/harness/assertions/linkset.ts";
import type { RunContext } from "../../../src/harness/context.ts";
import { PATH_FORMS, type PathForm } from "../../../src/harness/identifiers-from-baseline.ts";
import { targetClient } from "../../../src/harness/target.ts";
import type { ExchangeRecord } from "../../../src/harness/types.ts";
import { type GetOptions, HttpError, type HttpResult } from "../../../src/http/index.ts";
import { CANONICAL_DL_BASE, rebaseDigitalLink } from "../../../src/model/index.ts";
import { sampledIdentifiers } from "./identifiers.ts";

export const LINKSET_ACCEPT = "application/linkset+json, application/json;q=0.9";

export interface LinksetAnswer {
  form: PathForm;
  /** The identifier asked about, canonical (https://id.gs1.org). */
  uri: string;
  url: string;
  result?: HttpResult;
  /** The parsed body of a 2xx JSON answer. */
  body?: unknown;
  /** Why the answer is not a link set; undefined when it is one. */
  problem?: string;
  exchange?: ExchangeRecord;
}

/** The URL of an identifier's link set at the sender's resolver: the canonical base replaced (spec 4.2). */
export function linksetUrl(ctx: RunContext, uri: string): string {
  return rebaseDigitalLink(`${uri}?linkType=linkset`, ctx.resolverBase);
}

/**
 * Spec 4.2's replacement, as a string operation: the resolver base in place of https://id.gs1.org, the rest of
 * the URI kept exactly as it was issued (unlike linksetUrl, which writes the identifier in the canonical form).
 */
export function canonicalBaseReplaced(issued: string, resolverBase: string): string {
  if (!issued.startsWith(`${CANONICAL_DL_BASE}/`)) {
    throw new Error(`${issued} is not issued under ${CANONICAL_DL_BASE}`);
  }
  return `${resolverBase.replace(/\/+$/, "")}${issued.slice(CANONICAL_DL_BASE.length)}`;
}

function isLinksetBody(body: unknown): boolean {
  return typeof body === "object" && body !== null && "linkset" in body;
}

export interface HttpRequestOutcome {
  result?: HttpResult;
  exchange?: ExchangeRecord;
  /** Why no HTTP answer came (a network error or a timeout). */
  error?: string;
}

/** GET of a resolver URL; redirects are followed, since a resolver may answer from another address. */
export async function requestResolver(
  ctx: RunContext,
  url: string,
  options: GetOptions = {},
): Promise<HttpRequestOutcome> {
  try {
    const result = await targetClient(ctx).get(url, {
      accept: LINKSET_ACCEPT,
      redirect: "follow",
      ...options,
    });
    return { result, exchange: result.exchange };
  } catch (err) {
    if (err instanceof HttpError) return { exchange: err.exchange, error: err.message };
    throw err;
  }
}

export async function requestLinkset(
  ctx: RunContext,
  form: PathForm,
  uri: string,
  url = linksetUrl(ctx, uri),
): Promise<LinksetAnswer> {
  const answer: LinksetAnswer = { form, uri, url };
  const { result, exchange, error } = await requestResolver(ctx, url);
  if (exchange) answer.exchange = exchange;
  if (result === undefined) {
    answer.problem = error ?? "no answer";
    return answer;
  }
  answer.result = result;
  if (result.status < 200 || result.status > 299) {
    answer.problem = `the resolver answered ${result.status} instead of a link set`;
    return answer;
  }
  try {
    answer.body = result.json();
  } catch {
    answer.problem = `the resolver answered ${result.status} with a body that is not JSON`;
    return answer;
  }
  if (!isLinksetBody(answer.body)) answer.problem = "the JSON answer has no linkset member";
  return answer;
}

let answers: Promise<Map<PathForm, LinksetAnswer[]>> | undefined;

/** The link set of every sampled identifier, asked once per suite file, concurrently. */
export function linksetAnswers(ctx: RunContext): Promise<Map<PathForm, LinksetAnswer[]>> {
  answers ??= (async () => {
    const ids = sampledIdentifiers(ctx);
    const all = await Promise.all(
      PATH_FORMS.flatMap((form) => ids[form].map((uri) => requestLinkset(ctx, form, uri))),
    );
    return new Map(PATH_FORMS.map((form) => [form, all.filter((a) => a.form === form)]));
  })();
  return answers;
}

/** The answers that are link sets, across every path form. */
export async function goodLinksets(ctx: RunContext): Promise<LinksetAnswer[]> {
  return [...(await linksetAnswers(ctx)).values()].flat().filter((a) => a.problem === undefined);
}

/** The links of a type in the entry about the identifier asked about (else the first entry). */
export function linksOfAnswer(a: LinksetAnswer, linkType: string): LinkObject[] {
  const entry = entryAbout(a.body, a.uri) ?? linksetEntries(a.body)[0];
  return entry === undefined ? [] : linksOf(entry, linkType);
}
