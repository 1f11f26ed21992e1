// A correct sender is never failed: the reference without faults over every dataset shape (one seed each here,
// more under npm run prove) and in every named configuration comes out with exit 0 and no fail, warn or error.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateDataset, writeDatasetFile } from "../../src/generate/index.ts";
import { QUICK_EFFORT } from "../../src/prove/effort.ts";
import { defaultConcurrency } from "../../src/prove/pool.ts";
import { type NoFalseVerdicts, runNoFalseVerdicts } from "../../src/prove/run-matrix.ts";
import { RunPool } from "../../src/prove/run-pool.ts";
import { DATASET_SHAPES } from "../../src/prove/shapes.ts";
import { REFERENCE_CONFIGURATIONS } from "../../src/reference/configurations.ts";
import { tempDir } from "../support/cli.ts";

let result: NoFalseVerdicts;
let work: Awaited<ReturnType<typeof tempDir>>;
/** One pool for every run of this file: a worker pays its start-up once. */
let pool: RunPool;
const RUN_BOUND_MS = 5 * 60_000;

beforeAll(async () => {
  work = await tempDir("no-false-verdicts");
  pool = new RunPool({ size: defaultConcurrency(), workDir: work.dir, runTimeoutMs: RUN_BOUND_MS });
  result = await runNoFalseVerdicts({
    effort: QUICK_EFFORT,
    concurrency: defaultConcurrency(),
    workDir: work.dir,
    runTimeoutMs: RUN_BOUND_MS,
    pool,
  });
}, 15 * 60_000);

afterAll(async () => {
  pool?.close();
  await work?.remove();
});

function row(label: string) {
  const found = result.rows.find((r) => r.label.startsWith(label));
  if (!found) throw new Error(`no run labelled ${label}`);
  return found;
}

function expectClean(label: string, expectedWarnings: readonly string[] = []) {
  const r = row(label);
  expect({ label: r.label, note: r.note }).toEqual({ label: r.label, note: "" });
  expect(r.exitCode).toBe(0);
  expect([...r.failed, ...r.errored]).toEqual([]);
  expect([...r.warned].sort()).toEqual([...expectedWarnings].sort());
}

describe("no false positive on any dataset shape", () => {
  for (const shape of DATASET_SHAPES) {
    test(`${shape.name}: ${shape.description}`, () => expectClean(`shape-${shape.name}-`));
  }
});

describe("no false positive on a correct but unusual sender", () => {
  for (const c of REFERENCE_CONFIGURATIONS) {
    test(`${c.name}: ${c.description}`, () => expectClean(`config-${c.name}`, c.expectedWarnings));
  }
});

test("every run used its own seed", () => {
  const seeds = result.rows.map((r) => r.args[r.args.indexOf("--seed") + 1]);
  expect(new Set(seeds).size).toBe(seeds.length);
});

// Once, EQ_bizStep's forms check drew two distinct steps from a dataset that had one, and fast-check looped for
// ever: the run never ended. Any sender whose events share a single bizStep must finish and pass.
describe("no false positive and no hang when every event has the same bizStep", () => {
  test(
    "EVT-BIZSTEP-FORMS passes and the run exits 0",
    async () => {
      const ds = generateDataset({ seed: 77, events: 30 });
      const file = path.join(work.dir, "one-step.json");
      await writeDatasetFile({ ...ds, events: ds.events.map((e) => ({ ...e, bizStep: "shipping" })) }, file);
      const outcome = await pool.run({
        label: "one-step",
        args: ["--dataset", file, "--suite", "events", "--runs", "5", "--seed", "3"],
      });
      expect(outcome.timedOut).toBe(false);
      const broken = outcome.report?.requirements.filter((r) => ["fail", "warn", "error"].includes(r.status));
      expect(broken?.map((r) => `${r.id} ${r.status}: ${r.reason}`)).toEqual([]);
      expect(outcome.report?.requirements.find((r) => r.id === "EVT-BIZSTEP-FORMS")?.status).toBe("pass");
      expect(outcome.exitCode).toBe(0);
    },
    RUN_BOUND_MS + 60_000,
  );
});
