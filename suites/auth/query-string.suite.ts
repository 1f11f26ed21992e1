// Spec 5: "The standard fixes only where the key is placed and looked up": the X-API-Key header. A key taken
// from the query string instead would end up in logs and browser histories; accepting it is a warning. Only an
// endpoint that refuses a request without a key can show it: one that needs no key answers any request.
import { queryStringKeyVerdict, unjudgedVerdict } from "../../src/assertions/auth.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { NO_KEY_REASON, record, sendProbe, surveyEndpoints } from "./support/endpoints.ts";

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
    const { events, guarded } = await surveyEndpoints(ctx);
    if (guarded.length === 0) {
      if (events.access.kind === "unjudged") return record(checks, unjudgedVerdict(events.access));
      return checks.skip(
        "no endpoint refuses a request without a key, so none can show where it looks the key up",
      );
    }
    const verdicts = await Promise.all(
      guarded.flatMap((endpoint) =>
        PARAMETER_NAMES.map(async (name) => {
          const url = `${endpoint.url}${endpoint.url.includes("?") ? "&" : "?"}${name}=${key}`;
          return queryStringKeyVerdict(endpoint, name, await sendProbe(ctx, url, { withKey: false }));
        }),
      ),
    );
    for (const v of verdicts) record(checks, v);
  },
);
