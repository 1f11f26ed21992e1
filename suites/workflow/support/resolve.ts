// The receiver's side of the exchange (spec 1): an identifier written as a Digital Link URI under the sender's
// resolver base, its link set, and the links it offers followed to master data or to events. Each step answers
// ok with its value, or the reason it failed with the exchange that shows it.
import type { MasterDataTypeName } from "../../../src/definition/index.ts";
import {
  entryAbout,
  type LinkObject,
  type LinksetEntry,
  linksetEntries,
  linksetShapeProblem,
  linksOf,
  MASTER_DATA_LINK,
} from "../../../src/harness/assertions/linkset.ts";
import { jsonLdProblem, masterDataTypeProblem } from "../../../src/harness/assertions/master-data.ts";
import { eventsOf } from "../../../src/harness/baseline.ts";
import type { RunContext } from "../../../src/harness/context.ts";
import { exchangeEvidence, pageBudget, targetClient } from "../../../src/harness/target.ts";
import type { Evidence, ExchangeRecord } from "../../../src/harness/types.ts";
import { followPages, HttpError, type HttpResult } from "../../../src/http/index.ts";
import {
  canonicalId,
  DigitalLinkError,
  type EpcisEvent,
  rebaseDigitalLink,
} from "../../../src/model/index.ts";

/**
 * Where a step stopped: the resolver's answer for the identifier ("linkset"), a link type the entry does not offer
 * ("no-link"), or what a link it offers led to ("link"); `status` is the HTTP status when one was answered.
 */
export interface Failure {
  ok: false;
  reason: string;
  evidence: Evidence;
  stage: "linkset" | "no-link" | "link";
  status?: number;
}

export type Step<T> = { ok: true; value: T } | Failure;

const failed = (reason: string, evidence: Evidence, stage: Failure["stage"], status?: number): Failure =>
  status === undefined
    ? { ok: false, reason, evidence, stage }
    : { ok: false, reason, evidence, stage, status };

/** The identifier as the receiver sends it: its Digital Link URI with the sender's resolver base (spec 4.2). */
function resolverUri(ctx: RunContext, id: string): string {
  return rebaseDigitalLink(canonicalId(id), ctx.resolverBase);
}

/** Why a refusal may be the harness's doing: the key is sent only to the target's origins. */
function withheldHint(exchange: ExchangeRecord, status: number | undefined): string {
  if (exchange.keyWithheld !== true || (status !== 401 && status !== 403)) return "";
  return `; the key was withheld because ${new URL(exchange.request.url).origin} is not an origin of the target: allow it with --allow-origin`;
}

/** A GET of the resolver or of a link it gave; redirects are followed, as the resolver class follows them. */
async function get(
  ctx: RunContext,
  url: string,
  accept: string,
  stage: Failure["stage"],
): Promise<Step<HttpResult>> {
  try {
    const res = await targetClient(ctx).get(url, { accept, redirect: "follow" });
    if (res.status >= 200 && res.status <= 299) return { ok: true, value: res };
    return failed(
      `${url} answered ${res.status}${withheldHint(res.exchange, res.status)}`,
      exchangeEvidence(res.exchange, { expected: "a 2xx answer" }),
      stage,
      res.status,
    );
  } catch (err) {
    if (err instanceof HttpError) return failed(err.message, exchangeEvidence(err.exchange), stage);
    throw err;
  }
}

function json(res: HttpResult, stage: Failure["stage"]): Step<unknown> {
  try {
    return { ok: true, value: res.json() };
  } catch (err) {
    return failed((err as Error).message, exchangeEvidence(res.exchange, { expected: "a JSON body" }), stage);
  }
}

export interface Resolved {
  /** The URI the resolver was asked about. */
  uri: string;
  entry: LinksetEntry;
  answer: HttpResult;
}

/** GET {resolver}/{AI}/{value}…?linkType=linkset and the entry about the identifier (spec 4.2, 2.3). */
export async function resolveLinkset(ctx: RunContext, id: string): Promise<Step<Resolved>> {
  let uri: string;
  try {
    uri = resolverUri(ctx, id);
  } catch (err) {
    if (err instanceof DigitalLinkError) {
      return failed(`${id} has no Digital Link form to resolve (${err.message})`, { actual: id }, "linkset");
    }
    throw err;
  }
  const answer = await get(
    ctx,
    `${uri}?linkType=linkset`,
    "application/linkset+json, application/json",
    "linkset",
  );
  if (!answer.ok) return answer;
  const body = json(answer.value, "linkset");
  if (!body.ok) return body;
  const entry = entryAbout(body.value, uri) ?? linksetEntries(body.value)[0];
  if (entry === undefined) {
    const shape = linksetShapeProblem(body.value) ?? { message: "the linkset array is empty" };
    return failed(
      `the link set of ${uri} has no entry`,
      exchangeEvidence(answer.value.exchange, shape),
      "linkset",
    );
  }
  return { ok: true, value: { uri, entry, answer: answer.value } };
}

/** The first link of a type in the resolved entry, or why there is none. */
export function linkOf(resolved: Resolved, linkType: string): Step<LinkObject> {
  const link = linksOf(resolved.entry, linkType)[0];
  if (link !== undefined) return { ok: true, value: link };
  return failed(
    `the link set of ${resolved.uri} offers no ${linkType} link`,
    exchangeEvidence(resolved.answer.exchange, {
      expected: linkType,
      actual: Object.keys(resolved.entry).filter((k) => k !== "anchor" && k !== "itemDescription"),
    }),
    "no-link",
  );
}

/** The identifier's master data through the masterData link of its link set, checked for its type (spec 2.2). */
export async function resolveMasterData(
  ctx: RunContext,
  id: string,
  type: MasterDataTypeName,
): Promise<Step<Record<string, unknown>>> {
  const resolved = await resolveLinkset(ctx, id);
  if (!resolved.ok) return resolved;
  const link = linkOf(resolved.value, MASTER_DATA_LINK);
  if (!link.ok) return link;
  const answer = await get(ctx, link.value.href, "application/ld+json, application/json", "link");
  if (!answer.ok) return answer;
  const doc = json(answer.value, "link");
  if (!doc.ok) return doc;
  const problem = (await jsonLdProblem(doc.value)) ?? (await masterDataTypeProblem(doc.value, type));
  if (problem !== undefined) {
    return failed(
      `the master data at ${link.value.href}: ${problem.message ?? `is not a ${type}`}`,
      exchangeEvidence(answer.value.exchange, problem),
      "link",
    );
  }
  return { ok: true, value: doc.value as Record<string, unknown> };
}

/** A page of an answer as the transport keeps it. */
type Page = Awaited<ReturnType<typeof followPages>>["pages"][number];

/** Every event a GET /events URL answers, across its pages; a 413 keeps its status (spec 7). */
export async function fetchEvents(
  ctx: RunContext,
  url: string,
): Promise<Step<{ events: EpcisEvent[]; first: Page }>> {
  let read: Awaited<ReturnType<typeof followPages>>;
  try {
    read = await followPages(targetClient(ctx), url, { ...pageBudget(ctx), request: { redirect: "follow" } });
  } catch (err) {
    if (err instanceof HttpError) return failed(err.message, exchangeEvidence(err.exchange), "link");
    throw err;
  }
  if (read.problem) {
    const status = read.problem.result?.status;
    return failed(
      read.problem.message + withheldHint(read.problem.exchange, status),
      exchangeEvidence(read.problem.exchange),
      "link",
      status,
    );
  }
  const events: EpcisEvent[] = [];
  for (const page of read.pages) {
    const list = eventsOf(page.json());
    if (list === undefined) {
      return failed(
        `${page.url} did not answer an EPCIS query document with an eventList`,
        exchangeEvidence(page.exchange, { expected: "an EPCISQueryDocument" }),
        "link",
      );
    }
    events.push(...list);
  }
  const first = read.pages[0];
  if (first === undefined) {
    return failed(`${url} answered no page`, { message: "no page was read", actual: url }, "link");
  }
  return { ok: true, value: { events, first } };
}
