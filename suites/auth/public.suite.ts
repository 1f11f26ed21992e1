// Spec 5: "Some cases need no authentication … EPCIS 2.0 itself does not require authentication." A sender may
// serve without a key; a run without one then skips the key checks, but a target that turns out to require a
// key is said plainly, so that the user passes it.
import { requirementTest } from "../../src/harness/suite.ts";
import { exchangeEvidence } from "../../src/harness/target.ts";
import { eventsEndpoint, send, surveyEndpoints } from "./support/endpoints.ts";

requirementTest("AUTH-PUBLIC", "A sender may serve without authentication", async (checks, ctx) => {
  if (ctx.apiKey !== undefined) {
    const { checked, notes } = await surveyEndpoints(ctx);
    const guarded = checked.map((e) => e.name).join(", ");
    return checks.pass(`checks the key: ${guarded}` + (notes.length > 0 ? `; ${notes.join("; ")}` : ""));
  }
  const endpoint = eventsEndpoint(ctx);
  const { result, exchange, error } = await send(ctx, endpoint.url, { withKey: false });
  if (result === undefined) {
    return checks.fail(`GET /events without a key got no answer: ${error}`, exchangeEvidence(exchange));
  }
  if (result.status === 401 || result.status === 403) {
    return checks.fail(
      `GET /events answered ${result.status} without a key: the target requires one; pass it with --api-key or TRACECHECK_API_KEY`,
      exchangeEvidence(exchange, { expected: "an answer without a key", actual: result.status }),
    );
  }
  checks.pass(
    `GET /events answered ${result.status} without a key: the target serves without authentication`,
  );
});
