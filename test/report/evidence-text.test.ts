// The plain-text evidence (junit.xml's failure bodies): each missing and extra event with the values that decide it
// beside what the query asks.
import { describe, expect, it } from "vitest";
import { evidenceText } from "../../src/report/evidence-text.ts";
import { NOT_ANSWERED, timeFailure } from "./build-report.ts";

describe("evidenceText", () => {
  it("puts each listed event's value beside the rule it meets or breaks", () => {
    const item = timeFailure().evidence[0]!;
    item.eventValues = { [NOT_ANSWERED]: { eventTime: "2021-07-09T16:58:45.9Z" } };
    const text = evidenceText(item);
    expect(text).toContain(
      `  missing ${NOT_ANSWERED}: eventTime 2021-07-09T16:58:45.9Z, which meets LT_eventTime (eventTime strictly before 2021-07-09T16:58:46Z)`,
    );
    // The extra event is read from the answer's body, its time at an offset shown in UTC too.
    expect(text).toContain(
      "eventTime 2021-07-09T07:28:46-09:30 (2021-07-09T16:58:46Z), which does not meet LT_eventTime",
    );
  });

  it("lists only the ids where nothing records an event's values", () => {
    const item = timeFailure().evidence[0]!;
    const text = evidenceText(item);
    expect(text).toContain(`missing (1): ${NOT_ANSWERED}`);
    expect(text).not.toContain(`  missing ${NOT_ANSWERED}:`);
  });
});
