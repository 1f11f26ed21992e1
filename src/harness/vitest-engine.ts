// Runs the suites as vitest tests, through its programmatic API, and collects the verdicts they record in task meta:
// the other way to run the same files than the harness's own runner (engine.ts), kept to show both give the same
// verdicts. The run context is handed in with `provide`; nothing is passed through environment variables.
import path from "node:path";
import type { Reporter, TestCase, TestModule } from "vitest/node";
import { createVitest } from "vitest/node";
import { CONTEXT_KEY, type RunContext } from "./context.ts";
import {
  CLASS_FOLDERS,
  COMPILED,
  checkTimeoutMs,
  type EngineProgress,
  type EngineResult,
  recordsRequirement,
} from "./engine.ts";
import type { CheckVerdict } from "./verdicts.ts";

class VerdictCollector implements Reporter {
  readonly verdicts: CheckVerdict[] = [];
  readonly errors: string[] = [];
  private done = 0;
  constructor(private readonly onProgress?: (p: EngineProgress) => void) {}

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta() as { tracecheck?: CheckVerdict[] };
    const recorded = meta.tracecheck ?? [];
    const result = testCase.result();
    // A test that failed (a timeout: the check itself turns every exception into a verdict) did not finish, as
    // the harness's own runner reports it; one that recorded nothing failed before its body ran. Its id is in its
    // name.
    if (recorded.length === 0 || result.state === "failed") {
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

export async function runSuitesWithVitest(
  ctx: RunContext,
  repoRoot: string,
  onProgress?: (p: EngineProgress) => void,
  signal?: AbortSignal,
): Promise<EngineResult> {
  const collector = new VerdictCollector(onProgress);
  const timeoutMs = checkTimeoutMs(ctx);
  const folders = Object.values(CLASS_FOLDERS);
  const saved = process.exitCode;
  const vitest = await createVitest(
    "test",
    {
      root: repoRoot,
      config: false,
      watch: false,
      // Running compiled (engine.ts COMPILED), the workers import the compiled suites as Node modules rather than
      // have Vite transform every file again.
      include: COMPILED
        ? folders.map((f) => `dist/suites/${f}/**/*.suite.js`)
        : folders.map((f) => `suites/${f}/**/*.suite.ts`),
      // vitest leaves out dist/ by default, where the compiled suites are.
      exclude: ["**/node_modules/**"],
      server: { deps: { external: COMPILED ? [/[\\/]dist[\\/](src|suites)[\\/]/] : [] } },
      reporters: [collector],
      provide: { [CONTEXT_KEY]: ctx },
      pool: "threads",
      isolate: false,
      silent: true,
      passWithNoTests: true,
      testTimeout: timeoutMs,
      hookTimeout: timeoutMs,
    },
    { logLevel: "silent", server: { watch: null } },
  );
  // A signal stops the run where it is: what finished is kept, what did not is reported as not checked.
  const cancel = () => void vitest.cancelCurrentRun("keyboard-input");
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    const chosen = ctx.classes.map((c) => `/suites/${CLASS_FOLDERS[c]}/`);
    const only = ctx.onlyRequirements;
    const specs = (await vitest.globTestSpecifications()).filter(
      (s) =>
        chosen.some((f) => s.moduleId.includes(f)) &&
        (only === undefined || recordsRequirement(s.moduleId, only)),
    );
    if (specs.length > 0 && signal?.aborted !== true) await vitest.runTestSpecifications(specs, false);
  } finally {
    signal?.removeEventListener("abort", cancel);
    await vitest.close();
    // vitest marks a run with failing tests in process.exitCode; our exit status is decided from verdicts alone.
    process.exitCode = saved;
  }
  return { verdicts: collector.verdicts, errors: collector.errors };
}
