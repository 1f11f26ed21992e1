// The receiver's side of the exchange (spec 1): an identifier written as a Digital Link URI under the sender's
// resolver base, its link set, and the links it offers: a masterData link followed to its document, an epcis link
// named for the caller to follow. The link set and the document are read through src/target/follow.ts, as the
// resolver suites read them; this room only phrases what they answered as steps. Each step
// answers ok with its value, or the reason it failed with the exchange that shows it, and the requirements that
// judge what failed directly (the path's link set, the link types, the master data document), whose failure it is.

import { PATH_REQUIREMENT } from "../../../src/assertions/blockers.ts";
import { linksetShapeProblem } from "../../../src/assertions/linkset.ts";
import { jsonLdProblem, masterDataTypeProblem } from "../../../src/assertions/master-data.ts";
import type { MasterDataTypeName } from "../../../src/definition/index.ts";
import type { RunContext } from "../../../src/engine/context.ts";
import { exchangeEvidence } from "../../../src/engine/evidence.ts";
import type { Evidence } from "../../../src/engine/types.ts";
import type { ExchangeRecord } from "../../../src/http/record.ts";
import type { HttpResult } from "../../../src/http/result.ts";
import { canonicalId, DigitalLinkError, pathFormOf, rebaseDigitalLink } from "../../../src/model/index.ts";
import { type BrokenRead, documentAt, linksetAt } from "../../../src/target/follow.ts";
import { elementsOf } from "../../../src/target/identifiers.ts";
import { runContextLoader } from "../../../src/target/jsonld/index.ts";
import {
  EPCIS_LINK,
  entryAbout,
  entryToFollow,
  type LinkObject,
  type LinksetEntry,
  linksOf,
  MASTER_DATA_LINK,
} from "../../../src/target/linkset.ts";
import { linksetUrl } from "../../../src/target/resolver.ts";

/**
 * Where a step stopped: the resolver's answer for the identifier ("linkset"), a link type the entry does not offer
 * ("no-link"), or what a link it offers led to ("link"); `status` is the HTTP status when one was answered.
 * `explainedBy` names the requirements that judge what failed directly, any one of which explains it.
 */
export interface Failure {
  ok: false;
  reason: string;
  evidence: Evidence;
  stage: "linkset" | "no-link" | "link";
  status?: number;
  explainedBy?: string[];
}

export type Step<T> = { ok: true; value: T } | Failure;

const failed = (reason: string, evidence: Evidence, stage: Failure["stage"], status?: number): Failure =>
  status === undefined
    ? { ok: false, reason, evidence, stage }
    : { ok: false, reason, evidence, stage, status };

/** A failure, with the requirements that explain it. */
function explained(failure: Failure, explainedBy: readonly string[]): Failure {
  return explainedBy.length === 0 ? failure : { ...failure, explainedBy: [...explainedBy] };
}

/** The requirement that the identifier's path answers with a link set (RES-PATH-*), if it has one of the six forms. */
function pathRequirement(id: string): string[] {
  const elements = elementsOf(id);
  const form = elements === undefined ? undefined : pathFormOf(elements);
  return form === undefined ? [] : [PATH_REQUIREMENT[form]];
}

/** The identifier as the receiver sends it: its Digital Link URI with the sender's resolver base (spec 4.2). */
function resolverUri(ctx: RunContext, id: string): string {
  return rebaseDigitalLink(canonicalId(id), ctx.resolverBase);
}

/**
 * A read that answered no usable JSON as a failure: its exchange, with the status it answered and, where the key was
 * withheld from the origin that refused it, the hint that says so.
 */
function readFailure(read: BrokenRead, stage: Failure["stage"]): Failure {
  const { problem, exchange, status, withheld } = read;
  if (exchange === undefined) return failed(problem, {}, stage, status);
  const answered = status !== undefined && status >= 200 && status <= 299;
  return failed(
    withheld === undefined ? problem : `${problem}; ${withheld}`,
    exchangeEvidence(exchange, { expected: answered ? "a JSON body" : "a 2xx answer" }),
    stage,
    status,
  );
}

export interface Resolved {
  /** The URI the resolver was asked about. */
  uri: string;
  entry: LinksetEntry;
  /** The entry is anchored at the identifier; else it is the link set's first, which RES-ANCHOR fails. */
  about: boolean;
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
  // A JSON answer without a linkset member is for the judging below, with the shape of what came.
  const answer = await linksetAt(ctx, linksetUrl(uri));
  if (answer.kind === "broken") return explained(readFailure(answer, "linkset"), pathRequirement(id));
  const { body, result } = answer;
  const entry = entryToFollow(body, uri);
  if (entry === undefined) {
    const shape = linksetShapeProblem(body);
    return explained(
      failed(
        `the link set of ${uri} has no entry`,
        exchangeEvidence(result.exchange, shape ?? { message: "the linkset array is empty" }),
        "linkset",
      ),
      // No array of entries is RES-LINKSET-SHAPE's failure; an empty one, RES-ANCHOR's (no entry is about it).
      [shape === undefined ? "RES-ANCHOR" : "RES-LINKSET-SHAPE"],
    );
  }
  return { ok: true, value: { uri, entry, about: entry === entryAbout(body, uri), answer: result } };
}

/** The first link of a type in the resolved entry, or why there is none. */
export function linkOf(resolved: Resolved, linkType: string): Step<LinkObject> {
  const link = linksOf(resolved.entry, linkType)[0];
  if (link !== undefined) return { ok: true, value: link };
  return explained(
    failed(
      `the link set of ${resolved.uri} offers no ${linkType} link`,
      exchangeEvidence(resolved.answer.exchange, {
        expected: linkType,
        actual: Object.keys(resolved.entry).filter((k) => k !== "anchor" && k !== "itemDescription"),
      }),
      "no-link",
    ),
    // The link types each path offers are RES-LINKTYPES'; an entry about another identifier, RES-ANCHOR's.
    resolved.about ? ["RES-LINKTYPES"] : ["RES-LINKTYPES", "RES-ANCHOR"],
  );
}

/** A master data document as a masterData link answered it, with the exchange that shows it. */
export interface MasterDataDocument {
  document: Record<string, unknown>;
  exchange: ExchangeRecord;
}

/** What a masterData link leads to, checked for the type the identifier calls for (spec 2.2). */
async function followMasterData(
  ctx: RunContext,
  link: LinkObject,
  type: MasterDataTypeName,
): Promise<Step<MasterDataDocument>> {
  const linked = await documentAt(ctx, link.href);
  // Where a masterData link leads is RES-MASTERDATA-LINK's; a document that is no master data at all, MD-JSONLD's.
  if (linked.kind === "broken") {
    return explained(readFailure(linked, "link"), ["RES-MASTERDATA-LINK"]);
  }
  const { doc: body, exchange } = linked;
  // Contexts are read as MD-JSONLD reads them: the run's loader, relative IRIs against where the document came from.
  const reading = { loader: runContextLoader(ctx), base: link.href };
  const notJsonLd = await jsonLdProblem(body, reading);
  const problem = notJsonLd ?? (await masterDataTypeProblem(body, type, reading));
  if (problem !== undefined) {
    return explained(
      failed(
        `the master data at ${link.href}: ${problem.message ?? `is not a ${type}`}`,
        exchangeEvidence(exchange, problem),
        "link",
      ),
      notJsonLd === undefined ? ["RES-MASTERDATA-LINK"] : ["MD-JSONLD", "RES-MASTERDATA-LINK"],
    );
  }
  return { ok: true, value: { document: body as Record<string, unknown>, exchange } };
}

/** The identifier's master data through the masterData link of its link set, checked for its type (spec 2.2). */
export async function resolveMasterData(
  ctx: RunContext,
  id: string,
  type: MasterDataTypeName,
): Promise<Step<MasterDataDocument>> {
  const resolved = await resolveLinkset(ctx, id);
  if (!resolved.ok) return resolved;
  const link = linkOf(resolved.value, MASTER_DATA_LINK);
  if (!link.ok) return link;
  return followMasterData(ctx, link.value, type);
}

/** How a party or location was reached, with the exchange that shows it. */
export interface Reached {
  via: "masterData" | "epcis";
  /** The link followed or offered. */
  href: string;
  evidence: Evidence;
}

/**
 * A party or location as spec 4.2 makes it "reachable with gs1:masterData or gs1:epcis": its master data when the
 * link set offers a masterData link (followed, and its document checked for the type), else the epcis link the
 * link set offers (where it leads is RES-EPCIS-LINK's to judge). A link set that offers neither is a "no-link"
 * failure.
 */
export async function reachPartyOrLocation(
  ctx: RunContext,
  id: string,
  type: MasterDataTypeName,
): Promise<Step<Reached>> {
  const resolved = await resolveLinkset(ctx, id);
  if (!resolved.ok) return resolved;
  const masterData = linkOf(resolved.value, MASTER_DATA_LINK);
  if (masterData.ok) {
    const document = await followMasterData(ctx, masterData.value, type);
    if (!document.ok) return document;
    return {
      ok: true,
      value: {
        via: "masterData",
        href: masterData.value.href,
        evidence: exchangeEvidence(document.value.exchange, {
          message: `the masterData link of ${resolved.value.uri} leads to its ${type}`,
        }),
      },
    };
  }
  const epcis = linkOf(resolved.value, EPCIS_LINK);
  if (epcis.ok) {
    return {
      ok: true,
      value: {
        via: "epcis",
        href: epcis.value.href,
        evidence: exchangeEvidence(resolved.value.answer.exchange, {
          message: `the link set of ${resolved.value.uri} offers gs1:epcis (${epcis.value.href}) and no gs1:masterData`,
        }),
      },
    };
  }
  return explained(
    failed(
      `the link set of ${resolved.value.uri} offers neither a masterData nor an epcis link`,
      exchangeEvidence(resolved.value.answer.exchange, {
        expected: [MASTER_DATA_LINK, EPCIS_LINK],
        actual: Object.keys(resolved.value.entry).filter((k) => k !== "anchor" && k !== "itemDescription"),
      }),
      "no-link",
    ),
    resolved.value.about ? ["RES-LINKTYPES"] : ["RES-LINKTYPES", "RES-ANCHOR"],
  );
}
