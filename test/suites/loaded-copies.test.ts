// With the dataset known (--dataset), each loaded event must be found served (EVT-UNFILTERED) and compared with its
// served copy (EVT-SHAPE-CONTENT). An event loaded without eventID is known by a hash of its content, so the harness
// must find it also where a sender wrote it its own legitimate way: with an eventID of its own added on capture
// (the spec says nothing of eventID), or with its eventTime kept to fewer digits, as PostgreSQL keeps microseconds
// and .NET ticks of 100 ns (the spec states no precision: EVT-SHAPE-PRECISION warns, a SHOULD). A sender that drops
// a loaded event still fails.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Report, RequirementResult } from "../../src/engine/types.ts";
import { generateDataset, writeDatasetFile } from "../../src/generate/index.ts";
import { resolveRunOptions } from "../../src/harness/options.ts";
import { runTracecheck } from "../../src/harness/run.ts";
import {
  addUnits,
  type EpcisEvent,
  eventIdentity,
  formatInstant,
  parseInstant,
} from "../../src/model/index.ts";
import { tempDirOfFile } from "../support/cli.ts";
import { startRepository } from "../support/event-repository.ts";

// A run of the events suite's shape checks; the bound only catches a hang on a loaded machine.
const RUN = 120_000;
const JUDGED = ["EVT-UNFILTERED", "EVT-SHAPE-CONTENT", "EVT-SHAPE-PRECISION"];
const DATASET = generateDataset({ seed: 4, events: 60 });
/** The dataset's events as loaded: without eventID. */
const LOADED: EpcisEvent[] = DATASET.events.map(({ eventID: _, ...rest }) => rest as EpcisEvent);

const dir = tempDirOfFile("loaded-copies");
let datasetFile: string;

beforeAll(async () => {
  datasetFile = path.join(dir(), "dataset.json");
  await writeDatasetFile({ ...DATASET, events: LOADED }, datasetFile);
});

interface Judged {
  exitCode: number;
  verdicts: Map<string, RequirementResult>;
}

/** Runs the shape checks against a repository serving `served`, with the loaded dataset given, in this process. */
async function judge(label: string, served: EpcisEvent[]): Promise<Judged> {
  const repository = await startRepository(served);
  try {
    const reports = path.join(dir(), label);
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

/** The run failed EVT-UNFILTERED naming the first loaded event alone as missing. */
function expectMissingFirstOnly(j: Judged): void {
  expect(j.exitCode).toBe(1);
  const unfiltered = j.verdicts.get("EVT-UNFILTERED");
  expect(unfiltered?.status).toBe("fail");
  expect(unfiltered?.evidence[0]?.missing).toEqual([eventIdentity(LOADED[0]!)]);
}

describe("the same sender, one loaded event dropped", () => {
  let j: Judged;
  beforeAll(async () => {
    j = await judge("own-ids-dropped", LOADED.map(withOwnId).slice(1));
  }, RUN);

  it("fails EVT-UNFILTERED naming that event alone", () => {
    expectMissingFirstOnly(j);
    expect(j.verdicts.get("EVT-SHAPE-CONTENT")?.status).toBe("pass");
  });
});

/** `written` as a store keeping `digits` fractional digits holds it: rounded half up, or cut, written in UTC. */
function kept(written: string, digits: number, how: "rounded" | "cut"): string {
  const at = parseInstant(written);
  if (at.fraction.length <= digits) return written;
  const cut = { epochSeconds: at.epochSeconds, fraction: at.fraction.slice(0, digits) };
  const up = how === "rounded" && at.fraction.charAt(digits) >= "5";
  return formatInstant(up ? addUnits(cut, 1n, digits) : cut);
}

for (const [digits, how] of [
  [6, "rounded"],
  [6, "cut"],
  [7, "rounded"],
] as const) {
  describe(`a store that keeps ${digits} fractional digits, ${how}`, () => {
    let j: Judged;
    const served = LOADED.map((e) => ({ ...e, eventTime: kept(String(e.eventTime), digits, how) }));
    beforeAll(async () => {
      j = await judge(`digits-${digits}-${how}`, served);
    }, RUN);

    it("passes EVT-UNFILTERED and EVT-SHAPE-CONTENT, and warns under EVT-SHAPE-PRECISION", () => {
      const changed = served.filter((e, i) => e.eventTime !== LOADED[i]!.eventTime).length;
      expect(changed).toBeGreaterThan(0);
      expect(j.exitCode).toBe(0);
      expect(j.verdicts.get("EVT-UNFILTERED")?.status).toBe("pass");
      expect(j.verdicts.get("EVT-SHAPE-CONTENT")?.status).toBe("pass");
      const precision = j.verdicts.get("EVT-SHAPE-PRECISION");
      expect(precision?.status).toBe("warn");
      expect(precision?.reason).toContain("eventTime differs below the millisecond");
    });
  });
}

describe("a store that keeps 6 digits, one loaded event a millisecond off", () => {
  let j: Judged;
  beforeAll(async () => {
    const served = LOADED.map((e) => ({ ...e, eventTime: kept(String(e.eventTime), 6, "cut") }));
    const first = parseInstant(String(LOADED[0]!.eventTime));
    served[0] = { ...served[0]!, eventTime: formatInstant(addUnits(first, 1n, 3)) };
    j = await judge("digits-off", served);
  }, RUN);

  it("fails EVT-UNFILTERED naming that event: a time a millisecond away is other content", () => {
    expectMissingFirstOnly(j);
  });
});
