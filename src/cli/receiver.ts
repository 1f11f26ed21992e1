// receiver and trace: the other role. `tracecheck receiver` records and judges a receiver against the reference
// sender; `tracecheck trace` is the reference receiver. Wiring only: the session lives in src/harness/receiver,
// the checks in suites/receiver (which the engine loads, as it loads a sender's), the client in src/receiver.
import path from "node:path";
import { UsageError } from "../harness/options.ts";
import type { ReceiverSetup } from "../harness/receiver/session.ts";
import type { MasterDataDocument } from "../model/index.ts";
import { RECEIVER_FAULT_IDS } from "../receiver/faults.ts";
import { RECEIVER_CONFIGURATION_NAMES } from "../reference/receiver-configurations.ts";
import type { Parse } from "./parse.ts";
import { withStopSignals } from "./stop-signals.ts";

function whole(name: string, v: unknown, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    throw new UsageError(`--${name} must be a whole number ≥ ${min}, got "${String(v)}".`);
  }
  return n;
}

function absoluteUrl(name: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (!URL.canParse(v) || !/^https?:$/.test(new URL(v).protocol)) {
    throw new UsageError(`--${name} must be an absolute http(s) URL, got "${v}".`);
  }
  return v.replace(/\/+$/, "");
}

function setupText(s: ReceiverSetup): string {
  const rows = [
    `tracecheck receiver: the sender is ready${s.referenceConfig === undefined ? "" : ` (configuration ${s.referenceConfig})`}`,
    `  events base    ${s.eventsUrl}   (GET ${s.eventsUrl}/events)`,
    `  resolver base  ${s.resolverUrl}`,
    `  API key        ${s.apiKey}   (send it in the X-API-Key header)`,
    `  party          ${s.party}   (GLN ${s.gln})`,
    `  task           ${s.task}`,
    `                 ${s.instruction}`,
    "The recording ends when the command after -- ends, after --until-idle seconds without a request, or on Ctrl-C or SIGTERM.",
  ];
  return `${rows.join("\n")}\n`;
}

/** `tracecheck receiver [options] [-- CMD ARGS]`. */
export async function receiverCommand(args: string[], parse: Parse, help: string): Promise<number> {
  const split = args.indexOf("--");
  const own = split < 0 ? args : args.slice(0, split);
  const command = split < 0 ? [] : args.slice(split + 1);
  const { values, positionals } = parse(own, {
    port: { type: "string" },
    "reference-config": { type: "string" },
    "report-dir": { type: "string" },
    "until-idle": { type: "string" },
    json: { type: "boolean" },
    dataset: { type: "string" },
    seed: { type: "string" },
    events: { type: "string" },
    timeout: { type: "string" },
  });
  if (values.help) {
    process.stdout.write(help);
    return 0;
  }
  if (positionals.length > 0) {
    throw new UsageError(
      `unexpected argument "${positionals[0]}"; put the receiver's command after --, as in tracecheck receiver -- ./my-receiver.`,
    );
  }
  if (split >= 0 && command.length === 0)
    throw new UsageError("-- must be followed by the receiver's command.");
  if (values.dataset !== undefined && (values.seed !== undefined || values.events !== undefined)) {
    throw new UsageError("give either --dataset or --seed/--events, not both.");
  }
  const config = values["reference-config"] as string | undefined;
  if (config !== undefined && !RECEIVER_CONFIGURATION_NAMES.includes(config)) {
    throw new UsageError(
      `--reference-config: unknown configuration "${config}"; known: ${RECEIVER_CONFIGURATION_NAMES.join(", ")}.`,
    );
  }
  let untilIdle: number | undefined;
  if (values["until-idle"] !== undefined) {
    untilIdle = Number(values["until-idle"]);
    if (!Number.isFinite(untilIdle) || untilIdle <= 0) {
      throw new UsageError(
        `--until-idle must be a number of seconds above 0, got "${String(values["until-idle"])}".`,
      );
    }
  }
  const json = values.json === true;
  const reportDir = path.resolve((values["report-dir"] as string | undefined) ?? "reports");
  // Loaded once the arguments are known to be right, so that --help and a usage mistake answer at once.
  const [{ runReceiverSession }, { jsonSummary, useColor }] = await Promise.all([
    import("../harness/receiver/session.ts"),
    import("../report/index.ts"),
  ]);
  const color = useColor(process.stdout, process.env);
  const outcome = await withStopSignals((signal) =>
    runReceiverSession(
      {
        port: whole("port", values.port, 0, 0),
        ...(config !== undefined ? { referenceConfig: config } : {}),
        reportDir,
        ...(untilIdle !== undefined ? { untilIdleSeconds: untilIdle } : {}),
        ...(command.length > 0 ? { command } : {}),
        ...(values.dataset !== undefined ? { dataset: String(values.dataset) } : {}),
        seed: whole("seed", values.seed, 1, 0),
        events: whole("events", values.events, 200, 1),
        timeoutMs: whole("timeout", values.timeout, 10_000, 1),
      },
      {
        setup: (s) =>
          process.stdout.write(json ? `${JSON.stringify({ kind: "setup", ...s })}\n` : setupText(s)),
        note: (line) => process.stderr.write(`${line}\n`),
        summary: (text) => (json ? process.stderr : process.stdout).write(`${text}\n`),
        color: json ? false : color,
        commandOutput: json ? "stdout-to-notes" : "inherit",
      },
      signal,
    ),
  );
  if (json) {
    process.stdout.write(`${JSON.stringify({ kind: "summary", ...jsonSummary(outcome, reportDir) })}\n`);
  }
  return outcome.exitCode;
}

/** `tracecheck trace <dl-uri | epc> --target … --api-key … [--out FILE]`: the reference receiver. */
export async function traceCommand(args: string[], parse: Parse, help: string): Promise<number> {
  const { values, positionals } = parse(args, {
    target: { type: "string" },
    resolver: { type: "string" },
    "api-key": { type: "string" },
    out: { type: "string" },
    faults: { type: "string", multiple: true },
    resolve: { type: "string" },
    timeout: { type: "string" },
    quiet: { type: "boolean" },
  });
  if (values.help) {
    process.stdout.write(help);
    return 0;
  }
  if (positionals.length > 1)
    throw new UsageError(`unexpected argument "${positionals[1]}"; trace takes one identifier.`);
  const env = process.env;
  const identifier = positionals[0] ?? env.TRACECHECK_TASK;
  if (identifier === undefined) {
    throw new UsageError(
      "trace needs the product to trace: a Digital Link URI or an EPC URN (or TRACECHECK_TASK).",
    );
  }
  const target = absoluteUrl("target", (values.target as string | undefined) ?? env.TRACECHECK_EVENTS_URL);
  if (target === undefined) {
    throw new UsageError(
      "trace needs --target <url>, the base of the sender's EPCIS query interface (or TRACECHECK_EVENTS_URL).",
    );
  }
  const resolver = absoluteUrl(
    "resolver",
    (values.resolver as string | undefined) ?? env.TRACECHECK_RESOLVER_URL,
  );
  const apiKey = (values["api-key"] as string | undefined) ?? env.TRACECHECK_API_KEY;
  const faults = [values.faults ?? []]
    .flat()
    .flatMap((f) => String(f).split(","))
    .map((f) => f.trim())
    .filter(Boolean);
  const unknown = faults.filter((f) => !RECEIVER_FAULT_IDS.includes(f));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown receiver fault ${unknown.join(", ")}; known: ${RECEIVER_FAULT_IDS.join(", ")}.`,
    );
  }
  const resolve = (values.resolve as string | undefined) ?? "linkset";
  if (resolve !== "linkset" && resolve !== "redirect") {
    throw new UsageError(`--resolve must be linkset or redirect, got "${resolve}".`);
  }
  const quiet = values.quiet === true;
  const { readableTrace, runTrace, TraceError } = await import("../receiver/index.ts");
  try {
    const outcome = await runTrace({
      identifier,
      eventsBase: target,
      ...(resolver !== undefined ? { resolverBase: resolver } : {}),
      ...(apiKey !== undefined ? { apiKey } : {}),
      faults,
      resolve,
      timeoutMs: whole("timeout", values.timeout, 10_000, 1),
      ...(quiet ? {} : { note: (line: string) => process.stderr.write(`tracecheck: ${line}\n`) }),
    });
    if (values.out !== undefined) {
      const out = String(values.out);
      const { writeDatasetFile } = await import("../generate/dataset-file.ts");
      await writeDatasetFile(
        { events: outcome.events, masterData: outcome.masterData as MasterDataDocument[] },
        out,
      );
      process.stderr.write(
        `tracecheck: wrote ${outcome.events.length} events and ${outcome.masterData.length} master data documents to ${out}\n`,
      );
    } else {
      process.stdout.write(readableTrace(outcome));
    }
    for (const gap of outcome.gaps) process.stderr.write(`tracecheck: not fetched: ${gap}\n`);
    return outcome.gaps.length === 0 ? 0 : 1;
  } catch (error) {
    if (error instanceof TraceError) {
      process.stderr.write(`tracecheck: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
