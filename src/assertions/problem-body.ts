// An error answer as an RFC 7807 problem: media type application/problem+json and a JSON object whose standard
// members, where present, have the types RFC 7807 section 3.1 gives them.

import { exchangeEvidence } from "../engine/evidence.ts";
import type { ExchangeRecord } from "../http/record.ts";
import type { Failure } from "./failure.ts";

export interface ErrorAnswer {
  status: number;
  /** Response headers by lower-case name. */
  headers: Record<string, string>;
  text: string;
  exchange?: ExchangeRecord;
}

const PROBLEM_TYPE = "application/problem+json";

function memberProblem(body: Record<string, unknown>, status: number): string | undefined {
  for (const member of ["type", "title", "detail", "instance"]) {
    if (member in body && typeof body[member] !== "string") {
      return `its "${member}" member is ${JSON.stringify(body[member])}, not a string`;
    }
  }
  if ("status" in body && body.status !== status) {
    return `its "status" member is ${JSON.stringify(body.status)} while the response status is ${status}`;
  }
  return undefined;
}

/** What keeps an error answer from being an RFC 7807 problem, or undefined when it is one. */
export function problemBodyProblem(answer: ErrorAnswer): Failure | undefined {
  const contentType = (answer.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const fail = (why: string): Failure => ({
    reason: `the ${answer.status} answer is not an RFC 7807 problem: ${why}`,
    evidence: exchangeEvidence(answer.exchange, {
      expected: { contentType: PROBLEM_TYPE },
      actual: { status: answer.status, contentType: answer.headers["content-type"] ?? null },
    }),
  });
  if (contentType !== PROBLEM_TYPE) {
    return fail(`its media type is ${contentType === "" ? "not given" : contentType}, not ${PROBLEM_TYPE}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return fail("its body is not JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return fail("its body is not a JSON object");
  }
  const wrong = memberProblem(body as Record<string, unknown>, answer.status);
  return wrong === undefined ? undefined : fail(wrong);
}
