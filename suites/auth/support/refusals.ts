// A request with a key the sender never issued, sent once to GET /events and to every endpoint that refuses a
// request without a key (spec 5), and read by several checks. The request without a key is the survey's own.
import type { Probe } from "../../../src/assertions/auth.ts";
import type { RunContext } from "../../../src/engine/context.ts";
import { perRun } from "../../../src/engine/run-scope.ts";
import { type AuthEndpoint, sendProbe, surveyEndpoints } from "./endpoints.ts";

export interface WrongKeyProbe {
  endpoint: AuthEndpoint;
  probe: Probe;
}

/** A key the sender cannot have issued: derived from the seed, never from the real key. */
export function wrongKey(ctx: RunContext): string {
  const candidate = `tracecheck-not-a-key-${(ctx.seed >>> 0).toString(16)}`;
  return candidate === ctx.apiKey ? `${candidate}-other` : candidate;
}

/** GET /events first, whether it needs a key or not, then the other guarded endpoints. */
export const wrongKeyProbes = perRun(async (ctx: RunContext): Promise<WrongKeyProbe[]> => {
  const { events, guarded } = await surveyEndpoints(ctx);
  const endpoints = [events, ...guarded.filter((e) => e !== events)];
  return Promise.all(
    endpoints.map(async (endpoint) => ({
      endpoint,
      probe: await sendProbe(ctx, endpoint.url, {
        withKey: false,
        headers: { "X-API-Key": wrongKey(ctx) },
      }),
    })),
  );
});
