// Runs the suites through vitest's programmatic API and collects the verdicts they record in task meta. The run
// context is handed in with `provide`; nothing is passed through environment variables.
import path from "node:path";
import type { Reporter, TestCase, TestModule } from "vitest/node";
import { createVitest, TestsNotFoundError } from "vitest/node";
import { CONTEXT_KEY, type RunContext } from "./context.ts";
import type { ConformanceClass, Status } from "./types.ts";
import type { CheckVerdict } from "./verdicts.ts";

export interface EngineProgress {
  class: string;
  done: number;
  id?: string;
  status?: Status;
}

export interface EngineResult {
  verdicts: CheckVerdict[];
  /** Errors outside any test (a suite file that failed to load, an unhandled rejection). */
  errors: string[];
}

const CLASS_FOLDERS: Record<ConformanceClass, string> = {
  events: "events",
  resolver: "resolver",
  masterdata: "masterdata",
  auth: "auth",
  "core-events": "core-events",
  workflow: "workflow",
  definition: "definition",
};

class VerdictCollector implements Reporter {
  readonly verdicts: CheckVerdict[] = [];
  readonly errors: string[] = [];
  private done = 0;
  constructor(private readonly onProgress?: (p: EngineProgress) => void) {}

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta() as { tracecheck?: CheckVerdict[] };
    const recorded = meta.tracecheck ?? [];
    const result = testCase.result();
    if (recorded.length === 0) {
      // A test that recorded nothing failed before its body ran (a hook, a timeout): its id is in its name.
      const id = testCase.name.split(" ")[0] ?? testCase.name;
      const message =
        result.state === "failed" ? (result.errors?.[0]?.message ?? "test failed") : "no verdict";
      recorded.push({ id, status: "error", reason: `check could not finish: ${message}` });
    }
    this.verdicts.push(...recorded);
    this.done += 1;
    const cls = path.basename(path.dirname(testCase.module.moduleId));
    const last = recorded[recorded.length - 1];
    this.onProgress?.({ class: cls, done: this.done, id: last?.id, status: last?.status });
  }

  onTestModuleEnd(testModule: TestModule): void {
    for (const e of testModule.errors()) this.errors.push(`${testModule.moduleId}: ${e.message}`);
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message?: string }>): void {
    for (const e of unhandled) this.errors.push(e.message ?? String(e));
  }
}

export async function runSuites(
  ctx: RunContext,
  repoRoot: string,
  onProgress?: (p: EngineProgress) => void,
): Promise<EngineResult> {
  const collector = new VerdictCollector(onProgress);
  const include = ctx.classes.map((c) => `suites/${CLASS_FOLDERS[c]}/**/*.suite.ts`);
  const saved = process.exitCode;
  const vitest = await createVitest(
    "test",
    {
      root: repoRoot,
      config: false,
      watch: false,
      include,
      reporters: [collector],
      provide: { [CONTEXT_KEY]: ctx },
      pool: "threads",
      isolate: false,
      silent: true,
      passWithNoTests: true,
      testTimeout: Math.max(120_000, ctx.timeoutMs * 20),
      hookTimeout: Math.max(120_000, ctx.timeoutMs * 20),
      sequence: { seed: ctx.seed },
    },
    { logLevel: "silent", server: { watch: null } },
  );
  try {
    await vitest.start();
  } catch (err) {
    // Selected classes without suite files have nothing to check: their requirements are skipped, not an error.
    if (!(err instanceof TestsNotFoundError)) throw err;
  } finally {
    await vitest.close();
    // vitest marks a run with failing tests in process.exitCode; our exit status is decided from verdicts alone.
    process.exitCode = saved;
  }
  return { verdicts: collector.verdicts, errors: collector.errors };
}
