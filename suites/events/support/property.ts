// A property over drawn cases, replayable with --seed: fast-check draws the cases (fc.check, so that the shrunk
// counterexample and the seed go into the evidence), while the first answers are fetched concurrently before
// fast-check walks them, since fc.sample and fc.check draw the same values for one seed.
import fc from "fast-check";
import type { RunContext } from "../../../src/engine/context.ts";
import type { Checks } from "../../../src/engine/suite.ts";
import type { Evidence } from "../../../src/engine/types.ts";
import { canonicalJson } from "../../../src/model/index.ts";
import type { CaseResult } from "./env.ts";
import type { Findings } from "./findings.ts";

export interface PropertySpec<T> {
  /** What the cases check, for the pass note, e.g. "MATCH_anyEPC with EPCs taken from epcList". */
  subject: string;
  arbitrary: fc.Arbitrary<T>;
  /** Judges one case; what it learns about other requirements it notes in `findings`, the case's own. */
  evaluate: (value: T, findings: Findings) => Promise<CaseResult>;
  /** Cases to draw; default the run's --runs. */
  runs?: number;
  /** Added to the pass note, e.g. that the baseline is partial. */
  note?: string;
  /**
   * Whether a case holds a value the harness invented (support/probes.ts). Such a case is judged like any other
   * when the sender answers it, but the check passes only on cases of real values: a check whose real cases were
   * all inconclusive is skipped.
   */
  isProbe?: (value: T) => boolean;
  /**
   * Whether a case is one where a defect would show most plainly (an event exactly at a bound): a pass is proven
   * by the first such case that held, else by the first case of real values that held.
   */
  decisive?: (value: T) => boolean;
}

/** One case of checkAll: what it learns about other requirements it notes in `findings`, the case's own. */
type CaseRun = (findings: Findings) => Promise<CaseResult>;

/**
 * Records the verdict of cases that need no drawing (a fixed list); a failure names how many cases failed. The cases
 * run at once, each noting in findings of its own, so that their findings count in the list's order.
 */
export async function checkAll(
  checks: Checks,
  findings: Findings,
  subject: string,
  cases: readonly CaseRun[],
): Promise<void> {
  recordResults(checks, findings, subject, await Promise.all(cases.map((run) => run(findings.forCase()))));
}

/** Records the verdict of cases already judged. */
export function recordResults(
  checks: Checks,
  findings: Findings,
  subject: string,
  results: readonly CaseResult[],
): void {
  findings.record(checks);
  const failed = results.filter((r) => r.status === "fail");
  const [first] = failed;
  if (first !== undefined) {
    const more = failed.length > 1 ? ` (${failed.length} of ${results.length} cases failed)` : "";
    checks.fail(`${first.reason}${more}`, first.evidence);
    return;
  }
  summarize(checks, subject, results, [], "", []);
}

/**
 * Error when a case could not be decided (429 after every retry); else pass with the counts, or skip when no case
 * of a real value was conclusive (a 413 is a legal answer to a broad query, a probe may be refused).
 */
function summarize(
  checks: Checks,
  subject: string,
  results: readonly CaseResult[],
  probes: readonly boolean[],
  note: string,
  decisive: readonly boolean[],
): void {
  const undecided = results.find((r) => r.status === "error");
  if (undecided !== undefined) {
    checks.error(undecided.reason, undecided.evidence);
    return;
  }
  const { ok, okProbes, inconclusive } = tally(results, probes);
  const probeNote = okProbes > 0 ? ` (and ${okProbes} of invented values)` : "";
  if (ok === 0) {
    const real = results.length - probes.filter(Boolean).length;
    checks.skip(
      real === 0
        ? `no case of ${subject} used a value of the target's own events${probeNote}`
        : `every one of the ${real} cases of ${subject} with values of the target's own events was inconclusive: ${describeInconclusive(inconclusive)}${probeNote}`,
    );
    return;
  }
  const rest = inconclusive.size > 0 ? `; inconclusive: ${describeInconclusive(inconclusive)}` : "";
  checks.pass(
    `${ok + okProbes} of ${results.length} cases of ${subject} held${probeNote}${rest}${note}`,
    proofOf(results, probes, decisive),
  );
}

/**
 * The exchange of the first decisive case of real values that held, else of the first case of real values that
 * held: what the pass rests on. A case of invented values proves nothing a sender must do, so it never stands as
 * the proof.
 */
function proofOf(
  results: readonly CaseResult[],
  probes: readonly boolean[],
  decisive: readonly boolean[],
): Evidence | undefined {
  const held = results.flatMap((r, i) =>
    r.status === "ok" && probes[i] !== true && r.proof !== undefined ? [{ proof: r.proof, i }] : [],
  );
  return (held.find(({ i }) => decisive[i] === true) ?? held[0])?.proof();
}

function tally(
  results: readonly CaseResult[],
  probes: readonly boolean[],
): { ok: number; okProbes: number; inconclusive: Map<string, number> } {
  const inconclusive = new Map<string, number>();
  let ok = 0;
  let okProbes = 0;
  results.forEach((r, i) => {
    if (r.status === "ok" && probes[i] === true) okProbes += 1;
    else if (r.status === "ok") ok += 1;
    if (r.status === "inconclusive") inconclusive.set(r.reason, (inconclusive.get(r.reason) ?? 0) + 1);
  });
  return { ok, okProbes, inconclusive };
}

function describeInconclusive(inconclusive: Map<string, number>): string {
  return [...inconclusive].map(([reason, n]) => `${n} ${reason}`).join(", ");
}

/**
 * Runs the property and records its verdict: fail with the shrunk counterexample, skip when every case was
 * inconclusive (a 413 is a legal answer to a broad query), else pass with the counts. Findings about other
 * requirements are recorded too.
 */
export async function checkProperty<T>(
  checks: Checks,
  ctx: RunContext,
  findings: Findings,
  spec: PropertySpec<T>,
): Promise<void> {
  const memo = new Map<string, Promise<CaseResult>>();
  // Each case notes in findings of its own, opened in the order the cases are drawn, so that the findings count in
  // that order and not in the order the cases' answers came back.
  const evaluate = (value: T): Promise<CaseResult> => {
    const key = canonicalJson(value);
    let result = memo.get(key);
    if (result === undefined) {
      result = spec.evaluate(value, findings.forCase());
      memo.set(key, result);
    }
    return result;
  };
  const params = { seed: ctx.seed, numRuns: spec.runs ?? ctx.runs };
  const isProbe = spec.isProbe ?? (() => false);
  const drawn = fc.sample(spec.arbitrary, params);
  // A few runs may draw probes only; one case of real values is then added, so that the check still decides.
  const added = drawn.every(isProbe) ? oneReal(spec.arbitrary, isProbe, ctx.seed) : [];
  const [first, more] = await Promise.all([
    Promise.all(drawn.map(evaluate)),
    Promise.all(added.map(evaluate)),
  ]);
  // fast-check draws for check what it drew for sample with the same parameters: with no drawn case failing, its
  // run could only find them passing again, so it is run for a failure alone, which it then shrinks.
  const details = first.some((r) => r.status === "fail")
    ? await fc.check(
        fc.asyncProperty(spec.arbitrary, async (value) => (await evaluate(value)).status !== "fail"),
        params,
      )
    : undefined;
  findings.record(checks);
  if (details?.failed === true) {
    const counterexample = details.counterexample?.[0];
    if (counterexample === undefined)
      throw details.errorInstance ?? new Error("fast-check failed without a case");
    const result = await evaluate(counterexample);
    if (result.status !== "fail") throw details.errorInstance ?? new Error("a case failed and then passed");
    checks.fail(result.reason, {
      ...result.evidence,
      seed: ctx.seed,
      // Plain data only: a report is JSON, and a proving worker hands its verdicts on by structured clone.
      counterexample: JSON.parse(JSON.stringify(counterexample)) as unknown,
      message: `${result.evidence.message ? `${result.evidence.message}; ` : ""}shrunk ${details.numShrinks} time(s); replay with --seed ${ctx.seed}`,
    });
    return;
  }
  const failed = more.find((r) => r.status === "fail");
  if (failed?.status === "fail") {
    checks.fail(failed.reason, {
      ...failed.evidence,
      seed: ctx.seed,
      counterexample: JSON.parse(JSON.stringify(added[more.indexOf(failed)])) as unknown,
    });
    return;
  }
  const all = [...drawn, ...added];
  const decisive = spec.decisive ?? (() => false);
  summarize(checks, spec.subject, [...first, ...more], all.map(isProbe), spec.note ?? "", all.map(decisive));
}

/** Draws looked through for a case of real values when the run's own draws were all probes. */
const REAL_SEARCH = 200;

/** The first value of real values (no probe) the seed draws, or none when the draws hold none. */
function oneReal<T>(arbitrary: fc.Arbitrary<T>, isProbe: (value: T) => boolean, seed: number): T[] {
  // Not arbitrary.filter: fast-check keeps drawing for ever when every value is filtered out.
  const real = fc.sample(arbitrary, { seed, numRuns: REAL_SEARCH }).find((v) => !isProbe(v));
  return real === undefined ? [] : [real];
}
