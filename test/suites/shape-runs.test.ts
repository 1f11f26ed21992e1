// The shape checks of the events class as a run decides them, against the reference sender using a freedom the
// spec leaves: the unfiltered query refused with 400 (spec 7 shows no status but 413) warns, and discovery reads
// time windows instead; refused with 413, the refusal is the proof; a repository that captures events while it is
// checked fails nothing; a store that keeps milliseconds of a nanosecond dataset warns. Each pass carries the answer
// it judged.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report, RequirementResult } from "../../src/engine/types.ts";
import { generateDataset, writeDatasetFile } from "../../src/generate/index.ts";
import { resolveRunOptions } from "../../src/harness/options.ts";
import { runTracecheck } from "../../src/harness/run.ts";
import { startReference } from "../../src/reference/index.ts";
import type { ReferenceConfig } from "../../src/reference/types.ts";
import { tempDir } from "../support/cli.ts";

const KEY = "shape-runs-key";
const JUDGED = ["EVT-UNFILTERED", "EVT-SHAPE-SCHEMA", "EVT-SHAPE-CONTENT", "EVT-SHAPE-PRECISION"];
// A run of one suite file; the bound only catches a hang on a loaded machine.
const RUN = 120_000;
const DATASET = generateDataset({ seed: 4, events: 60 });

let dir: string;
let remove: () => Promise<void>;
let datasetFile: string;

beforeAll(async () => {
  ({ dir, remove } = await tempDir("shape-runs"));
  datasetFile = path.join(dir, "dataset.json");
  await writeDatasetFile(DATASET, datasetFile);
});
afterAll(() => remove());

interface Judged {
  report: Report;
  exitCode: number;
  /** Events the sender held when the run ended. */
  held: number;
}

/** Runs the shape checks against the reference in `config`, in this process, and reads the report. */
async function judge(label: string, config: Partial<ReferenceConfig>, flags: Record<string, string> = {}) {
  const ref = await startReference({ dataset: DATASET, apiKeys: [KEY], config });
  try {
    const reports = path.join(dir, label);
    const opts = resolveRunOptions(
      {
        target: ref.eventsBase,
        "api-key": KEY,
        suite: "events",
        seed: "1",
        "report-dir": reports,
        quiet: true,
        ...flags,
      },
      {},
      {},
    );
    opts.onlyRequirements = JUDGED;
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l), color: false };
    const { exitCode } = await runTracecheck(opts, io);
    const report = JSON.parse(await readFile(path.join(reports, "report.json"), "utf8")) as Report;
    return { report, exitCode, held: ref.store.size } satisfies Judged;
  } finally {
    await ref.close();
  }
}

function verdict(j: Judged, id: string): RequirementResult {
  const found = j.report.requirements.find((r) => r.id === id);
  if (found === undefined) throw new Error(`no verdict for ${id}`);
  return found;
}

/** The request and status of the exchange a verdict shows first. */
function shown(r: RequirementResult): { url: string | undefined; status: number | undefined } {
  const [first] = r.evidence ?? [];
  return { url: first?.request?.url, status: first?.response?.status };
}

describe("the reference as it is", () => {
  let j: Judged;
  beforeAll(async () => {
    j = await judge("plain", {});
  }, RUN);

  it("passes, EVT-UNFILTERED shown by the unfiltered query itself", () => {
    expect(j.exitCode).toBe(0);
    for (const id of JUDGED) expect(verdict(j, id).status, id).toBe("pass");
    const unfiltered = shown(verdict(j, "EVT-UNFILTERED"));
    expect(new URL(unfiltered.url ?? "").search).toBe("");
    expect(new URL(unfiltered.url ?? "").pathname).toBe("/events");
    expect(unfiltered.status).toBe(200);
    for (const id of ["EVT-SHAPE-SCHEMA", "EVT-SHAPE-CONTENT", "EVT-SHAPE-PRECISION"])
      expect(shown(verdict(j, id)).status, id).toBe(200);
  });
});

describe("the unfiltered query refused with 400", () => {
  let j: Judged;
  beforeAll(async () => {
    j = await judge("unfiltered-400", { refuseUnfiltered: 400 });
  }, RUN);

  it("warns under EVT-UNFILTERED, shown by the 400, and is discovered through time windows", () => {
    expect(j.exitCode).toBe(0);
    const unfiltered = verdict(j, "EVT-UNFILTERED");
    expect(unfiltered.status).toBe("warn");
    expect(unfiltered.reason).toContain("refused with status 400");
    expect(shown(unfiltered).status).toBe(400);
    expect(j.report.baseline?.method).toBe("windows");
    for (const id of ["EVT-SHAPE-SCHEMA", "EVT-SHAPE-CONTENT"])
      expect(verdict(j, id).status, id).toBe("pass");
  });
});

describe("the unfiltered query refused with 413", () => {
  let j: Judged;
  beforeAll(async () => {
    j = await judge("refuse-broad", { broadLimit: 12 });
  }, RUN);

  it("passes EVT-UNFILTERED on the 413 and EVT-SHAPE-SCHEMA on an answer it validated", () => {
    expect(j.exitCode).toBe(0);
    expect(shown(verdict(j, "EVT-UNFILTERED")).status).toBe(413);
    const schema = verdict(j, "EVT-SHAPE-SCHEMA");
    expect(schema.status).toBe("pass");
    expect(shown(schema).status).toBe(200);
  });
});

describe("a repository that captures events while it is checked", () => {
  let j: Judged;
  beforeAll(async () => {
    j = await judge("capturing", { captureEvery: 3 });
  }, RUN);

  it("fails nothing: events first seen late are neither missing nor other content", () => {
    expect(j.held).toBeGreaterThan(DATASET.events.length);
    expect(j.exitCode).toBe(0);
    for (const id of JUDGED) expect(verdict(j, id).status, id).toBe("pass");
    expect(new URL(shown(verdict(j, "EVT-UNFILTERED")).url ?? "").search).toBe("");
  });
});

describe("a store that keeps milliseconds of a nanosecond dataset", () => {
  let j: Judged;
  beforeAll(async () => {
    j = await judge("milliseconds", { milliseconds: true }, { dataset: datasetFile });
  }, RUN);

  it("warns under EVT-SHAPE-PRECISION and passes EVT-SHAPE-CONTENT", () => {
    expect(DATASET.events.some((e) => /\.\d{4,}/.test(String(e.eventTime)))).toBe(true);
    expect(j.exitCode).toBe(0);
    const precision = verdict(j, "EVT-SHAPE-PRECISION");
    expect(precision.status).toBe("warn");
    expect(precision.reason).toContain("eventTime differs below the millisecond");
    for (const id of ["EVT-SHAPE-CONTENT", "EVT-UNFILTERED", "EVT-SHAPE-SCHEMA"])
      expect(verdict(j, id).status, id).toBe("pass");
  });
});
