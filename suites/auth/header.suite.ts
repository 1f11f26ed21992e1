// Spec 5: "Every implementation must support the X-API-Key header." HTTP header names are case-insensitive
// (RFC 9110 5.1), so the key is accepted whatever the casing a client writes the name in.
import { requirementTest } from "../../src/harness/suite.ts";
import { exchangeEvidence } from "../../src/harness/target.ts";
import { NO_KEY_REASON, send, surveyEndpoints } from "./support/endpoints.ts";

const CASINGS = ["X-API-Key", "x-api-key", "X-API-KEY"];

requirementTest(
  "AUTH-HEADER",
  "A valid key in X-API-Key is accepted in any header casing",
  async (checks, ctx) => {
    if (ctx.apiKey === undefined) return checks.skip(NO_KEY_REASON);
    const { checked } = await surveyEndpoints(ctx);
    await Promise.all(
      checked.flatMap((endpoint) =>
        CASINGS.map(async (name) => {
          const { result, exchange, error } = await send(ctx, endpoint.url, { keyHeaderName: name });
          if (result !== undefined && endpoint.accepted(result.status)) {
            checks.pass();
            return;
          }
          const answer = result === undefined ? `got no answer (${error})` : `was answered ${result.status}`;
          checks.fail(
            `${endpoint.name} with the valid key in a header named ${name} ${answer}`,
            exchangeEvidence(exchange, { expected: "the request answered", actual: result?.status }),
          );
        }),
      ),
    );
  },
);
