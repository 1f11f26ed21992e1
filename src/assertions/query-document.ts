// A successful answer of GET /events is an EPCISQueryDocument valid against the published EPCIS 2.0 JSON schema
// (spec 4.1), with its events in epcisBody.queryResults.resultsBody.eventList.
import type { Validators } from "../definition/index.ts";
import { exchangeEvidence } from "../engine/evidence.ts";
import type { ExchangeRecord } from "../http/record.ts";
import { eventsOf } from "../target/baseline.ts";
import type { Failure } from "./failure.ts";

/** Schema errors listed in evidence; the reason names the first. */
const LISTED_ERRORS = 10;

/** What keeps a body from being a valid EPCISQueryDocument, or undefined when it is one. */
export function queryDocumentProblem(
  body: unknown,
  validators: Pick<Validators, "validateEpcisDocument">,
  exchange?: ExchangeRecord,
): Failure | undefined {
  const fail = (why: string, errors: string[] = []): Failure => ({
    reason: `the answer is not a valid EPCISQueryDocument: ${why}`,
    evidence: exchangeEvidence(exchange, {
      expected: "an EPCISQueryDocument valid against the published EPCIS 2.0 JSON schema",
      actual: errors.length > 0 ? { schemaErrors: errors.slice(0, LISTED_ERRORS) } : why,
    }),
  });
  if (body === null || typeof body !== "object" || Array.isArray(body))
    return fail("the body is not a JSON object");
  const type = (body as { type?: unknown }).type;
  if (type !== "EPCISQueryDocument") return fail(`its type is ${JSON.stringify(type ?? null)}`);
  if (eventsOf(body) === undefined)
    return fail("it has no epcisBody.queryResults.resultsBody.eventList array");
  const result = validators.validateEpcisDocument(body);
  if (result.valid) return undefined;
  const count = result.errors.length;
  return fail(
    `${count} schema error${count === 1 ? "" : "s"}, first: ${result.errors[0] ?? "unnamed"}`,
    result.errors,
  );
}
