// Spec 5: "Every request from the receiver to the sender carries the key in the HTTP header X-API-Key"; "The
// sender alone generates, manages and checks the keys." A request without the key, or with one the sender
// never issued, is refused on every endpoint that checks keys. The status is not shown by the spec: any 4xx
// refuses; 401 or 403 is what a client expects (AUTH-STATUS, SHOULD).
import type { Checks } from "../../src/harness/suite.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { exchangeEvidence } from "../../src/harness/target.ts";
import { NO_KEY_REASON } from "./support/endpoints.ts";
import { type Refusal, refusals } from "./support/refusals.ts";

function judgeRefusal(checks: Checks, r: Refusal): void {
  const { result, exchange, error } = r.outcome;
  const about = `${r.endpoint.name} ${r.how}`;
  if (result === undefined) {
    checks.fail(`${about} got no answer: ${error}`, exchangeEvidence(exchange));
  } else if (result.status >= 400 && result.status <= 499) {
    checks.pass(`${about}: refused with ${result.status}`);
  } else {
    checks.fail(
      `${about} was answered ${result.status} instead of being refused`,
      exchangeEvidence(exchange, { expected: "a 4xx refusal", actual: result.status }),
    );
  }
}

for (const [id, kind, title] of [
  ["AUTH-MISSING", "missing", "A request without a key is refused"],
  ["AUTH-WRONG", "wrong", "A wrong key is refused"],
] as const) {
  requirementTest(id, title, async (checks, ctx) => {
    if (ctx.apiKey === undefined) return checks.skip(NO_KEY_REASON);
    for (const r of (await refusals(ctx)).filter((x) => x.kind === kind)) judgeRefusal(checks, r);
  });
}

requirementTest("AUTH-STATUS", "A refused key is answered 401 or 403", async (checks, ctx) => {
  if (ctx.apiKey === undefined) return checks.skip(NO_KEY_REASON);
  const refused = (await refusals(ctx)).filter((r) => {
    const status = r.outcome.result?.status;
    return status !== undefined && status >= 400 && status <= 499;
  });
  if (refused.length === 0)
    return checks.skip("no request was refused for its key, so there is no status to judge");
  for (const r of refused) {
    const status = r.outcome.result!.status;
    if (status === 401 || status === 403) checks.pass();
    else {
      checks.fail(
        `${r.endpoint.name} ${r.how} was refused with ${status}, not 401 or 403`,
        exchangeEvidence(r.outcome.exchange, { expected: [401, 403], actual: status }),
      );
    }
  }
});
