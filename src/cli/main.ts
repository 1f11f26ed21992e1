// The `tracecheck` command: argument parsing and wiring only (ARCHITECTURE.md, src/cli).
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Report } from "../engine/types.ts";
import { startEmbeddedThread } from "../harness/embedded.ts";
import { readConfigFile, resolveRunOptions, UsageError } from "../harness/options.ts";
import type { RunOutcome } from "../harness/run.ts";
import {
  DIFF_HELP,
  FAULTS_HELP,
  FIXTURES_HELP,
  LOAD_HELP,
  MAIN_HELP,
  RECEIVER_HELP,
  RUN_HELP,
  SERVE_HELP,
  TRACE_HELP,
} from "./help.ts";
import { type Flags, parse } from "./parse.ts";
import { withStopSignals } from "./stop-signals.ts";

export const RUN_OPTIONS = {
  target: { type: "string" },
  resolver: { type: "string" },
  "api-key": { type: "string" },
  party: { type: "string" },
  gln: { type: "string" },
  "start-from": { type: "string" },
  dataset: { type: "string" },
  load: { type: "string" },
  suite: { type: "string", multiple: true },
  modules: { type: "string", multiple: true },
  seed: { type: "string" },
  runs: { type: "string" },
  definition: { type: "string" },
  "schema-mirror": { type: "string" },
  "report-dir": { type: "string" },
  baseline: { type: "string" },
  timeout: { type: "string" },
  concurrency: { type: "string" },
  rate: { type: "string" },
  "retry-budget": { type: "string" },
  "max-pages": { type: "string" },
  "max-answer-bytes": { type: "string" },
  "allow-origin": { type: "string", multiple: true },
  config: { type: "string" },
  events: { type: "string" },
  faults: { type: "string", multiple: true },
  "reference-config": { type: "string" },
  quiet: { type: "boolean" },
  json: { type: "boolean" },
} as const;

/**
 * `tracecheck run`. With --json, stdout carries one object whatever the end: a usage mistake or a harness error
 * found before the run started prints it too (incomplete, exit 2, the reason), and then its sentence on stderr.
 */
async function run(args: string[]): Promise<number> {
  // Read from the arguments as given: a mistake in them may stop their parsing.
  const wantsJson = args.slice(0, args.includes("--") ? args.indexOf("--") : args.length).includes("--json");
  try {
    return await runParsed(args);
  } catch (err) {
    if (wantsJson) {
      const { jsonSummary } = await import("../report/index.ts");
      const reason =
        err instanceof UsageError
          ? err.message
          : `a harness error stopped the run: ${(err as Error).message}`;
      process.stdout.write(`${JSON.stringify(jsonSummary({ exitCode: 2, reason }, undefined))}\n`);
    }
    throw err;
  }
}

async function runParsed(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, RUN_OPTIONS);
  if (values.help) {
    process.stdout.write(RUN_HELP);
    return 0;
  }
  if (positionals.length > 0)
    throw new UsageError(`unexpected argument "${positionals[0]}"; see tracecheck run --help.`);
  const { config, json, ...flags } = values as Flags;
  const opts = resolveRunOptions(
    flags,
    readConfigFile(config as string | undefined, process.cwd()),
    process.env,
  );
  process.stderr.write(`tracecheck: seed ${opts.seed}\n`);
  // The embedded reference starts on its thread now, and loads while the harness does.
  const embedded = startEmbeddedThread(opts);
  let outcome: RunOutcome;
  try {
    const { defaultIo, runTracecheck } = await import("../harness/run.ts");
    const io = defaultIo();
    // With --json, stdout carries one JSON object and nothing else; what a person reads goes to stderr.
    if (json === true) io.out = (line) => process.stderr.write(`${line}\n`);
    outcome = await withStopSignals(
      (signal) => runTracecheck(opts, io, signal, embedded),
      (name) =>
        process.stderr.write(
          `tracecheck: ${name} received; stopping and writing the reports of what finished\n`,
        ),
    );
  } finally {
    await embedded?.close();
  }
  if (json === true) {
    const { jsonSummary } = await import("../report/index.ts");
    process.stdout.write(`${JSON.stringify(jsonSummary(outcome, path.resolve(opts.reportDir)))}\n`);
  }
  return outcome.exitCode;
}

async function diff(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {});
  if (values.help) {
    process.stdout.write(DIFF_HELP);
    return 0;
  }
  if (positionals.length !== 2)
    throw new UsageError("diff takes two report.json files: tracecheck diff <old> <new>.");
  const { validateReport } = await import("../report/index.ts");
  const [oldR, newR] = await Promise.all(
    positionals.map(async (f) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readFile(f, "utf8"));
      } catch (err) {
        throw new UsageError(
          `cannot read report ${f} (${(err as Error).message.split("\n")[0]}); pass two report.json files.`,
        );
      }
      const check = validateReport(parsed);
      if (!check.valid) {
        throw new UsageError(
          `${f} is not a tracecheck report (${check.errors.slice(0, 2).join("; ")}); pass two report.json files.`,
        );
      }
      return parsed as Report;
    }),
  );
  const { diffReports, formatDiff, useColor } = await import("../report/index.ts");
  const d = diffReports(oldR!, newR!);
  process.stdout.write(`${formatDiff(d, { color: useColor(process.stdout, process.env) })}\n`);
  return d.regressed ? 1 : 0;
}

// Commands load what they use when they run, so that --help and a usage mistake answer at once.
const commands = () => import("./commands.ts");

/** Runs the command `argv`; answers its exit status. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(MAIN_HELP);
        return command === undefined ? 2 : 0;
      case "run":
        return await run(rest);
      case "serve":
        return await (await commands()).serveCommand(rest, parse, SERVE_HELP);
      case "faults":
        return await (await commands()).faultsCommand(rest, parse, FAULTS_HELP);
      case "fixtures":
        return await (await commands()).fixturesCommand(rest, parse, FIXTURES_HELP);
      case "load":
        return await (await commands()).loadCommand(rest, parse, LOAD_HELP);
      case "receiver":
        return await (await import("./receiver.ts")).receiverCommand(rest, parse, RECEIVER_HELP);
      case "trace":
        return await (await import("./receiver.ts")).traceCommand(rest, parse, TRACE_HELP);
      case "diff":
        return await diff(rest);
      case "--version":
      case "-v":
      case "version": {
        const { toolVersion } = await import("../engine/repo.ts");
        process.stdout.write(`tracecheck ${toolVersion()}\n`);
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${command}"; run tracecheck --help for the commands.`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`tracecheck: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`tracecheck: harness error: ${(err as Error).stack ?? String(err)}\n`);
    return 2;
  }
}
