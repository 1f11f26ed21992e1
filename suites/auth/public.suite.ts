// Spec 5.6 "Some cases need no authentication." and 5.7 "EPCIS 2.0 itself does not require authentication." A
// sender may serve GET /events without a key. A run without a key skips the key checks, but a target that turns
// out to require one is said plainly, so that the user passes it; a run with a key records whether the sender
// uses the freedom.
import { publicWithKeyVerdict, publicWithoutKeyVerdict } from "../../src/assertions/auth.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { eventsRequest, record, sendProbe, surveyEndpoints } from "./support/endpoints.ts";

requirementTest("AUTH-PUBLIC", "A sender may serve without authentication", async (checks, ctx) => {
  if (ctx.apiKey !== undefined) {
    const { events } = await surveyEndpoints(ctx);
    return record(checks, publicWithKeyVerdict(events, events.access));
  }
  const request = eventsRequest(ctx);
  const bare = await sendProbe(ctx, request.url, { withKey: false });
  record(checks, publicWithoutKeyVerdict({ name: "GET /events", accepted: request.accepted }, bare));
});
