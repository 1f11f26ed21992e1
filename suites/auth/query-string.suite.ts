// Spec 5: "The standard fixes only where the key is placed and looked up": the X-API-Key header. A key taken
// from the query string instead would end up in logs and browser histories; accepting it is a warning.
import { requirementTest } from "../../src/harness/suite.ts";
import { exchangeEvidence } from "../../src/harness/target.ts";
import { NO_KEY_REASON, send, surveyEndpoints } from "./support/endpoints.ts";

// The parameter names under which servers commonly read a key from the URL.
const PARAMETER_NAMES = ["X-API-Key", "api_key", "apikey"];

requirementTest(
  "AUTH-QUERY-STRING",
  "A key in the query string does not replace the header",
  async (checks, ctx) => {
    const key = ctx.apiKey;
    if (key === undefined) return checks.skip(NO_KEY_REASON);
    // The client redacts the key as written; an escaped spelling of it in a URL would slip past into evidence.
    if (encodeURIComponent(key) !== key) {
      return checks.skip(
        "the key has characters a URL must escape, so it is not put into one where evidence could show it",
      );
    }
    const { checked } = await surveyEndpoints(ctx);
    await Promise.all(
      checked.flatMap((endpoint) =>
        PARAMETER_NAMES.map(async (name) => {
          const url = `${endpoint.url}${endpoint.url.includes("?") ? "&" : "?"}${name}=${key}`;
          const { result, exchange } = await send(ctx, url, { withKey: false });
          if (result !== undefined && endpoint.accepted(result.status)) {
            checks.fail(
              `${endpoint.name} accepted the key from the query parameter ${name} without an X-API-Key header`,
              exchangeEvidence(exchange, {
                expected: "a refusal: the key belongs in the X-API-Key header",
                actual: result.status,
              }),
            );
          } else {
            checks.pass();
          }
        }),
      ),
    );
  },
);
