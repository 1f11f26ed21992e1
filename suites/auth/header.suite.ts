// Spec 5.3: "Every implementation must support the X-API-Key header." HTTP header names are case-insensitive
// (RFC 9110 5.1), so the key is answered whatever the casing a client writes the name in, on every endpoint that
// checks keys: one that answers without a key (spec 5.6) answers any header, which proves nothing of the casing.
import { headerCasingVerdict } from "../../src/assertions/auth.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { NO_KEY_REASON, record, sendProbe, surveyEndpoints } from "./support/endpoints.ts";
import { headerEndpoints } from "./support/header.ts";

const CASINGS = ["X-API-Key", "x-api-key", "X-API-KEY"];

requirementTest(
  "AUTH-HEADER",
  "A valid key in X-API-Key is accepted in any header casing",
  async (checks, ctx) => {
    if (ctx.apiKey === undefined) return checks.skip(NO_KEY_REASON);
    const endpoints = headerEndpoints(await surveyEndpoints(ctx));
    if (!Array.isArray(endpoints)) return record(checks, endpoints);
    const verdicts = await Promise.all(
      endpoints.flatMap((endpoint) =>
        CASINGS.map(async (name) =>
          headerCasingVerdict(endpoint, name, await sendProbe(ctx, endpoint.url, { keyHeaderName: name })),
        ),
      ),
    );
    for (const v of verdicts) record(checks, v);
  },
);
