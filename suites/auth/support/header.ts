// Which endpoints AUTH-HEADER judges. The registry rule says "on every endpoint that checks keys": an endpoint that
// answers without a key (spec 5.6: "Some cases need no authentication.") answers any header, so its answers prove
// nothing about how the sender reads the header's name, and a pass on it would be a claim without proof.

import { type AuthVerdict, unjudgedVerdict } from "../../../src/assertions/auth.ts";
import type { AuthEndpoint, EndpointSurvey } from "./endpoints.ts";

/**
 * The endpoints whose key check the casings are put to: those that refuse a request without the key and answer the
 * valid one, and GET /events where it refused the valid key itself (a 4xx), which is the verdict this requirement
 * gives (if every casing is refused, the key given may be wrong, as the failure says). Where there are none, the
 * verdict to record instead: a skip that says why, or the error of a GET /events that gave no answer to judge.
 */
export function headerEndpoints(survey: EndpointSurvey): AuthEndpoint[] | AuthVerdict {
  const { events, guarded, notes } = survey;
  const refusedKey = events.access.kind === "unjudged" && !events.access.broken;
  const judged = refusedKey ? [events, ...guarded.filter((e) => e !== events)] : guarded;
  if (judged.length > 0) return judged;
  if (events.access.kind === "unjudged") return unjudgedVerdict(events.access);
  const found = [`${events.name} answers without a key (public, allowed by spec 5.6)`, ...notes];
  return {
    status: "skip",
    reason: `no endpoint checks keys, so none shows how the X-API-Key header's name is read: ${found.join("; ")}`,
  };
}
