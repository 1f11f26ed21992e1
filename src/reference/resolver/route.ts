// The Digital Link resolver (spec 4.2): a path names an identifier, `linkType` selects what to answer.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { PathForm } from "../../model/index.ts";
import { sendProblem } from "../problem.ts";
import type { ReferenceContext, RouteRegistrar } from "../types.ts";
import { type Catalogue, catalogueOf } from "./catalogue.ts";
import { linkTypeOf } from "./link-types.ts";
import { isOwn, offeredLinks } from "./links.ts";
import { linksetBody } from "./linkset.ts";
import { INVALID_DIGITAL_LINK, UNKNOWN_IDENTIFIER, UNKNOWN_LINK_TYPE } from "./problems.ts";
import { readResolverPath } from "./request-path.ts";

const FORM_FAULTS: Record<PathForm, string> = {
  "00": "res-no-sscc",
  "417": "res-no-pgln",
  "414": "res-no-gln",
  "01": "res-no-gtin",
  "01/10": "res-no-gtin-lot",
  "01/21": "res-no-gtin-serial",
};

export const LINKSET_MEDIA_TYPE = "application/linkset+json";

export const registerResolver: RouteRegistrar = (app, ctx) => {
  // Made on the first request rather than at the start, which waits for the server to listen.
  let catalogue: Catalogue | undefined;
  const handler = (request: FastifyRequest, reply: FastifyReply) => {
    catalogue ??= catalogueOf(ctx.dataset);
    return resolve(request, reply, ctx, catalogue);
  };
  app.get("/:ai/:value", handler);
  app.get("/:ai/:value/:ai2/:value2", handler);
};

function resolve(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: ReferenceContext,
  catalogue: Catalogue,
): FastifyReply {
  // The raw URL keeps the client's percent-encoding, which the Digital Link parser decodes once itself.
  const raw = request.raw.url ?? request.url;
  const cut = raw.indexOf("?");
  const path = cut < 0 ? raw : raw.slice(0, cut);
  const search = new URLSearchParams(cut < 0 ? "" : raw.slice(cut + 1));

  const reading = readResolverPath(path, { alphabetic: ctx.faults.has("res-alphabetic-accepted") });
  if (!reading.ok) {
    const type = reading.status === 400 ? INVALID_DIGITAL_LINK : UNKNOWN_IDENTIFIER;
    return sendProblem(reply, reading.status, type, statusTitle(reading.status), reading.detail);
  }
  // With resolves "own" the resolver answers only for what its sender issued, as a brand owner's resolver does.
  const notOurs = ctx.config.resolves === "own" && !isOwn(reading, catalogue);
  if (ctx.faults.has(FORM_FAULTS[reading.form]) || notOurs || !catalogue.identifiers.has(reading.uri)) {
    return sendProblem(
      reply,
      404,
      UNKNOWN_IDENTIFIER,
      "Unknown identifier",
      notOurs
        ? `${reading.uri} is not an identifier of this sender's company prefix, and this resolver answers only for its own; ask the resolver of the company that issued it.`
        : `${reading.uri} is not known to this resolver; check the identifier against the data the sender holds.`,
    );
  }

  const links = offeredLinks(reading, ctx, catalogue);
  const linkType = search.get("linkType");
  if (linkType === "linkset" || (linkType === null && wantsLinkset(request))) {
    return reply
      .code(200)
      .header("content-type", LINKSET_MEDIA_TYPE)
      .send(JSON.stringify(linksetBody(reading, links, ctx, catalogue)));
  }
  const name = linkType === null ? "defaultLink" : linkTypeOf(linkType);
  const link = name === undefined ? undefined : links[name];
  if (link === undefined) {
    return sendProblem(
      reply,
      404,
      UNKNOWN_LINK_TYPE,
      "Unknown link type",
      `This resolver offers no link of type ${linkType ?? "defaultLink"} for ${reading.uri}; ask for linkType=linkset to see the links it has.`,
    );
  }
  return reply.code(307).header("location", link.href).send();
}

/** A client may ask for the link set by media type instead of by `linkType`, as GS1 resolvers allow. */
function wantsLinkset(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? "";
  return accept.split(",").some((part) => part.split(";")[0]?.trim().toLowerCase() === LINKSET_MEDIA_TYPE);
}

function statusTitle(status: 400 | 404): string {
  return status === 400 ? "Invalid Digital Link" : "Unknown identifier";
}
