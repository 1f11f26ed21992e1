// Master data documents (spec 2.2), reached through the masterData links of the resolver's link sets. The path
// is ours to choose (spec 4.2 leaves it open): /masterdata followed by the identifier's Digital Link path, or in
// receiver mode only a path no client can build (src/reference/opaque-hrefs.ts), so that a receiver that builds
// the path instead of reading the href is seen to.
import { gzipSync } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { MasterDataDocument } from "../../model/index.ts";
import { OPAQUE_MASTER_DATA_SEGMENT } from "../opaque-hrefs.ts";
import { sendProblem } from "../problem.ts";
import { type Catalogue, catalogueOf } from "../resolver/catalogue.ts";
import { INVALID_DIGITAL_LINK, UNKNOWN_IDENTIFIER } from "../resolver/problems.ts";
import { readResolverPath } from "../resolver/request-path.ts";
import type { ReferenceContext, RouteRegistrar } from "../types.ts";
import { classificationCodes, servedDocument } from "./document.ts";
import { VARIANT_CONTEXT, VARIANT_CONTEXT_PATH, variantDocument } from "./variant.ts";

export const MASTER_DATA_PREFIX = "/masterdata";

export const registerMasterData: RouteRegistrar = (app, ctx) => {
  // Made on the first request rather than at the start, which waits for the server to listen.
  let made: { catalogue: Catalogue; codes: ReturnType<typeof classificationCodes> } | undefined;
  const prepared = () => {
    if (made === undefined) {
      const catalogue = catalogueOf(ctx.dataset);
      made = { catalogue, codes: classificationCodes(catalogue.documents.values()) };
    }
    return made;
  };
  if (ctx.config.jsonLdVariant === true) {
    app.get(VARIANT_CONTEXT_PATH, (_request: FastifyRequest, reply: FastifyReply) =>
      reply.code(200).header("content-type", "application/ld+json").send(JSON.stringify(VARIANT_CONTEXT)),
    );
  }
  const opaque = ctx.opaqueHrefs;
  if (opaque !== undefined) {
    // Made once, on the first request: which document each token names.
    let byToken: Map<string, string> | undefined;
    app.get(
      `/${opaque.session}/${OPAQUE_MASTER_DATA_SEGMENT}/:token`,
      (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
        const { catalogue, codes } = prepared();
        byToken ??= new Map([...catalogue.documents.keys()].map((uri) => [opaque.token(uri), uri]));
        const uri = byToken.get(request.params.token);
        if (uri === undefined) {
          return sendProblem(
            reply,
            404,
            UNKNOWN_IDENTIFIER,
            "No master data",
            "No master data document lives at this path; use the masterData link of the identifier's link set.",
          );
        }
        return sendDocument(reply, ctx, catalogue.documents.get(uri)!, codes);
      },
    );
    return;
  }
  app.get(`${MASTER_DATA_PREFIX}/:ai/:value`, (request: FastifyRequest, reply: FastifyReply) => {
    const { catalogue, codes } = prepared();
    const raw = request.raw.url ?? request.url;
    const cut = raw.indexOf("?");
    const path = (cut < 0 ? raw : raw.slice(0, cut)).slice(MASTER_DATA_PREFIX.length);
    const reading = readResolverPath(path);
    if (!reading.ok) {
      return reading.status === 400
        ? sendProblem(reply, 400, INVALID_DIGITAL_LINK, "Invalid Digital Link", reading.detail)
        : sendProblem(reply, 404, UNKNOWN_IDENTIFIER, "No master data", reading.detail);
    }
    const doc = catalogue.documents.get(reading.uri);
    if (doc === undefined) {
      return sendProblem(
        reply,
        404,
        UNKNOWN_IDENTIFIER,
        "No master data",
        `The sender holds no master data for ${reading.uri}; use the masterData link of the identifier's link set.`,
      );
    }
    return sendDocument(reply, ctx, doc, codes);
  });
};

function sendDocument(
  reply: FastifyReply,
  ctx: ReferenceContext,
  doc: MasterDataDocument,
  codes: ReturnType<typeof classificationCodes>,
): FastifyReply {
  const served = servedDocument(doc, ctx.faults, codes);
  const text = JSON.stringify(ctx.config.jsonLdVariant === true ? variantDocument(served) : served);
  reply.code(200).header("content-type", "application/ld+json");
  if (ctx.config.gzipMasterData !== true) return reply.send(text);
  return reply.header("content-encoding", "gzip").send(gzipSync(text));
}
