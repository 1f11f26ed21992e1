// Runs the suites through vitest's programmatic API and collects the verdicts they record in task meta. The run
// context is handed in with `provide`; nothing is passed through environment variables.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Reporter, TestCase, TestModule } from "vitest/node";
import { createVitest } from "vitest/node";
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
  // Judged in-process over a recording (suites/receiver/grade.ts), never by `tracecheck run`: no suite files.
  receiver: "receiver",
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

type Vitest = Awaited<ReturnType<typeof createVitest>>;

/** The vitest settings a run decides; runs that agree on them can share one vitest. */
interface EngineSettings {
  root: string;
  timeoutMs: number;
}

function settingsOf(ctx: RunContext, repoRoot: string): EngineSettings {
  return { root: repoRoot, timeoutMs: Math.max(120_000, ctx.timeoutMs * 20) };
}

/** Every suite file: a run picks the files of its classes from these. */
const ALL_SUITES = Object.values(CLASS_FOLDERS).map((f) => `suites/${f}/**/*.suite.ts`);

/**
 * Whether this process runs the compiled JavaScript (bin/tracecheck.js found dist/ current): its suite workers
 * then import the compiled suites as Node modules, as they are, rather than have Vite transform every suite and
 * source file again in every run.
 */
const COMPILED = /[\\/]dist[\\/]src[\\/]harness[\\/]engine\.js$/.test(fileURLToPath(import.meta.url));

/** The suite files, and what the workers import natively, for a process running the sources or dist/. */
function suiteFiles(): { include: string[]; external: RegExp[] } {
  if (!COMPILED) return { include: ALL_SUITES, external: [] };
  return {
    include: Object.values(CLASS_FOLDERS).map((f) => `dist/suites/${f}/**/*.suite.js`),
    external: [/[\\/]dist[\\/](src|suites)[\\/]/],
  };
}

/**
 * A vitest whose reporter hands each run's results to that run's collector. Creating one starts a Vite server
 * and transforms every suite and source file, most of a small run's cost; a process that runs tracecheck many
 * times (a proving worker) keeps one. The suite workers are new for every run, so no module state of one run
 * reaches the next: only the Vite server and its transforms are shared.
 */
class Engine {
  #specs: Awaited<ReturnType<Vitest["globTestSpecifications"]>> | undefined;

  private constructor(
    readonly key: string,
    readonly vitest: Vitest,
    /** Where the forwarding reporter sends results: the collector of the run under way. */
    private readonly sink: { collector?: VerdictCollector },
  ) {}

  static async create(settings: EngineSettings, ctx: RunContext): Promise<Engine> {
    const sink: { collector?: VerdictCollector } = {};
    const forward: Reporter = {
      onTestCaseResult: (t) => sink.collector?.onTestCaseResult(t),
      onTestModuleEnd: (m) => sink.collector?.onTestModuleEnd(m),
      onTestRunEnd: (modules, unhandled) => sink.collector?.onTestRunEnd(modules, unhandled),
    };
    const vitest = await createVitest(
      "test",
      {
        root: settings.root,
        config: false,
        watch: false,
        include: suiteFiles().include,
        // vitest leaves out dist/ by default, where the compiled suites are.
        exclude: ["**/node_modules/**"],
        server: { deps: { external: suiteFiles().external } },
        reporters: [forward],
        provide: { [CONTEXT_KEY]: ctx },
        pool: "threads",
        isolate: false,
        silent: true,
        passWithNoTests: true,
        testTimeout: settings.timeoutMs,
        hookTimeout: settings.timeoutMs,
      },
      { logLevel: "silent", server: { watch: null } },
    );
    return new Engine(JSON.stringify(settings), vitest, sink);
  }

  async run(ctx: RunContext, collector: VerdictCollector, signal?: AbortSignal): Promise<void> {
    const folders = ctx.classes.map((c) => `/suites/${CLASS_FOLDERS[c]}/`);
    this.#specs ??= await this.vitest.globTestSpecifications();
    const only = ctx.onlyRequirements;
    const specs = this.#specs.filter(
      (s) =>
        folders.some((f) => s.moduleId.includes(f)) &&
        (only === undefined || only.some((id) => this.#recordsRequirement(s.moduleId, id))),
    );
    // Selected classes without suite files have nothing to check: their requirements are skipped, not an error.
    if (specs.length === 0) return;
    this.vitest.provide(CONTEXT_KEY, ctx);
    this.sink.collector = collector;
    // A signal stops the run where it is: what finished is kept, what did not is reported as not checked.
    const cancel = () => void this.vitest.cancelCurrentRun("keyboard-input");
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      if (signal?.aborted !== true) await this.vitest.runTestSpecifications(specs, false);
    } finally {
      signal?.removeEventListener("abort", cancel);
      this.sink.collector = undefined;
    }
  }

  close(): Promise<void> {
    return this.vitest.close();
  }

  readonly #texts = new Map<string, string>();

  /** Whether a suite file names the requirement: every requirementTest and checks.for spells its id out. */
  #recordsRequirement(file: string, id: string): boolean {
    let text = this.#texts.get(file);
    if (text === undefined) {
      text = readFileSync(file, "utf8");
      this.#texts.set(file, text);
    }
    return text.includes(`"${id}"`);
  }
}

let kept: Engine | undefined;
let keeping = false;

/**
 * From now on, runs in this process share one vitest for as long as their settings agree (see Engine). For a
 * process that runs tracecheck many times over the same files; a single `tracecheck run` starts and closes its own.
 */
export function keepEngineBetweenRuns(): void {
  keeping = true;
}

/** Closes the kept vitest, if any; the next run starts a new one. */
async function closeKeptEngine(): Promise<void> {
  const engine = kept;
  kept = undefined;
  await engine?.close();
}

async function engineFor(ctx: RunContext, repoRoot: string): Promise<Engine> {
  const settings = settingsOf(ctx, repoRoot);
  if (!keeping) return Engine.create(settings, ctx);
  if (kept?.key !== JSON.stringify(settings)) {
    await closeKeptEngine();
    kept = await Engine.create(settings, ctx);
  }
  return kept;
}

export async function runSuites(
  ctx: RunContext,
  repoRoot: string,
  onProgress?: (p: EngineProgress) => void,
  signal?: AbortSignal,
): Promise<EngineResult> {
  const collector = new VerdictCollector(onProgress);
  const saved = process.exitCode;
  const engine = await engineFor(ctx, repoRoot);
  try {
    await engine.run(ctx, collector, signal);
  } finally {
    if (engine !== kept) await engine.close();
    // vitest marks a run with failing tests in process.exitCode; our exit status is decided from verdicts alone.
    process.exitCode = saved;
  }
  return { verdicts: collector.verdicts, errors: collector.errors };
}
