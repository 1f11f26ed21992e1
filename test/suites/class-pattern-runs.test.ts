// EVT-CLASS-PATTERN judged through the command against a test repository: what the covered classes answer one by
// one is joined once per event, so that an event two covered classes both select is expected once, and a pattern
// that answers it twice fails as an event answered twice (a repeat in an answer is no copy the repository holds).
import { beforeAll, describe, expect, it } from "vitest";
import { type EpcisEvent, runOracle } from "../../src/model/index.ts";
import { runForReport, tempDirOfFile, verdictIn } from "../support/cli.ts";
import { startRepository } from "../support/event-repository.ts";

// A run of one class; the bound only catches a hang on a loaded machine.
const RUN = 120_000;
const dir = tempDirOfFile("class-pattern-runs");

const LOT = (lot: string) => `urn:epc:class:lgtin:0614141.107346.${lot}`;

function event(n: number, lots: readonly string[]): EpcisEvent {
  return {
    type: "ObjectEvent",
    eventID: `urn:uuid:00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    action: "OBSERVE",
    eventTime: `2026-01-0${n}T00:00:00.000Z`,
    eventTimeZoneOffset: "+00:00",
    quantityList: lots.map((lot) => ({ epcClass: LOT(lot), quantity: 1 })),
  };
}

/** The event both lots' classes select, and one event of each lot alone. */
const BOTH = event(1, ["L1", "L2"]);
const EVENTS = [BOTH, event(2, ["L1"]), event(3, ["L2"])];

describe("a sender answering a class pattern with an event both covered classes select, twice", () => {
  let run: Awaited<ReturnType<typeof runForReport>>;
  beforeAll(async () => {
    // Its defect: a pattern's answer holds the event of both lots twice; every other answer is right.
    const repository = await startRepository(EVENTS, {
      select: (events, q) => {
        const chosen = runOracle(events, q);
        const pattern = q.MATCH_anyEPCClass?.some((c) => c.startsWith("urn:epc:idpat:")) === true;
        return pattern && chosen.includes(BOTH) ? [...chosen, BOTH] : chosen;
      },
    });
    try {
      const args = ["--target", repository.origin, "--suite", "events", "--seed", "1", "--quiet"];
      run = await runForReport(dir(), "pattern-repeats", args);
    } finally {
      await repository.close();
    }
  }, RUN);

  it("fails EVT-CLASS-PATTERN for the event answered twice", () => {
    const pattern = verdictIn(run.report, "EVT-CLASS-PATTERN");
    expect(pattern.status).toBe("fail");
    expect(pattern.reason).toContain(`answered twice (${BOTH.eventID}`);
    expect(verdictIn(run.report, "EVT-CLASS-QUANTITY").status).toBe("pass");
  });
});
