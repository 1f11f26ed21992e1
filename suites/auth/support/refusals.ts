// Requests that must be refused where a sender checks keys (spec 5): one without the X-API-Key header and one
// whose header holds a key the sender never issued. Sent once per endpoint and read by several checks.
import type { RunContext } from "../../../src/harness/context.ts";
import type { HttpRequestOutcome } from "../../resolver/support/linksets.ts";
import { type AuthEndpoint, send, surveyEndpoints } from "./endpoints.ts";

export interface Refusal {
  endpoint: AuthEndpoint;
  /** "without a key" or "with a wrong key". */
  how: string;
  kind: "missing" | "wrong";
  outcome: HttpRequestOutcome;
}

/** A key the sender cannot have issued: derived from the seed, never from the real key. */
export function wrongKey(ctx: RunContext): string {
  const candidate = `tracecheck-not-a-key-${(ctx.seed >>> 0).toString(16)}`;
  return candidate === ctx.apiKey ? `${candidate}-other` : candidate;
}

let sent: Promise<Refusal[]> | undefined;

export function refusals(ctx: RunContext): Promise<Refusal[]> {
  sent ??= (async () => {
    const { checked } = await surveyEndpoints(ctx);
    return Promise.all(
      checked.flatMap((endpoint) => [
        send(ctx, endpoint.url, { withKey: false }).then(
          (outcome): Refusal => ({ endpoint, how: "without a key", kind: "missing", outcome }),
        ),
        send(ctx, endpoint.url, { withKey: false, headers: { "X-API-Key": wrongKey(ctx) } }).then(
          (outcome): Refusal => ({ endpoint, how: "with a wrong key", kind: "wrong", outcome }),
        ),
      ]),
    );
  })();
  return sent;
}
