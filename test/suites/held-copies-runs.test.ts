// EPCIS makes eventID optional, so a repository may hold one identity more than once: the same event captured twice
// without eventID, or twice with only recordTime apart (src/model/identity.ts leaves recordTime out of the hash).
// Such data is legal, and a sender serving every copy is right: it is not an event "answered twice" nor one
// "served with different content". A sender that repeats an event it holds once still fails.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generateDataset, writeDatasetFile } from "../../src/generate/index.ts";
import { type EpcisEvent, eventIdentity, runOracle } from "../../src/model/index.ts";
import { runForReport, tempDirOfFile, verdictIn } from "../support/cli.ts";
import { type RepositoryPolicy, startRepository } from "../support/event-repository.ts";

// A whole run against the embedded reference; the bound only catches a hang on a loaded machine.
const RUN = 180_000;
const dir = tempDirOfFile("held-copies");
const DATASET = generateDataset({ seed: 4, events: 30 });
/** The generated events, each once, and one of them without its eventID: the event captured twice below. */
const [TWICE, ...REST] = DATASET.events.map((e, i) => {
  if (i > 0) return e;
  const { eventID: _, ...rest } = e;
  return rest as EpcisEvent;
}) as [EpcisEvent, ...EpcisEvent[]];

/** Writes a dataset of `events` in the temporary directory and gives its path. */
async function datasetOf(label: string, events: EpcisEvent[]): Promise<string> {
  const file = path.join(dir(), `${label}.json`);
  await writeDatasetFile({ ...DATASET, events }, file);
  return file;
}

/** The requirements a report fails or errs on, with their reasons. */
function failed(report: Awaited<ReturnType<typeof runForReport>>["report"]): string[] {
  return report.requirements
    .filter((r) => r.status === "fail" || r.status === "error")
    .map((r) => `${r.id}: ${r.reason ?? ""}`);
}

/** A sender whose defect is to send the first event of each answer, the unfiltered one included, again at its end. */
const repeatsFirst: RepositoryPolicy = {
  select: (events, q) => {
    const chosen = runOracle(events, q);
    return chosen.length > 0 ? [...chosen, chosen[0]!] : chosen;
  },
};

/** `tracecheck run --suite events` against a repository of `events`, stopped afterwards whatever happens. */
async function runAgainst(
  label: string,
  repository: Awaited<ReturnType<typeof startRepository>>,
  more: readonly string[] = [],
) {
  try {
    const args = ["--target", repository.origin, "--suite", "events", "--seed", "1", "--quiet", ...more];
    return await runForReport(dir(), label, args);
  } finally {
    await repository.close();
  }
}

describe.each([
  ["two identical events without eventID", [TWICE, TWICE]],
  [
    "two events without eventID differing only in recordTime",
    [
      { ...TWICE, recordTime: "2024-05-01T00:00:00Z" },
      { ...TWICE, recordTime: "2024-05-02T00:00:00Z" },
    ],
  ],
] as const)("a dataset holding %s, loaded into the reference", (label, copies) => {
  let run: Awaited<ReturnType<typeof runForReport>>;
  beforeAll(async () => {
    const file = await datasetOf(label.replaceAll(" ", "-"), [...REST, ...copies]);
    run = await runForReport(dir(), label.replaceAll(" ", "-"), [
      "--seed",
      "1",
      "--quiet",
      "--dataset",
      file,
    ]);
  }, RUN);

  it("passes with no requirement failed: the sender serves both copies, as the repository holds them", () => {
    expect(eventIdentity(copies[0])).toBe(eventIdentity(copies[1]));
    expect(failed(run.report)).toEqual([]);
    expect(run.code).toBe(0);
    for (const id of ["EVT-UNFILTERED", "EVT-SHAPE-CONTENT", "EVT-BIZSTEP-MATCH", "EVT-AND"]) {
      expect(verdictIn(run.report, id).status, id).toBe("pass");
    }
  });
});

describe.each([
  ["the loaded dataset given, which holds it once", true],
  ["its dataset not given: an eventID names one event, so its repeat is no copy held", false],
] as const)("a sender repeating in every answer an event with an eventID, %s", (_label, withDataset) => {
  let run: Awaited<ReturnType<typeof runForReport>>;
  const repeated = REST[0]!;
  beforeAll(async () => {
    const more = withDataset ? ["--dataset", await datasetOf("once", REST)] : [];
    const name = withDataset ? "repeats" : "repeats-no-dataset";
    run = await runAgainst(name, await startRepository(REST, repeatsFirst), more);
  }, RUN);

  it("fails EVT-UNFILTERED and the filters for an event answered twice", () => {
    expect(run.code).toBe(1);
    const unfiltered = verdictIn(run.report, "EVT-UNFILTERED");
    expect(unfiltered.status).toBe("fail");
    expect(unfiltered.reason).toContain(`answered twice (${eventIdentity(repeated)})`);
    const bizStep = verdictIn(run.report, "EVT-BIZSTEP-MATCH");
    expect(bizStep.status).toBe("fail");
    expect(bizStep.reason).toContain("answered twice");
  });
});

describe("a repository holding one event twice, its dataset not given", () => {
  let run: Awaited<ReturnType<typeof runForReport>>;
  beforeAll(async () => {
    run = await runAgainst("no-dataset", await startRepository([...REST, TWICE, TWICE]));
  }, RUN);

  it("learns the copies from the unfiltered answer, and fails no check for serving both", () => {
    for (const id of ["EVT-UNFILTERED", "EVT-SHAPE-CONTENT", "EVT-BIZSTEP-MATCH", "EVT-AND"]) {
      expect(verdictIn(run.report, id).status, id).toBe("pass");
    }
    expect(failed(run.report).filter((f) => f.includes("answered twice"))).toEqual([]);
  });
});
