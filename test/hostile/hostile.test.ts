// `tracecheck run` against a target that misbehaves: it must finish within a bound its options set, report the
// requirements concerned as error or fail with evidence, check the rest, keep the key on the target's origin,
// stay within a bounded resident memory, and exit 1 or 2; never crash, never hang. What only shows that the target
// could not be asked (no answer, a cut-short one, a standing 429) is undecided, never a failure: such runs exit 2.
// The runs go four at a time in beforeAll, in worker processes whose peak memory is measured; each test judges
// one.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RequirementResult } from "../../src/engine/types.ts";
import {
  type HostileTarget,
  type Misbehaviour,
  type Scope,
  startHostileTarget,
} from "../../src/prove/hostile-server.ts";
import { QUICK_SLOW_TIMEOUT_MS } from "../../src/prove/hostile-table.ts";
import type { TracecheckOutcome } from "../../src/prove/outcome.ts";
import { mapPool } from "../../src/prove/pool.ts";
import { RunPool } from "../../src/prove/run-pool.ts";
import { tempDir } from "../support/cli.ts";

/** Distinctive, so that finding it anywhere it should not be is unambiguous. */
const KEY = "hostile-KEY-5b1e7c0d93f4a2";
/** Per request, where the misbehaviour is slowness: the quick hostile matrix's own bound (QUICK_SLOW_TIMEOUT_MS). */
const SLOW_TIMEOUT_MS = QUICK_SLOW_TIMEOUT_MS;
/** Per request otherwise: long enough that a loaded machine never turns a correct answer into a timeout. */
const TIMEOUT_MS = 5000;
/** Runs at once. */
const AT_ONCE = 4;
/** The bound on one whole run; well above what the options imply, far below a hang. */
const RUN_BOUND_MS = 150_000;
/** The body cap of the harness's HTTP client (src/http/options.ts), plus what the sockets hold in flight. */
const BODY_CAP_BYTES = 16 * 1024 * 1024;
const IN_FLIGHT_SLACK_BYTES = 16 * 1024 * 1024;
/** No target may take the harness's resident memory past this (the project's bound on a hostile run). */
const PEAK_RSS_BOUND_BYTES = 600 * 1024 * 1024;
/** Seconds a rate-limited run may spend waiting on Retry-After: small, so that the case ends quickly. */
const RETRY_BUDGET_SECONDS = "2";

/** Requirements of GET /events whose checks send filtered queries. */
const FILTER_REQUIREMENTS = ["EVT-TIME-LT-RECORD", "EVT-EPC-EPCLIST", "EVT-BIZSTEP-MATCH", "EVT-BIZLOCATION"];
/** Requirements whose checks filter by MATCH_anyEPC, and one whose checks never do. */
const EPC_REQUIREMENTS = ["EVT-EPC-EPCLIST", "EVT-EPC-FORMS"];
const NOT_EPC_REQUIREMENT = "EVT-TIME-LT-RECORD";
/** Requirements of the resolver that follow the links of a link set. */
const LINK_REQUIREMENTS = ["RES-EPCIS-LINK", "RES-MASTERDATA-LINK"];

interface Case {
  name: string;
  misbehaviour: Misbehaviour;
  scope: Scope;
  suite: string;
  timeoutMs?: number;
  /** Options of the run beyond the common ones. */
  extra?: string[];
}

// The cases that spend their time waiting (timeouts, Retry-After, a body read up to its cap) come first, so
// that they overlap rather than end the run one after another.
const CASES: Case[] = [
  { name: "never answers anything", misbehaviour: "silent", scope: "all", suite: "events", timeoutMs: 500 },
  {
    name: "answers 429 with Retry-After",
    misbehaviour: "status-429",
    scope: "epc",
    suite: "events,resolver",
  },
  {
    name: "never answers an EPC query",
    misbehaviour: "silent",
    scope: "epc",
    suite: "events,resolver",
    timeoutMs: SLOW_TIMEOUT_MS,
  },
  {
    name: "answers one byte a second",
    misbehaviour: "trickle",
    scope: "epc",
    suite: "events,resolver",
    timeoutMs: SLOW_TIMEOUT_MS,
  },
  { name: "sends a 1 GB body", misbehaviour: "huge-body", scope: "epc", suite: "events,resolver" },
  { name: "sends invalid JSON", misbehaviour: "invalid-json", scope: "filtered", suite: "events,resolver" },
  {
    name: "labels JSON as text/html",
    misbehaviour: "wrong-content-type",
    scope: "all",
    suite: "events,resolver",
  },
  { name: "resets the connection mid-body", misbehaviour: "reset", scope: "epc", suite: "events,resolver" },
  {
    name: "redirects queries in a loop",
    misbehaviour: "redirect-loop",
    scope: "filtered",
    suite: "events,resolver",
  },
  {
    name: "redirects the resolver in a loop",
    misbehaviour: "redirect-loop",
    scope: "resolver",
    suite: "resolver,events",
  },
  {
    name: "redirects the resolver to another origin",
    misbehaviour: "redirect-off-origin",
    scope: "resolver",
    suite: "resolver,events",
  },
  {
    name: "redirects queries to another origin",
    misbehaviour: "redirect-off-origin",
    scope: "filtered",
    suite: "events,resolver",
  },
  { name: "answers 500", misbehaviour: "status-500", scope: "filtered", suite: "events,resolver" },
  {
    name: "links to another origin from its link sets",
    misbehaviour: "linkset-off-origin",
    scope: "resolver",
    suite: "resolver,events",
  },
  {
    name: "links to an unreachable address from its link sets",
    misbehaviour: "linkset-unreachable",
    scope: "resolver",
    suite: "resolver,events",
  },
  { name: "pages in a loop", misbehaviour: "paging-loop", scope: "filtered", suite: "events,resolver" },
  {
    name: "answers 429 with Retry-After to everything",
    misbehaviour: "status-429",
    scope: "all",
    suite: "events,resolver",
    extra: ["--retry-budget", RETRY_BUDGET_SECONDS],
  },
  {
    name: "sends its status line too late",
    misbehaviour: "slow-headers",
    scope: "epc",
    suite: "events,resolver",
    timeoutMs: SLOW_TIMEOUT_MS,
  },
  {
    name: "never answers the resolver while GET /events answers",
    misbehaviour: "silent",
    scope: "resolver",
    suite: "resolver,events",
    timeoutMs: SLOW_TIMEOUT_MS,
  },
  { name: "serves an HTML page", misbehaviour: "html-body", scope: "filtered", suite: "events,resolver" },
  {
    name: "links its next page to another origin",
    misbehaviour: "paging-off-origin",
    scope: "filtered",
    suite: "events,resolver",
  },
  {
    name: "redirects every request but discovery to another origin, query and all",
    misbehaviour: "redirect-off-origin",
    scope: "all-but-discovery",
    suite: "events,resolver,masterdata,auth,core-events,workflow",
  },
];

interface Ran {
  outcome: TracecheckOutcome;
  target: HostileTarget;
}

const ran = new Map<string, Ran>();
let work: Awaited<ReturnType<typeof tempDir>>;
let pool: RunPool;

beforeAll(
  async () => {
    work = await tempDir("hostile");
    // Four at once: most of a hostile run is waiting on the target, not working. Each worker process reports its
    // peak memory so far, which bounds the peak of every run it made (memory.test.ts measures the runs that push
    // memory hardest each in a process of its own).
    pool = new RunPool({ size: AT_ONCE, workDir: work.dir, runTimeoutMs: RUN_BOUND_MS });
    await mapPool(CASES, AT_ONCE, async (c, n) => {
      const target = await startHostileTarget({ apiKey: KEY, seed: 11, events: 40 });
      ran.set(c.name, { target, outcome: await runAgainst(target, c, n) });
    });
  },
  RUN_BOUND_MS * Math.ceil(CASES.length / AT_ONCE),
);

afterAll(async () => {
  pool?.close();
  await Promise.all([...ran.values()].map((r) => r.target.close()));
  await work?.remove();
});

async function runAgainst(target: HostileTarget, c: Case, n: number): Promise<TracecheckOutcome> {
  target.misbehave(c.misbehaviour, c.scope);
  const args = ["--target", target.origin, "--api-key", KEY, "--suite", c.suite, "--runs", "1"];
  args.push("--seed", "7", "--timeout", String(c.timeoutMs ?? TIMEOUT_MS), ...(c.extra ?? []));
  // The party a vendor exchanges at setup: without it no identifier is known to be the target's own, and a
  // resolver that answers them badly is a note, not a failure.
  if (target.party !== undefined) args.push("--party", target.party);
  return pool.run({ label: `case-${n}-${c.misbehaviour}-${c.scope}`, args });
}

function result(c: Case): Ran {
  const r = ran.get(c.name);
  if (!r) throw new Error(`The run of "${c.name}" did not happen; see the beforeAll error above.`);
  return r;
}

function requirement(outcome: TracecheckOutcome, id: string): RequirementResult {
  const found = outcome.report?.requirements.find((r) => r.id === id);
  if (!found) throw new Error(`${id} is not in the report of ${outcome.label}.`);
  return found;
}

/** Finished within the bound, with an exit status the contract knows, no crash, and memory within its bound. */
function expectFinished(outcome: TracecheckOutcome): void {
  expect(outcome.timedOut, `${outcome.label} was still running after ${RUN_BOUND_MS} ms`).toBe(false);
  expect([0, 1, 2], `${outcome.label}: ${outcome.stderr}`).toContain(outcome.exitCode);
  expect(outcome.stderr).not.toMatch(/harness error|Unhandled|TypeError|RangeError/);
  expect(outcome.peakRssBytes, `${outcome.label}: peak resident memory`).toBeLessThan(PEAK_RSS_BOUND_BYTES);
  // Every run that got as far as its report directory leaves its reports, an incomplete one included.
  for (const file of ["report.json", "junit.xml"]) {
    expect(existsSync(path.join(outcome.reportDir, file)), `${outcome.label} wrote ${file}`).toBe(true);
  }
}

/** Exit 2, and the requirements named are undecided (error) with evidence, not failed. */
function expectUndecided(outcome: TracecheckOutcome, ids: readonly string[]): void {
  expect(outcome.exitCode, outcome.stderr).toBe(2);
  expect(outcome.report?.verdict).toBe("incomplete");
  for (const id of ids) {
    const r = requirement(outcome, id);
    expect(r.status, `${id}: ${r.reason ?? ""}`).toBe("error");
  }
}

/** The key reached no other origin and shows in no output and no report. */
function expectKeySafe({ outcome, target }: Ran): void {
  for (const r of target.other.received) {
    expect(r.key, `${r.path} on the other origin carried X-API-Key`).toBeUndefined();
    expect(r.headerText).not.toContain(KEY);
    expect(r.path).not.toContain(KEY);
  }
  expect(outcome.stdout).not.toContain(KEY);
  expect(outcome.stderr).not.toContain(KEY);
  for (const file of ["report.json", "junit.xml", "report.html"]) {
    const full = path.join(outcome.reportDir, file);
    if (existsSync(full)) expect(readFileSync(full, "utf8"), file).not.toContain(KEY);
  }
}

/**
 * Each requirement is reported error or fail (warn, where it is a SHOULD and the failure was decided), with
 * evidence of an exchange or a reason naming one.
 */
function expectBroken(outcome: TracecheckOutcome, ids: readonly string[]): void {
  expect(outcome.exitCode === 1 || outcome.exitCode === 2, `exit ${outcome.exitCode}`).toBe(true);
  for (const id of ids) {
    const r = requirement(outcome, id);
    const broken = r.level === "SHOULD" ? ["error", "warn"] : ["error", "fail"];
    expect(broken, `${id}: ${r.level} ${r.status} (${r.reason ?? ""})`).toContain(r.status);
    const shown = r.evidence.some((e) => e.request !== undefined || e.response !== undefined || e.curl);
    expect(shown || /https?:\/\//.test(r.reason ?? ""), `${id} carries no exchange: ${r.reason}`).toBe(true);
  }
}

/** Something outside the misbehaving scope was still checked and passed. */
function expectRestChecked(outcome: TracecheckOutcome, cls: string): void {
  const passed = outcome.report?.requirements.filter((r) => r.class === cls && r.status === "pass") ?? [];
  expect(passed.length, `no ${cls} requirement passed`).toBeGreaterThan(0);
}

function byName(name: string): Case {
  const c = CASES.find((k) => k.name === name);
  if (!c) throw new Error(`no case "${name}"`);
  return c;
}

describe("a hostile target", () => {
  test("that never answers anything: exit 2 after the first request's timeout, saying what to do", () => {
    const r = result(byName("never answers anything"));
    expectFinished(r.outcome);
    expect(r.outcome.exitCode).toBe(2);
    expect(r.outcome.stderr).toMatch(/unreachable .*within 500 ms/);
    expectKeySafe(r);
  });

  for (const name of ["sends invalid JSON", "redirects queries in a loop", "answers 500"]) {
    test(`that ${name}: the filter requirements error or fail with evidence, the resolver is still checked`, () => {
      const r = result(byName(name));
      expectFinished(r.outcome);
      expectBroken(r.outcome, FILTER_REQUIREMENTS);
      expectRestChecked(r.outcome, "resolver");
      expectKeySafe(r);
    });
  }

  for (const name of [
    "never answers an EPC query",
    "answers one byte a second",
    "resets the connection mid-body",
    "answers 429 with Retry-After",
    "sends its status line too late",
  ]) {
    test(`that ${name}: the EPC requirements are undecided with evidence, the other filters still pass`, () => {
      const r = result(byName(name));
      expectFinished(r.outcome);
      expectBroken(r.outcome, EPC_REQUIREMENTS);
      expectUndecided(r.outcome, EPC_REQUIREMENTS);
      expect(requirement(r.outcome, NOT_EPC_REQUIREMENT).status).toBe("pass");
      expectRestChecked(r.outcome, "resolver");
      expectKeySafe(r);
    });
  }

  // A loop in the paging is the paging's fault: EVT-PAGING fails, and the filters it stops say so rather than fail.
  test("that pages in a loop: EVT-PAGING fails with evidence, no filter passes on a partial answer", () => {
    const r = result(byName("pages in a loop"));
    expectFinished(r.outcome);
    expectBroken(r.outcome, ["EVT-PAGING"]);
    expect(requirement(r.outcome, "EVT-PAGING").reason).toMatch(/loop/);
    for (const id of FILTER_REQUIREMENTS) expect(requirement(r.outcome, id).status, id).not.toBe("pass");
    expectRestChecked(r.outcome, "resolver");
    expectKeySafe(r);
  });

  test("that sends a 1 GB body: the body cap holds, the queries fail with truncated evidence", () => {
    const r = result(byName("sends a 1 GB body"));
    expectFinished(r.outcome);
    expectBroken(r.outcome, EPC_REQUIREMENTS);
    expect(requirement(r.outcome, NOT_EPC_REQUIREMENT).status).toBe("pass");
    const truncated = requirement(r.outcome, "EVT-EPC-EPCLIST").evidence.some((e) => e.response?.truncated);
    expect(truncated || /JSON|truncat/i.test(requirement(r.outcome, "EVT-EPC-EPCLIST").reason ?? "")).toBe(
      true,
    );
    expectRestChecked(r.outcome, "resolver");
    expect(r.target.hugeResponses()).toBeGreaterThan(0);
    // The client hangs up at its cap: no response got anywhere near the gigabyte it was sending.
    expect(r.target.hugeBytesSent()).toBeLessThan(BODY_CAP_BYTES + IN_FLIGHT_SLACK_BYTES);
    expectKeySafe(r);
  });

  test("that redirects queries to another origin: the key never follows, the filters fail", () => {
    const r = result(byName("redirects queries to another origin"));
    expectFinished(r.outcome);
    expectBroken(r.outcome, FILTER_REQUIREMENTS);
    expectRestChecked(r.outcome, "resolver");
    expectKeySafe(r);
  });

  test("that redirects the resolver in a loop or to another origin: the resolver fails, GET /events is still checked", () => {
    for (const name of ["redirects the resolver in a loop", "redirects the resolver to another origin"]) {
      const r = result(byName(name));
      expectFinished(r.outcome);
      expectBroken(r.outcome, ["RES-PATH-GTIN", "RES-PATH-GTIN-LOT"]);
      expectRestChecked(r.outcome, "events");
      expectKeySafe(r);
    }
  });

  test("that links to another origin: the links are followed without the key and fail", () => {
    const r = result(byName("links to another origin from its link sets"));
    expectFinished(r.outcome);
    expectBroken(r.outcome, LINK_REQUIREMENTS);
    expectRestChecked(r.outcome, "events");
    expect(r.target.other.received.length, "no link on the other origin was followed").toBeGreaterThan(0);
    expectKeySafe(r);
  });

  test("that links to an unreachable address: the link requirements fail, nothing hangs", () => {
    const r = result(byName("links to an unreachable address from its link sets"));
    expectFinished(r.outcome);
    expectBroken(r.outcome, LINK_REQUIREMENTS);
    expectRestChecked(r.outcome, "events");
    expectKeySafe(r);
  });

  test("that answers 429 with Retry-After to everything: exit 2 within the retry budget, saying so, nothing failed", () => {
    const r = result(byName("answers 429 with Retry-After to everything"));
    expectFinished(r.outcome);
    expect(r.outcome.exitCode).toBe(2);
    expect(r.outcome.stderr).toMatch(/429/);
    expect(r.outcome.report?.verdict).toBe("incomplete");
    expect(r.outcome.report?.summary.fail).toBe(0);
    expectKeySafe(r);
  });

  test("that never answers the resolver while GET /events answers: the resolver is undecided, not failed", () => {
    const r = result(byName("never answers the resolver while GET /events answers"));
    expectFinished(r.outcome);
    expectUndecided(r.outcome, ["RES-PATH-GTIN", "RES-PATH-GTIN-LOT"]);
    expectRestChecked(r.outcome, "events");
    expectKeySafe(r);
  });

  test("that serves an HTML page: the filter requirements error or fail with evidence", () => {
    const r = result(byName("serves an HTML page"));
    expectFinished(r.outcome);
    expectBroken(r.outcome, FILTER_REQUIREMENTS);
    expectRestChecked(r.outcome, "resolver");
    expectKeySafe(r);
  });

  test("that links its next page to another origin answering 404: no filter passes, the evidence names the origin", () => {
    const r = result(byName("links its next page to another origin"));
    expectFinished(r.outcome);
    for (const id of FILTER_REQUIREMENTS) expect(requirement(r.outcome, id).status, id).not.toBe("pass");
    const named = (r.outcome.report?.requirements ?? []).filter((q) =>
      /another origin/.test(`${q.reason ?? ""} ${JSON.stringify(q.evidence)}`),
    );
    expect(named.length, "no requirement names the off-origin next link").toBeGreaterThan(0);
    expectRestChecked(r.outcome, "resolver");
    expectKeySafe(r);
  });

  // Every kind of request the harness sends (discovery aside) meets a 307 to another origin that keeps the path
  // and the query: the resolver, filtered queries, master data and the auth probes that put the key in the URL.
  test("that redirects every request but discovery to another origin: the key reaches it in no header, path or query", () => {
    const r = result(byName("redirects every request but discovery to another origin, query and all"));
    expectFinished(r.outcome);
    const reached = r.target.other.received.map((q) => q.path);
    expect(
      reached.some((p) => p.startsWith("/events?")),
      "no filtered query was redirected",
    ).toBe(true);
    expect(
      reached.some((p) => /^\/(00|01|414|417)\//.test(p)),
      "no resolver request was redirected",
    ).toBe(true);
    // The auth probes carry the key in the URL: they are not followed at all, and the report says why.
    const probes = requirement(r.outcome, "AUTH-QUERY-STRING");
    expect(probes.status).not.toBe("pass");
    expectKeySafe(r);
  });

  // The registry leaves the media type untested (spec 1 names none), so a correct body under a wrong label must
  // not cost the target a single requirement: no false positive on Content-Type.
  test("that labels correct JSON as text/html: no false positive, the run passes", () => {
    const r = result(byName("labels JSON as text/html"));
    expectFinished(r.outcome);
    const broken = r.outcome.report?.requirements.filter((q) => q.status === "fail" || q.status === "error");
    expect(broken?.map((q) => `${q.id}: ${q.reason}`)).toEqual([]);
    expect(r.outcome.exitCode).toBe(0);
    expectKeySafe(r);
  });
});
