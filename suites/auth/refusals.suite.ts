// Spec 5: "The sender alone generates, manages and checks the keys." Where GET /events refuses a request without
// a key, it refuses a key it never issued too (AUTH-WRONG, MUST): else it asks for a key it does not check. That
// it refuses a request without a key at all is a SHOULD (AUTH-MISSING): spec 5.6 "Some cases need no
// authentication." and 5.7 "EPCIS 2.0 itself does not require authentication." The status of a refusal is not
// shown by the spec: any 4xx refuses; 401 or 403 is what a client expects (AUTH-STATUS, SHOULD).
import { missingKeyVerdict, refusalStatusVerdict, wrongKeyVerdict } from "../../src/assertions/auth.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { NO_KEY_REASON, record, surveyEndpoints } from "./support/endpoints.ts";
import { wrongKeyProbes } from "./support/refusals.ts";

requirementTest("AUTH-MISSING", "GET /events refuses a request without a key", async (checks, ctx) => {
  if (ctx.apiKey === undefined) return checks.skip(NO_KEY_REASON);
  const { events, guarded } = await surveyEndpoints(ctx);
  record(checks, missingKeyVerdict(events, events.access));
  // The resolver and master data count only where they refuse it: spec 5.6 lets them be public.
  for (const endpoint of guarded.filter((e) => e !== events)) {
    record(checks, missingKeyVerdict(endpoint, endpoint.access));
  }
});

requirementTest(
  "AUTH-WRONG",
  "Where a missing key is refused, a wrong key is refused",
  async (checks, ctx) => {
    if (ctx.apiKey === undefined) return checks.skip(NO_KEY_REASON);
    for (const { endpoint, probe } of await wrongKeyProbes(ctx)) {
      record(checks, wrongKeyVerdict(endpoint, probe, endpoint.access));
    }
  },
);

requirementTest("AUTH-STATUS", "A refused key is answered 401 or 403", async (checks, ctx) => {
  if (ctx.apiKey === undefined) return checks.skip(NO_KEY_REASON);
  const { events, guarded } = await surveyEndpoints(ctx);
  const verdicts = [
    ...[events, ...guarded.filter((e) => e !== events)].map((e) =>
      refusalStatusVerdict(e, "without a key", e.withoutKey, e.access),
    ),
    ...(await wrongKeyProbes(ctx)).map(({ endpoint, probe }) =>
      refusalStatusVerdict(endpoint, "with a wrong key", probe, endpoint.access),
    ),
  ].filter((v) => v !== undefined);
  if (verdicts.length === 0) {
    return checks.skip("no request was refused for its key, so there is no status to judge");
  }
  for (const v of verdicts) record(checks, v);
});
