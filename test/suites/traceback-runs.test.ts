// FLOW-TRACEBACK judged through the command against the reference loaded with a repository whose trace-back
// outgrows the walk's bound of 150 queries: spec 1 sets no depth or order of a trace-back, so a sender is held
// only to what lies behind the queries its own walk made, and one that leaves events out of them still fails.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, runForReport, tempDir, verdictIn } from "../support/cli.ts";

// Runs of one or two classes; the bound only catches a hang on a loaded machine.
const RUN = 300_000;

const PALLET = "urn:epc:id:sscc:5613104.0000000687";
const PALLET_LINK = "https://id.gs1.org/00/056131040000006875";
const LOCATION = { id: "https://id.gs1.org/414/5613104000019" };

/**
 * A pallet packed from 148 items written as URNs, received under its Digital Link with ten items written as
 * Digital Links, and shipped. A sender that matches a URN and its Digital Link as one EPC (EVT-EPC-FORMS) answers
 * the pallet's URN with the receiving too; the Digital Links it leads to sort before the items' URNs, so its walk,
 * cut at 150 queries, never asks some of the items the walk over the events as written asks.
 */
function outgrowingEvents(): Record<string, unknown>[] {
  const items = Array.from({ length: 148 }, (_, i) => `urn:epc:id:sgtin:5613104.000004.C${i + 1}`);
  const received = Array.from({ length: 10 }, (_, i) => `https://id.gs1.org/01/05613104000040/21/D${i + 1}`);
  let n = 0;
  const event = (fields: Record<string, unknown>): Record<string, unknown> => {
    n++;
    return {
      eventTime: new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString(),
      eventTimeZoneOffset: "+00:00",
      eventID: `urn:uuid:00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
      ...fields,
      readPoint: LOCATION,
      bizLocation: LOCATION,
    };
  };
  const commission = (epc: string) =>
    event({
      type: "ObjectEvent",
      action: "ADD",
      epcList: [epc],
      bizStep: "commissioning",
      disposition: "active",
    });
  return [
    ...items.map(commission),
    ...received.map(commission),
    event({
      type: "AggregationEvent",
      action: "ADD",
      parentID: PALLET,
      childEPCs: items,
      bizStep: "packing",
    }),
    event({
      type: "ObjectEvent",
      action: "OBSERVE",
      epcList: [PALLET_LINK, ...received],
      bizStep: "receiving",
    }),
    event({ type: "ObjectEvent", action: "OBSERVE", epcList: [PALLET], bizStep: "shipping" }),
  ];
}

let dir: string;
let remove: () => Promise<void>;
let dataset: string;

beforeAll(async () => {
  ({ dir, remove } = await tempDir("traceback-runs"));
  const fixture = JSON.parse(
    await readFile(path.join(REPO_ROOT, "fixtures", "small.dataset.jsonld"), "utf8"),
  ) as {
    epcisBody: { eventList: unknown[] };
  };
  fixture.epcisBody.eventList = outgrowingEvents();
  dataset = path.join(dir, "outgrowing.jsonld");
  await writeFile(dataset, JSON.stringify(fixture));
}, RUN);
afterAll(() => remove());

function run(label: string, args: readonly string[]) {
  return runForReport(dir, label, ["--seed", "1", "--quiet", "--dataset", dataset, ...args]);
}

describe("FLOW-TRACEBACK: a trace-back cut at its bound", () => {
  it(
    "no false failure: a sender matching both spellings of an EPC passes, the bound named in the note",
    async () => {
      const r = await run("forms", ["--suite", "workflow,events"]);
      const traceBack = verdictIn(r.report, "FLOW-TRACEBACK");
      expect(traceBack.status).toBe("pass");
      expect(traceBack.reason).toContain("stopped at its bound of 150 queries");
      expect(verdictIn(r.report, "EVT-EPC-FORMS").status).toBe("pass");
      expect(r.code).toBe(0);
    },
    RUN,
  );

  it(
    "still fails a sender whose answers to the queries its walk made leave out events",
    async () => {
      const r = await run("drops", ["--suite", "workflow", "--faults", "epc-ignores-epclist"]);
      const traceBack = verdictIn(r.report, "FLOW-TRACEBACK");
      expect(traceBack.status).toBe("fail");
      expect(traceBack.reason).toContain("did not reach");
      expect(r.code).toBe(1);
    },
    RUN,
  );
});
