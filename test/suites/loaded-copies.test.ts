// With the dataset known (--dataset), each loaded event must be found served (EVT-UNFILTERED) and compared with its
// served copy (EVT-SHAPE-CONTENT). An event loaded without eventID is known by a hash of its content, so the harness
// must find it also where a sender wrote it its own legitimate way: with an eventID of its own added on capture
// (the spec says nothing of eventID). A sender that drops a loaded event still fails.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report, RequirementResult } from "../../src/engine/types.ts";
import { generateDataset, writeDatasetFile } from "../../src/generate/index.ts";
import { resolveRunOptions } from "../../src/harness/options.ts";
import { runTracecheck } from "../../src/harness/run.ts";
import { type EpcisEvent, eventIdentity } from "../../src/model/index.ts";
import { tempDir } from "../support/cli.ts";
import { startRepository } from "../support/event-repository.ts";

// A run of the events suite's shape checks; the bound only catches a hang on a loaded machine.
const RUN = 120_000;
const JUDGED = ["EVT-UNFILTERED", "EVT-SHAPE-CONTENT", "EVT-SHAPE-PRECISION"];
const DATASET = generateDataset({ seed: 4, events: 60 });
/** The dataset's events as loaded: without eventID. */
const LOADED: EpcisEvent[] = DATASET.events.map(({ eventID: _, ...rest }) => rest as EpcisEvent);

let dir: string;
let remove: () => Promise<void>;
let datasetFile: string;

beforeAll(async () => {
  ({ dir, remove } = await tempDir("loaded-copies"));
  datasetFile = path.join(dir, "dataset.json");
  await writeDatasetFile({ ...DATASET, events: LOADED }, datasetFile);
});
afterAll(() => remove());

interface Judged {
  exitCode: number;
  verdicts: Map<string, RequirementResult>;
}

/** Runs the shape checks against a repository serving `served`, with the loaded dataset given, in this process. */
async function judge(label: string, served: EpcisEvent[]): Promise<Judged> {
  const repository = await startRepository(served);
  try {
    const reports = path.join(dir, label);
    const opts = resolveRunOptions(
      {
        target: repository.origin,
        suite: "events",
        seed: "1",
        dataset: datasetFile,
        "report-dir": reports,
        quiet: true,
      },
      {},
      {},
    );
    opts.onlyRequirements = JUDGED;
    const io = { out: () => {}, err: () => {}, color: false };
    const { exitCode } = await runTracecheck(opts, io);
    const report = JSON.parse(await readFile(path.join(reports, "report.json"), "utf8")) as Report;
    return { exitCode, verdicts: new Map(report.requirements.map((r) => [r.id, r])) };
  } finally {
    await repository.close();
  }
}

/** An eventID a sender gives an event when it captures it: its own, unrelated to the content. */
function withOwnId(e: EpcisEvent, i: number): EpcisEvent {
  return { eventID: `urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, ...e };
}

describe("a sender that gives every event loaded without eventID one of its own", () => {
  let j: Judged;
  beforeAll(async () => {
    j = await judge("own-ids", LOADED.map(withOwnId));
  }, RUN);

  it("passes: each loaded event is found served, and the added eventID is no other content", () => {
    expect(LOADED.every((e) => e.eventID === undefined)).toBe(true);
    expect(j.exitCode).toBe(0);
    for (const id of JUDGED) expect(j.verdicts.get(id)?.status, id).toBe("pass");
  });
});

describe("the same sender, one loaded event dropped", () => {
  let j: Judged;
  beforeAll(async () => {
    j = await judge("own-ids-dropped", LOADED.map(withOwnId).slice(1));
  }, RUN);

  it("fails EVT-UNFILTERED naming that event alone", () => {
    expect(j.exitCode).toBe(1);
    const unfiltered = j.verdicts.get("EVT-UNFILTERED");
    expect(unfiltered?.status).toBe("fail");
    expect(unfiltered?.evidence[0]?.missing).toEqual([eventIdentity(LOADED[0]!)]);
    expect(j.verdicts.get("EVT-SHAPE-CONTENT")?.status).toBe("pass");
  });
});
