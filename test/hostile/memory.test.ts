// A hostile target cannot take the run down through memory: against pages that never end, large pages that never
// end and a body of a gigabyte, `tracecheck run` (a process of its own, as users run it) stays under a bound of
// resident memory, ends the runaway answer at the budget its flags set, exits 1 or 2 and writes its report. The
// budgets are small so that each run takes seconds; what the runs show is that memory does not grow with them.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Report, RequirementResult } from "../../src/engine/types.ts";
import { runMeasured } from "../../src/prove/hostile-runner.ts";
import {
  type HostileTarget,
  type Misbehaviour,
  type Scope,
  startHostileTarget,
} from "../../src/prove/hostile-server.ts";
import { PEAK_RSS_BOUND_BYTES } from "../../src/prove/hostile-table.ts";
import { tempDir } from "../support/cli.ts";

const KEY = "memory-KEY-3f9a61c2e7";
/** The bound on one run; well above what its budgets imply, far below a hang. */
const RUN_BOUND_MS = 240_000;
const MIB = 1024 * 1024;
/** The body cap of the harness's HTTP client (src/http/options.ts), plus what the sockets hold in flight. */
const BODY_CAP_BYTES = 16 * MIB;
const IN_FLIGHT_SLACK_BYTES = 16 * MIB;

interface Case {
  name: string;
  misbehaviour: Misbehaviour;
  scope: Scope;
  flags: string[];
  pageBytes?: number;
}

const CASES = {
  // Every filtered query is answered page after page, each linking to a page never read: the suites' readers.
  pages: {
    name: "pages that never end",
    misbehaviour: "endless-pages",
    scope: "filtered",
    flags: ["--max-pages", "3"],
  },
  // Every GET /events, the baseline's unfiltered query first, is 4 MiB pages of new events without end: 128 MiB
  // of them, which held as they came (bytes, text and parsed) would pass the bound, go through discovery before
  // the byte budget ends the answer.
  large: {
    name: "large pages that never end",
    misbehaviour: "endless-large-pages",
    scope: "events",
    pageBytes: 4 * MIB,
    flags: ["--max-answer-bytes", String(128 * MIB)],
  },
  // Every EPC query is answered with a body of a gigabyte, eight at a time.
  huge: { name: "a body of a gigabyte", misbehaviour: "huge-body", scope: "epc", flags: [] },
} satisfies Record<string, Case>;

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Peak resident memory of the whole process, every thread included, as it wrote it when it exited. */
  peakBytes: number | undefined;
  report: Report | undefined;
  target: HostileTarget;
}

const ran = new Map<string, Ran>();
const targets = new Set<HostileTarget>();
let work: Awaited<ReturnType<typeof tempDir>>;

async function runAgainst(c: Case, label: string): Promise<Ran> {
  const target = await startHostileTarget({
    apiKey: KEY,
    seed: 11,
    events: 40,
    ...(c.pageBytes === undefined ? {} : { pageBytes: c.pageBytes }),
  });
  targets.add(target);
  target.misbehave(c.misbehaviour, c.scope);
  const reportDir = path.join(work.dir, label);
  const args = ["run", "--target", target.origin, "--api-key", KEY, "--suite", "events", "--runs", "1"];
  args.push("--seed", "7", "--timeout", "10000", "--report-dir", reportDir, "--quiet", ...c.flags);
  // A run still going at the bound is killed there, so that no process outlives the tests.
  const run = await runMeasured(args, {
    reportDir,
    peakFile: path.join(work.dir, `${label}.peak`),
    boundMs: RUN_BOUND_MS,
  });
  return {
    code: run.exitCode,
    signal: run.signal,
    stderr: run.stderr,
    peakBytes: run.peakAtExit ? run.peakRssBytes : undefined,
    report: run.report,
    target,
  };
}

beforeAll(async () => {
  work = await tempDir("memory");
  // At once: each run is mostly the target's time and the harness's start; memory is per process.
  await Promise.all(
    Object.entries(CASES).map(async ([label, c]) => {
      ran.set(label, await runAgainst(c, label));
    }),
  );
}, RUN_BOUND_MS + 30_000);

afterAll(async () => {
  await Promise.all([...targets].map((t) => t.close()));
  await work?.remove();
});

function result(label: keyof typeof CASES): Ran {
  const r = ran.get(label);
  if (!r)
    throw new Error(`The run against ${CASES[label].name} did not happen; see the beforeAll error above.`);
  return r;
}

function requirement(r: Ran, id: string): RequirementResult {
  const found = r.report?.requirements.find((q) => q.id === id);
  if (!found) throw new Error(`${id} is not in the report.`);
  return found;
}

/** Ended by itself with a status the contract knows, under the memory bound, its report written. */
function expectSurvived(r: Ran): void {
  expect(r.signal, `killed by ${r.signal}: ${r.stderr}`).toBeNull();
  expect([1, 2], r.stderr).toContain(r.code);
  expect(r.stderr).not.toMatch(/heap out of memory|harness error|Unhandled|TypeError|RangeError/);
  expect(r.peakBytes, "the process wrote no peak").toBeDefined();
  const mib = Math.round((r.peakBytes ?? 0) / MIB);
  expect(r.peakBytes, `peak resident memory ${mib} MiB`).toBeLessThan(PEAK_RSS_BOUND_BYTES);
  expect(r.report, "no report.json").toBeDefined();
  expect(r.stderr).not.toContain(KEY);
}

describe("a target that would take the run down through memory", () => {
  test("with pages that never end: EVT-PAGING fails at the page budget, naming it and its flag", () => {
    const r = result("pages");
    expectSurvived(r);
    const paging = requirement(r, "EVT-PAGING");
    expect(paging.status).toBe("fail");
    expect(paging.reason).toMatch(/Reading stopped after 3 pages.*--max-pages 3/);
    // The evidence is the last page read, whose Link header goes on.
    const shown = paging.evidence.find((e) => e.request !== undefined);
    expect(shown?.request?.url).toMatch(/hostile-next=3$/);
    expect(shown?.response?.headers?.link).toMatch(/hostile-next=4>; rel="next"/);
  });

  test("with large pages that never end: the answer is spooled, not held, and ends at the byte budget", () => {
    const r = result("large");
    expectSurvived(r);
    // The baseline's unfiltered query is the runaway answer: no event can be found, and the run says why.
    expect(r.code).toBe(2);
    expect(r.report?.verdict).toBe("incomplete");
    expect(r.report?.incompleteReason).toMatch(
      new RegExp(
        `the unfiltered query failed: Reading stopped after \\d+ pages .*--max-answer-bytes ${128 * MIB}`,
      ),
    );
  });

  test("with a body of a gigabyte: the body cap holds, and so does memory", () => {
    const r = result("huge");
    expectSurvived(r);
    expect(["error", "fail"]).toContain(requirement(r, "EVT-EPC-EPCLIST").status);
    expect(r.target.hugeResponses()).toBeGreaterThan(0);
    expect(r.target.hugeBytesSent()).toBeLessThan(BODY_CAP_BYTES + IN_FLIGHT_SLACK_BYTES);
  });
});
