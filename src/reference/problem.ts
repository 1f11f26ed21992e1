import type { FastifyReply } from "fastify";

/**
 * Sends an RFC 7807 problem. The spec leaves error bodies open (spec 5, 7); the reference sender gives every
 * refusal this one shape so that a client meets a single format.
 */
export function sendProblem(
  reply: FastifyReply,
  status: number,
  type: string,
  title: string,
  detail?: string,
): FastifyReply {
  const body: Record<string, unknown> = { type, title, status };
  if (detail !== undefined) body.detail = detail;
  return reply.code(status).header("content-type", "application/problem+json").send(JSON.stringify(body));
}
