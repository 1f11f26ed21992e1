// The resolver suite's link sets (spec 4.2: linkType=linkset), asked through the harness's one reader of the
// resolver (src/target/resolver.ts). Every answer keeps its exchange, so that any verdict built on it
// carries the evidence.

import type { RunContext } from "../engine/context.ts";
import { perRun } from "../engine/run-scope.ts";
import type { ExchangeRecord } from "../http/record.ts";
import type { HttpResult } from "../http/result.ts";
import { CANONICAL_DL_BASE, PATH_FORMS, type PathForm } from "../model/index.ts";
import { entryAbout, type LinksetEntry } from "./linkset.ts";
import { identifierLinksetUrl, LINKSET_ACCEPT, readLinkset, requestResolver } from "./resolver.ts";
import { coveredIdentifiers } from "./sampled-identifiers.ts";

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

/**
 * Spec 4.2's replacement, as a string operation: the resolver base in place of https://id.gs1.org, the rest of
 * the URI kept exactly as it was issued (unlike identifierLinksetUrl, which writes the identifier in the canonical form).
 */
export function canonicalBaseReplaced(issued: string, resolverBase: string): string {
  if (!issued.startsWith(`${CANONICAL_DL_BASE}/`)) {
    throw new Error(`${issued} is not issued under ${CANONICAL_DL_BASE}`);
  }
  return `${resolverBase.replace(/\/+$/, "")}${issued.slice(CANONICAL_DL_BASE.length)}`;
}

export { LINKSET_ACCEPT, requestResolver };

export async function requestLinkset(
  ctx: RunContext,
  form: PathForm,
  uri: string,
  url = identifierLinksetUrl(ctx.resolverBase, uri),
): Promise<LinksetAnswer> {
  const { result, body, problem, exchange } = await readLinkset(ctx, url);
  const answer: LinksetAnswer = { form, uri, url };
  if (exchange !== undefined) answer.exchange = exchange;
  if (result !== undefined) answer.result = result;
  if (body !== undefined) answer.body = body;
  if (problem !== undefined) answer.problem = problem;
  return answer;
}

/** The link set of every identifier asked about (coveredIdentifiers), asked once per run, concurrently. */
export const linksetAnswers = perRun(async (ctx: RunContext): Promise<Map<PathForm, LinksetAnswer[]>> => {
  const ids = coveredIdentifiers(ctx).byForm;
  const all = await Promise.all(
    PATH_FORMS.flatMap((form) => ids[form].map((uri) => requestLinkset(ctx, form, uri))),
  );
  return new Map(PATH_FORMS.map((form) => [form, all.filter((a) => a.form === form)]));
});

/** The answers that are link sets, across every path form. */
export async function goodLinksets(ctx: RunContext): Promise<LinksetAnswer[]> {
  return [...(await linksetAnswers(ctx)).values()].flat().filter((a) => a.problem === undefined);
}

/** The requirements whose failure takes away the entry about the identifier a link set answers. */
export type EntryBlocker = "RES-LINKSET-SHAPE" | "RES-ANCHOR";

export type EntryReading = { entry: LinksetEntry } | { blocker: EntryBlocker; why: string };

/**
 * The entry of a link set about the identifier asked about (spec 2.3: the anchor is "The Digital Link URI that the
 * entry is about"), or the requirement whose failure leaves none: RES-LINKSET-SHAPE where the linkset member is no
 * array of entries, else RES-ANCHOR, which fails every link set with no entry anchored at the identifier. What an
 * entry about another identifier offers is not the identifier's: no check guesses which entry was meant.
 */
export function entryOf(a: LinksetAnswer): EntryReading {
  const entry = entryAbout(a.body, a.uri);
  if (entry !== undefined) return { entry };
  const body = a.body as { linkset?: unknown } | undefined;
  if (!Array.isArray(body?.linkset)) {
    return { blocker: "RES-LINKSET-SHAPE", why: `${a.url}: the linkset member is not an array of entries` };
  }
  return { blocker: "RES-ANCHOR", why: `${a.url}: no entry of the link set is anchored at ${a.uri}` };
}

/** What the link sets judged cover, for a pass's note. */
export function coverageNote(ctx: RunContext): string {
  const covered = coveredIdentifiers(ctx);
  const asked = PATH_FORMS.reduce((n, form) => n + covered.byForm[form].length, 0);
  const products =
    covered.coveredProducts === covered.products
      ? `every one of the ${covered.products} products`
      : `${covered.coveredProducts} of the ${covered.products} products, drawn with the seed,`;
  return `the ${asked} identifiers asked about (${products} the events name among them, with some of their lots and serials)`;
}
