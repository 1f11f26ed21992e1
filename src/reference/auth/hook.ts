// The X-API-Key check (spec 5): only the header is read, never the query string, and the key never reaches a
// log or a problem body.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sendProblem } from "../problem.ts";
import type { ReferenceContext } from "../types.ts";
import { keyMatches } from "./compare.ts";

export const API_KEY_HEADER = "X-API-Key";
export const SECURITY_EXCEPTION = "epcisException:SecurityException";

/**
 * Checks the key on every request of `app` (an instance or an encapsulated plugin). The query interface is
 * checked whenever keys exist unless configured open (config.eventsKey); the resolver and master data only when
 * configured, since spec 5.6 lets trade item information through a resolver be public.
 */
export function registerAuth(
  app: FastifyInstance,
  ctx: ReferenceContext,
  scope: "events" | "resolver",
): void {
  app.addHook("onRequest", async (request, reply) => {
    if (ctx.apiKeys.length === 0) return;
    if (scope === "resolver" && !ctx.config.authOnResolver) return;
    // Spec 5.6 and 5.7: a query interface may need no key at all, or none while still checking one it is given.
    const open = scope === "events" ? ctx.config.eventsKey : "required";
    if (open === "ignored") return;
    const presented = presentedKey(request, ctx.faults);
    if (presented === undefined) {
      if (open === "optional") return;
      return refuse(
        reply,
        ctx,
        "Missing API key",
        "The request carries no X-API-Key header; send the key the sender issued in that header.",
      );
    }
    if (ctx.faults.has("auth-wrong-accepted") || keyMatches(presented, ctx.apiKeys)) return;
    return refuse(
      reply,
      ctx,
      "Invalid API key",
      "The X-API-Key header does not hold a key this sender issued; check the key with the sender.",
    );
  });
}

function presentedKey(request: FastifyRequest, faults: ReadonlySet<string>): string | undefined {
  if (faults.has("auth-case-sensitive-header")) {
    const raw = request.raw.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if (raw[i] === API_KEY_HEADER) return raw[i + 1];
    }
    return undefined;
  }
  // Node lower-cases header names, so every casing of X-API-Key arrives here (RFC 9110 5.1).
  const value = request.headers["x-api-key"];
  return Array.isArray(value) ? value.join(", ") : value;
}

function refuse(reply: FastifyReply, ctx: ReferenceContext, title: string, detail: string): FastifyReply {
  const status = ctx.config.wrongKeyStatus;
  if (status === 401) reply.header("www-authenticate", `APIKey header="${API_KEY_HEADER}"`);
  return sendProblem(reply, status, SECURITY_EXCEPTION, title, detail);
}
