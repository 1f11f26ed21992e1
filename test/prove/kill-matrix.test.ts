// The kill matrix as an expected-results list, asserted both ways: each named fault run is caught by a requirement
// it names (exit 1, or its warning for a requirement below MUST) and fails no requirement it does not name (one
// defect, one failure: what it takes away from other checks blocks them), and the reference without faults exits 0
// with no fail, no warn and no error. npm test runs a sample of the catalogue that reaches every class and every
// way a fault is run and judged; `npm run prove` runs every fault. Quick effort, but each faulted reference is
// checked with every class, so that a second failure anywhere shows.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadRegistry } from "../../src/engine/registry.ts";
import { type Effort, FULL_EFFORT, QUICK_EFFORT } from "../../src/prove/effort.ts";
import { faultRun, type KillMatrix, killMatrixHolds } from "../../src/prove/kill-matrix.ts";
import { defaultConcurrency } from "../../src/prove/pool.ts";
import { faultSample, faultTraits, runKillMatrix } from "../../src/prove/run-matrix.ts";
import { FAULTS } from "../../src/reference/faults.ts";
import { tempDir } from "../support/cli.ts";

const MATRIX_BOUND_MS = 20 * 60_000;
const RUN_BOUND_MS = 5 * 60_000;

/**
 * Quick sizes, every class: checked with only the suite files of its own requirements, a faulted reference could
 * fail no other requirement, and a second failure of the same defect would go unseen.
 */
const SAMPLE_EFFORT: Readonly<Effort> = { ...QUICK_EFFORT, namedClassesOnly: false };

const registry = await loadRegistry();
const SAMPLE = faultSample(FAULTS, registry);
let matrix: KillMatrix;
let work: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  work = await tempDir("kill-matrix");
  matrix = await runKillMatrix(SAMPLE, registry, {
    effort: SAMPLE_EFFORT,
    concurrency: defaultConcurrency(),
    workDir: work.dir,
    runTimeoutMs: RUN_BOUND_MS,
  });
}, MATRIX_BOUND_MS);

afterAll(async () => {
  await work?.remove();
});

test("the catalogue is large enough to mean something, and every fault names known requirements", () => {
  expect(FAULTS.length).toBeGreaterThanOrEqual(40);
  expect(new Set(FAULTS.map((f) => f.id)).size).toBe(FAULTS.length);
  for (const f of FAULTS) {
    expect(f.violates.length, f.id).toBeGreaterThan(0);
    for (const id of f.violates) expect(registry.byId.has(id), `${f.id} names ${id}`).toBe(true);
  }
});

test("the sample reaches every class and every way of running and judging a fault that the catalogue holds", () => {
  const traits = (faults: typeof FAULTS) =>
    [...new Set(faults.flatMap((f) => faultTraits(f, registry)))].sort();
  expect(traits(SAMPLE)).toEqual(traits(FAULTS));
  // Every class a fault is checked in, so that no class goes unproven in npm test.
  const classes = new Set(FAULTS.flatMap((f) => f.violates.map((id) => registry.byId.get(id)?.class)));
  for (const c of classes) expect(traits(SAMPLE), `class ${c}`).toContain(`class ${c}`);
  // A sample: faults of the catalogue, each once, in its order, and fewer than all of them.
  const ids = FAULTS.map((f) => f.id);
  const at = SAMPLE.map((f) => ids.indexOf(f.id));
  expect(at.every((n) => n >= 0)).toBe(true);
  expect(at).toEqual([...new Set(at)].sort((a, b) => a - b));
  expect(SAMPLE.length).toBeLessThan(FAULTS.length);
});

test("npm run prove can run every fault of the catalogue, each with every class", () => {
  for (const f of FAULTS) {
    const run = faultRun(f, registry, FULL_EFFORT);
    expect(run.args, f.id).toEqual(expect.arrayContaining(["--faults", f.id]));
    expect(run.args, f.id).not.toContain("--suite");
    expect(run.onlyRequirements, f.id).toBeUndefined();
  }
});

test("the reference without faults exits 0 with no fail, no warn and no error", () => {
  const { clean } = matrix;
  expect(clean.note).toBe("");
  expect(clean.exitCode).toBe(0);
  expect(clean.failed).toEqual([]);
  expect(clean.warned).toEqual([]);
  expect(clean.errored).toEqual([]);
});

describe("every fault of the sample is caught by a requirement it names, and fails none it does not name", () => {
  for (const fault of SAMPLE) {
    test(`${fault.id} (${fault.violates.join(", ")})`, () => {
      const row = matrix.rows.find((r) => r.fault === fault.id);
      expect(row, `${fault.id} was not run`).toBeDefined();
      expect({ verdict: row!.verdict, note: row!.note }).toEqual({ verdict: "caught", note: "" });
      // Every class was checked: the same defect failing another requirement would show here.
      expect(row!.alsoFailed, `${fault.id} failed requirements it does not name`).toEqual([]);
      expect(row!.failed.every((id) => fault.violates.includes(id))).toBe(true);
      // A MUST fault fails the run; a fault of a SHOULD requirement is caught by its warning, with exit 0.
      // (Judged with --definition where a requirement is MUST only against one; see needsDefinition.)
      const must = fault.violates.some((id) => {
        const req = registry.byId.get(id);
        return req?.level === "MUST" || req?.definitionLevel === "MUST";
      });
      expect(row!.exitCode).toBe(must ? 1 : 0);
      expect(row!.caughtBy.length).toBeGreaterThan(0);
      for (const id of row!.caughtBy) expect(fault.violates).toContain(id);
    });
  }
});

test("the matrix accounts for every fault of the sample once, and holds", () => {
  expect(matrix.rows.map((r) => r.fault)).toEqual(SAMPLE.map((f) => f.id));
  expect(matrix.caught).toBe(matrix.rows.filter((r) => r.verdict === "caught").length);
  expect(matrix.alsoFailed).toBe(0);
  expect(killMatrixHolds(matrix)).toBe(true);
});
