// The harness's own runner of the suite files (src/engine/engine.ts), over suite files written for each case: a
// check past its limit, a file that fails to load, a promise a check lets go of, a run stopped halfway, and two
// runs at once in one process, each seeing only its own context and memos.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunContext } from "../../src/engine/context.ts";
import { lanesFor, runSuites } from "../../src/engine/engine.ts";
import type { CheckVerdict } from "../../src/engine/verdicts.ts";
import { REPO_ROOT, tempDir } from "../support/cli.ts";
import { testRunContext } from "../support/run-context.ts";

const SUITE = path.join(REPO_ROOT, "src", "engine", "suite.ts");
const SCOPE = path.join(REPO_ROOT, "src", "engine", "run-scope.ts");

/** What the suite files below reach from the test: a way to stop the run under way. */
declare global {
  var engineTestStop: (() => void) | undefined;
}

const FILES: Record<string, string> = {
  "auth/a-limits.suite.ts": `
    import { requirementTest } from ${JSON.stringify(SUITE)};
    requirementTest("AUTH-HANG", "never ends", (checks) => {
      checks.pass("recorded before it hung");
      return new Promise(() => {});
    }, 50);
    requirementTest("AUTH-AFTER", "runs after the one that hung", (checks) => checks.pass("ran"));
  `,
  "auth/b-broken.suite.ts": `
    import { requirementTest } from ${JSON.stringify(SUITE)};
    requirementTest("AUTH-NEVER", "is declared by a file that then fails", (checks) => checks.pass());
    throw new Error("this suite file is broken");
  `,
  "auth/c-lets-go.suite.ts": `
    import { requirementTest } from ${JSON.stringify(SUITE)};
    requirementTest("AUTH-LETS-GO", "lets a rejected promise go", (checks) => {
      void Promise.reject(new Error("a promise nobody handled"));
      checks.pass("finished");
    });
    requirementTest("AUTH-THROWS", "throws where no check catches it", async (checks) => {
      await new Promise((resolve) => {
        setTimeout(() => {
          resolve(undefined);
          throw new Error("thrown in a timer's callback");
        }, 0);
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      checks.pass("finished too");
    });
  `,
  "events/a-stops.suite.ts": `
    import { requirementTest } from ${JSON.stringify(SUITE)};
    requirementTest("EVT-FIRST", "finishes", (checks) => checks.pass());
    requirementTest("EVT-STOPS", "stops the run and waits", (checks) => {
      globalThis.engineTestStop?.();
      return new Promise(() => {});
    });
    requirementTest("EVT-NEVER", "comes after the stop", (checks) => checks.pass());
  `,
  "masterdata/a-scope.suite.ts": `
    import { perRun } from ${JSON.stringify(SCOPE)};
    import { requirementTest } from ${JSON.stringify(SUITE)};
    const firstSeed = perRun((ctx) => ({ seed: ctx.seed }));
    requirementTest("MD-SCOPE", "sees its own run", async (checks, ctx) => {
      const memo = firstSeed(ctx);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const again = firstSeed(ctx);
      if (memo === again && again.seed === ctx.seed) checks.pass(\`seed \${again.seed}\`);
      else checks.fail(\`run of seed \${ctx.seed} saw seed \${again.seed}\`);
    });
  `,
};

let work: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  work = await tempDir("engine");
  for (const [name, text] of Object.entries(FILES)) {
    const file = path.join(work.dir, "suites", name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
});

afterAll(async () => {
  globalThis.engineTestStop = undefined;
  await work?.remove();
});

function context(classes: RunContext["classes"], seed = 1): RunContext {
  return testRunContext("http://127.0.0.1:9/epcis", "http://127.0.0.1:9/dl", {
    classes,
    seed,
    timeoutMs: 1000,
    concurrency: 8,
  });
}

const brief = (verdicts: CheckVerdict[]) => verdicts.map((v) => [v.id, v.status, v.reason]);

describe("the harness's runner", () => {
  test("a check past its limit is an error beside what it recorded, and the run goes on", async () => {
    const result = await runSuites(context(["auth"]), work.dir);
    expect(brief(result.verdicts.filter((v) => v.id.startsWith("AUTH-HANG")))).toEqual([
      ["AUTH-HANG", "pass", "recorded before it hung"],
      ["AUTH-HANG", "error", "check could not finish: it ran past its 50 ms limit"],
    ]);
    expect(brief(result.verdicts.filter((v) => v.id === "AUTH-AFTER"))).toEqual([
      ["AUTH-AFTER", "pass", "ran"],
    ]);
  });

  test("a suite file that fails to load, and a promise a check let go of, are errors of the run", async () => {
    const result = await runSuites(context(["auth"]), work.dir);
    expect(result.verdicts.some((v) => v.id === "AUTH-NEVER")).toBe(false);
    expect(result.errors).toEqual([
      `${path.join(work.dir, "suites", "auth", "b-broken.suite.ts")}: this suite file is broken`,
      "a promise nobody handled",
      "thrown in a timer's callback",
    ]);
    expect(brief(result.verdicts.filter((v) => v.id === "AUTH-LETS-GO"))).toEqual([
      ["AUTH-LETS-GO", "pass", "finished"],
    ]);
  });

  test("a stopped run keeps what finished and runs nothing after the stop", async () => {
    const stop = new AbortController();
    globalThis.engineTestStop = () => stop.abort();
    const result = await runSuites(context(["events"]), work.dir, undefined, stop.signal);
    globalThis.engineTestStop = undefined;
    expect(brief(result.verdicts)).toEqual([["EVT-FIRST", "pass", undefined]]);
  });

  test("two runs at once in one process each see their own context and memos", async () => {
    const [one, two] = await Promise.all([
      runSuites(context(["masterdata"], 101), work.dir),
      runSuites(context(["masterdata"], 202), work.dir),
    ]);
    expect(brief(one!.verdicts)).toEqual([["MD-SCOPE", "pass", "seed 101"]]);
    expect(brief(two!.verdicts)).toEqual([["MD-SCOPE", "pass", "seed 202"]]);
  });

  test("runs up to four files at once, each with two requests in flight, and one at a time under --rate", () => {
    expect(lanesFor({ concurrency: 8, ratePerSecond: 0 })).toBe(4);
    expect(lanesFor({ concurrency: 64, ratePerSecond: 0 })).toBe(4);
    expect(lanesFor({ concurrency: 5, ratePerSecond: 0 })).toBe(2);
    expect(lanesFor({ concurrency: 1, ratePerSecond: 0 })).toBe(1);
    expect(lanesFor({ concurrency: 8, ratePerSecond: 5 })).toBe(1);
  });

  test("classes without suite files check nothing", async () => {
    const result = await runSuites(context(["workflow"]), work.dir);
    expect(result).toEqual({ verdicts: [], errors: [] });
  });
});
