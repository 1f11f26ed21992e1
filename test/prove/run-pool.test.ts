// One proving worker runs many tracecheck runs in its one process (src/prove/worker.ts), its suite files loaded once. Each
// run must still get its own verdicts: a faulted run between two clean ones, on other seeds and another class,
// fails exactly where its fault says, and the clean runs after it pass; a run may check only named requirements.
import { afterAll, beforeAll, expect, test } from "vitest";
import type { TracecheckOutcome } from "../../src/prove/outcome.ts";
import { RunPool } from "../../src/prove/run-pool.ts";
import { tempDir } from "../support/cli.ts";

const COMMON = ["--runs", "5", "--events", "60"];
let outcomes: TracecheckOutcome[];
let work: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  work = await tempDir("run-pool");
  const pool = new RunPool({ size: 1, workDir: work.dir, runTimeoutMs: 120_000 });
  try {
    outcomes = await pool.runAll([
      { label: "clean-events", args: [...COMMON, "--seed", "1", "--suite", "events"] },
      {
        label: "faulted-events",
        args: [...COMMON, "--seed", "2", "--suite", "events", "--faults", "lt-event-inclusive"],
      },
      { label: "clean-again", args: [...COMMON, "--seed", "3", "--suite", "events"] },
      {
        label: "faulted-auth",
        args: [...COMMON, "--seed", "4", "--suite", "auth", "--faults", "auth-wrong-accepted"],
      },
      { label: "clean-resolver", args: [...COMMON, "--seed", "5", "--suite", "resolver,auth"] },
      {
        label: "only-named",
        args: [...COMMON, "--seed", "6", "--suite", "events", "--faults", "lt-event-inclusive"],
        onlyRequirements: ["EVT-TIME-LT-EVENT"],
      },
    ]);
  } finally {
    pool.close();
  }
}, 300_000);

afterAll(async () => {
  await work?.remove();
});

const failed = (o: TracecheckOutcome) =>
  (o.report?.requirements ?? []).filter((r) => r.status === "fail").map((r) => r.id);
const classes = (o: TracecheckOutcome) =>
  new Set((o.report?.requirements ?? []).filter((r) => r.status !== "skip").map((r) => r.class));

test("each run in one worker gets its own verdicts: the faults fail where they say, the clean runs pass", () => {
  const [clean, faulted, again, auth, resolver] = outcomes;
  for (const o of [clean, again, resolver]) {
    expect({ label: o!.label, exit: o!.exitCode, failed: failed(o!) }).toEqual({
      label: o!.label,
      exit: 0,
      failed: [],
    });
  }
  expect(faulted!.exitCode).toBe(1);
  expect(failed(faulted!)).toEqual(["EVT-TIME-LT-EVENT"]);
  expect(auth!.exitCode).toBe(1);
  expect(failed(auth!).every((id) => id.startsWith("AUTH-"))).toBe(true);
  expect(failed(auth!).length).toBeGreaterThan(0);
});

test("each run checks only its own classes and reports its own seed", () => {
  expect([...classes(outcomes[0]!)]).toEqual(["events"]);
  expect([...classes(outcomes[3]!)]).toEqual(["auth"]);
  expect([...classes(outcomes[4]!)].sort()).toEqual(["auth", "resolver"]);
  expect(outcomes.map((o) => o.report?.seed)).toEqual([1, 2, 3, 4, 5, 6]);
});

test("a run told to check only some requirements runs the suite files that record them, and skips the rest", () => {
  const only = outcomes[5]!;
  expect(only.exitCode).toBe(1);
  expect(failed(only)).toEqual(["EVT-TIME-LT-EVENT"]);
  const requirements = only.report?.requirements ?? [];
  const checked = requirements.filter((r) => r.status !== "skip").map((r) => r.id);
  expect(checked).toContain("EVT-TIME-LT-EVENT");
  // The file that records EVT-TIME-LT-EVENT records the other time bounds too; files of other filters do not run.
  expect(checked.every((id) => id.startsWith("EVT-TIME-"))).toBe(true);
  const shape = requirements.find((r) => r.id === "EVT-SHAPE-SCHEMA");
  expect(shape?.status).toBe("skip");
  expect(shape?.reason).toBe("not among the requirements this proving run checks");
});
