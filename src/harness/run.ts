// `tracecheck run`: definition → target → baseline → suites → verdicts → reports (ARCHITECTURE.md). Exit status
// 0, 1 or 2 exactly as CONTRACT.md says.
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadDefinition, resolveSchema, SchemaUnavailableError } from "../definition/index.ts";
import { generateDataset, readDatasetFile } from "../generate/index.ts";
import { HttpClient, HttpError } from "../http/index.ts";
import { referenceConfiguration } from "../reference/configurations.ts";
import { startReference } from "../reference/index.ts";
import { discoverBaseline } from "./baseline.ts";
import { writeBaselineFile } from "./baseline-file.ts";
import type { RunContext } from "./context.ts";
import { runSuites } from "./engine.ts";
import type { RunOptions } from "./options.ts";
import { loadRegistry } from "./registry.ts";
import { DEFAULT_DEFINITION, REPO_ROOT, toolVersion } from "./repo.ts";
import {
  diffReports,
  exitCodeFor,
  formatDiff,
  formatSummary,
  progressLine,
  useColor,
  writeReports,
} from "./report/index.ts";
import type { Report, RequirementResult, Summary } from "./types.ts";
import { aggregate } from "./verdicts.ts";

export const EPCIS_SCHEMA_URL = "https://ref.gs1.org/standards/epcis/2.0.1/epcis-json-schema.json";

export interface RunIo {
  out: (line: string) => void;
  err: (line: string) => void;
  color: boolean;
}

export function defaultIo(): RunIo {
  return {
    out: (l) => process.stdout.write(`${l}\n`),
    err: (l) => process.stderr.write(`${l}\n`),
    color: useColor(process.stdout, process.env),
  };
}

export interface RunOutcome {
  exitCode: 0 | 1 | 2;
  report?: Report;
}

export async function runTracecheck(opts: RunOptions, io: RunIo = defaultIo()): Promise<RunOutcome> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const registry = await loadRegistry();
  const definitionFile = path.resolve(opts.definition ?? DEFAULT_DEFINITION);
  try {
    await loadDefinition(definitionFile);
  } catch (err) {
    io.err(`tracecheck: ${(err as Error).message}`);
    return { exitCode: 2 };
  }
  try {
    await resolveSchema(EPCIS_SCHEMA_URL, { mirror: opts.schemaMirror, network: true });
  } catch (err) {
    if (err instanceof SchemaUnavailableError) {
      io.err(`tracecheck: error: schema unavailable. ${err.message}`);
      return { exitCode: 2 };
    }
    throw err;
  }

  let reference: Awaited<ReturnType<typeof startReference>> | undefined;
  let eventsBase = opts.target;
  let resolverBase = opts.resolver;
  let apiKey = opts.apiKey;
  if (!eventsBase) {
    // The embedded reference: a generated dataset and a key of its own, so that every class has something to check.
    const dataset = opts.dataset
      ? await readDatasetFile(opts.dataset)
      : generateDataset({ seed: opts.seed, events: opts.embeddedEvents });
    apiKey = apiKey ?? `embedded-${randomBytes(12).toString("hex")}`;
    try {
      const named =
        opts.referenceConfig === undefined ? undefined : referenceConfiguration(opts.referenceConfig);
      reference = await startReference({
        dataset,
        apiKeys: [apiKey],
        faults: opts.embeddedFaults,
        ...(named ? { config: named.config } : {}),
        ...(named?.resolverPort !== undefined ? { resolverPort: named.resolverPort } : {}),
      });
    } catch (err) {
      io.err(`tracecheck: ${(err as Error).message}`);
      return { exitCode: 2 };
    }
    eventsBase = reference.eventsBase;
    resolverBase = reference.resolverBase;
  }
  resolverBase = resolverBase ?? eventsBase;
  const tmp = await mkdtemp(path.join(os.tmpdir(), "tracecheck-"));
  const client = new HttpClient({
    timeoutMs: opts.timeoutMs,
    concurrency: opts.concurrency,
    ratePerSecond: opts.rate,
    apiKey,
    allowedOrigins: [new URL(eventsBase).origin, new URL(resolverBase).origin, ...opts.allowOrigins],
  });
  try {
    try {
      await client.get(`${eventsBase}/events`);
    } catch (err) {
      if (err instanceof HttpError) {
        io.err(
          `tracecheck: the target ${eventsBase} is unreachable (${err.message}); check --target and that it is running.`,
        );
        return { exitCode: 2 };
      }
      throw err;
    }
    if (!opts.quiet) io.err(`tracecheck: discovering the events ${eventsBase} holds…`);
    const baseline = await discoverBaseline(client, {
      eventsBase,
      resolverBase,
      startFrom: opts.startFrom,
    });
    if (opts.dataset) baseline.datasetEvents = (await readDatasetFile(opts.dataset)).events;
    const baselineFile = path.join(tmp, "baseline.ndjson");
    await writeBaselineFile(baselineFile, baseline);
    if (!opts.quiet) io.err(`tracecheck: baseline: ${baseline.events.length} events (${baseline.note})`);

    const ctx: RunContext = {
      eventsBase,
      resolverBase,
      classes: opts.suites,
      modules: opts.modules,
      seed: opts.seed,
      runs: opts.runs,
      definitionFile,
      timeoutMs: opts.timeoutMs,
      concurrency: opts.concurrency,
      ratePerSecond: opts.rate,
      allowOrigins: opts.allowOrigins,
      baselineFile,
      embedded: reference !== undefined,
    };
    if (apiKey !== undefined) ctx.apiKey = apiKey;
    if (opts.party !== undefined) ctx.party = opts.party;
    if (opts.gln !== undefined) ctx.gln = opts.gln;
    if (opts.startFrom !== undefined) ctx.startFrom = opts.startFrom;
    if (opts.schemaMirror !== undefined) ctx.schemaMirror = opts.schemaMirror;
    if (opts.onlyRequirements !== undefined) ctx.onlyRequirements = opts.onlyRequirements;

    const engine = await runSuites(ctx, REPO_ROOT, (p) => {
      if (!opts.quiet) io.err(progressLine(p));
    });
    const known = new Set(registry.requirements.map((r) => r.id));
    const unknown = [...new Set(engine.verdicts.filter((v) => !known.has(v.id)).map((v) => v.id))];
    for (const id of unknown)
      io.err(`tracecheck: a suite checked "${id}", which is not in suites/requirements.yaml.`);
    for (const e of engine.errors) io.err(`tracecheck: suite error: ${e}`);

    const requirements: RequirementResult[] = registry.requirements.map((req) =>
      aggregate(
        req,
        engine.verdicts,
        !opts.suites.includes(req.class)
          ? `class ${req.class} not selected with --suite`
          : opts.onlyRequirements !== undefined && !opts.onlyRequirements.includes(req.id)
            ? "not among the requirements this proving run checks"
            : "no check ran for this requirement",
      ),
    );
    const summary: Summary = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
    for (const r of requirements) summary[r.status] += 1;
    const report: Report = {
      tool: { name: "tracecheck", version: toolVersion() },
      target: { events: eventsBase, resolver: resolverBase },
      seed: opts.seed,
      runs: opts.runs,
      startedAt,
      durationMs: Date.now() - started,
      summary,
      baseline: {
        method: baseline.method,
        events: baseline.events.length,
        complete: baseline.complete,
        note: baseline.note,
      },
      requirements,
    };
    await writeReports(report, path.resolve(opts.reportDir));
    let diff: ReturnType<typeof diffReports> | undefined;
    if (opts.baseline) {
      const old = JSON.parse(await readFile(opts.baseline, "utf8")) as Report;
      diff = diffReports(old, report);
      io.out(formatDiff(diff, { color: io.color }));
    }
    io.out(formatSummary(report, diff ? { color: io.color, diff } : { color: io.color }));
    let exitCode = exitCodeFor(report, diff);
    if (engine.errors.length > 0 || unknown.length > 0) exitCode = exitCode === 1 ? 1 : 2;
    io.out(`reports written to ${path.resolve(opts.reportDir)} (report.json, junit.xml, report.html)`);
    return { exitCode, report };
  } finally {
    await client.close();
    await reference?.close();
    await rm(tmp, { recursive: true, force: true });
  }
}
