// serve, faults and fixtures: thin wiring over the reference sender and the generator.
import { generateDataset, writeDatasetFile } from "../generate/index.ts";
import { readDatasetOption, UsageError } from "../harness/options.ts";
import { loadKeys } from "../reference/auth/index.ts";
import {
  type NamedConfiguration,
  REFERENCE_CONFIGURATION_NAMES,
  referenceConfiguration,
} from "../reference/configurations.ts";
import { faultCatalogue, startReference } from "../reference/index.ts";
import type { Parse } from "./parse.ts";

function int(name: string, v: unknown, fallback: number | undefined, min = 0): number | undefined {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} must be a whole number ≥ ${min}, got "${String(v)}".`);
  return n;
}

function csv(v: unknown): string[] {
  const parts = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return parts
    .flatMap((p) => String(p).split(","))
    .map((s) => s.trim())
    .filter(Boolean);
}

export async function serveCommand(args: string[], parse: Parse, help: string): Promise<number> {
  const { values, positionals } = parse(args, {
    port: { type: "string" },
    "resolver-port": { type: "string" },
    "api-key": { type: "string", multiple: true },
    "keys-file": { type: "string" },
    dataset: { type: "string" },
    seed: { type: "string" },
    events: { type: "string" },
    faults: { type: "string", multiple: true },
    host: { type: "string" },
    "page-size": { type: "string" },
    "broad-limit": { type: "string" },
    "wrong-key-status": { type: "string" },
    "answer-in-digital-link": { type: "boolean" },
    "canonical-anchors": { type: "boolean" },
    "auth-on-resolver": { type: "boolean" },
    "reference-config": { type: "string" },
    "capture-limit": { type: "string" },
    "capture-size-limit": { type: "string" },
  });
  if (values.help) {
    process.stdout.write(help);
    return 0;
  }
  if (positionals.length > 0)
    throw new UsageError(`unexpected argument "${positionals[0]}"; see tracecheck serve --help.`);
  if (values.dataset && (values.seed !== undefined || values.events !== undefined)) {
    throw new UsageError("give either --dataset or --seed/--events, not both.");
  }
  const wrongKeyStatus = int("wrong-key-status", values["wrong-key-status"], undefined, 401);
  if (wrongKeyStatus !== undefined && wrongKeyStatus !== 401 && wrongKeyStatus !== 403)
    throw new UsageError("--wrong-key-status must be 401 or 403.");
  const named = namedConfiguration(values["reference-config"]);
  const dataset = values.dataset
    ? await readDatasetOption(String(values.dataset))
    : generateDataset({ seed: int("seed", values.seed, 1)!, events: int("events", values.events, 200, 1)! });
  const keyOpts: { keys?: string[]; env?: NodeJS.ProcessEnv; keysFile?: string } = {
    keys: csv(values["api-key"]),
    env: process.env,
  };
  if (values["keys-file"] !== undefined) keyOpts.keysFile = String(values["keys-file"]);
  const faults = csv(values.faults);
  const known = new Set(faultCatalogue().map((f) => f.id));
  const unknown = faults.filter((f) => !known.has(f));
  if (unknown.length > 0)
    throw new UsageError(
      `unknown fault ${unknown.join(", ")}; run tracecheck faults to list the known faults.`,
    );
  const apiKeys = await loadKeys(keyOpts);
  const port = int("port", values.port, 0);
  const resolverPort = int("resolver-port", values["resolver-port"], named?.resolverPort);
  const pageSize = int("page-size", values["page-size"], undefined, 1);
  const broadLimit = int("broad-limit", values["broad-limit"], undefined);
  const captureEvents = int("capture-limit", values["capture-limit"], undefined, 1);
  const captureBytes = int("capture-size-limit", values["capture-size-limit"], undefined, 1);
  if (port !== 0 && port === resolverPort)
    throw new UsageError(`--port and --resolver-port both name port ${port}; give the resolver another.`);
  const reference = await startReference({
    host: values.host ? String(values.host) : "127.0.0.1",
    port,
    ...(resolverPort !== undefined ? { resolverPort } : {}),
    apiKeys,
    dataset,
    faults,
    capture: {
      ...(captureEvents !== undefined ? { events: captureEvents } : {}),
      ...(captureBytes !== undefined ? { bytes: captureBytes } : {}),
    },
    // A flag given on the command line overrides the named configuration; one left out keeps it.
    config: {
      ...named?.config,
      ...(pageSize !== undefined ? { pageSize } : {}),
      ...(broadLimit !== undefined ? { broadLimit } : {}),
      ...(wrongKeyStatus !== undefined ? { wrongKeyStatus: wrongKeyStatus as 401 | 403 } : {}),
      ...(values["answer-in-digital-link"] === true ? { answerInDigitalLink: true } : {}),
      ...(values["canonical-anchors"] === true ? { canonicalAnchors: true } : {}),
      ...(values["auth-on-resolver"] === true ? { authOnResolver: true } : {}),
    },
  }).catch((err: unknown) => {
    throw portProblem(err, port!, resolverPort) ?? err;
  });
  process.stdout.write(`listening ${reference.eventsBase} ${reference.resolverBase}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      resolve();
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  await reference.close();
  return 0;
}

/** A port another process holds, as the one sentence that names the option to change; undefined for any other error. */
function portProblem(err: unknown, port: number, resolverPort: number | undefined): UsageError | undefined {
  const { code, port: taken } = err as NodeJS.ErrnoException & { port?: number };
  if (code !== "EADDRINUSE" && code !== "EACCES") return undefined;
  const option =
    taken !== undefined && taken === resolverPort && taken !== port ? "--resolver-port" : "--port";
  const which = taken === undefined ? `the port ${option} names` : `port ${taken}`;
  return new UsageError(
    code === "EADDRINUSE"
      ? `${which} is in use; choose another ${option}.`
      : `${which} may not be opened by this user; choose another ${option} (above 1023).`,
  );
}

function namedConfiguration(name: unknown): NamedConfiguration | undefined {
  if (name === undefined) return undefined;
  if (!REFERENCE_CONFIGURATION_NAMES.includes(String(name))) {
    throw new UsageError(
      `--reference-config: unknown configuration "${String(name)}"; known: ${REFERENCE_CONFIGURATION_NAMES.join(", ")}.`,
    );
  }
  return referenceConfiguration(String(name));
}

export async function faultsCommand(args: string[], parse: Parse, help: string): Promise<number> {
  const { values } = parse(args, { json: { type: "boolean" } });
  if (values.help) {
    process.stdout.write(help);
    return 0;
  }
  const faults = faultCatalogue();
  if (values.json) {
    process.stdout.write(`${JSON.stringify(faults, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...faults.map((f) => f.id.length));
  for (const f of faults)
    process.stdout.write(`${f.id.padEnd(width)}  ${f.description}  [${f.violates.join(", ")}]\n`);
  return 0;
}

export async function fixturesCommand(args: string[], parse: Parse, help: string): Promise<number> {
  const { values } = parse(args, {
    seed: { type: "string" },
    events: { type: "string" },
    out: { type: "string" },
  });
  if (values.help) {
    process.stdout.write(help);
    return 0;
  }
  if (values.out === undefined) throw new UsageError("fixtures needs --out <file>.");
  const seed = int("seed", values.seed, 1)!;
  const events = int("events", values.events, 200, 1)!;
  const ds = generateDataset({ seed, events });
  await writeDatasetFile(ds, String(values.out));
  process.stdout.write(
    `wrote ${ds.events.length} events and ${ds.masterData.length} master data documents to ${values.out}\n`,
  );
  return 0;
}

/** `tracecheck load`: the dataset captured into a target through its EPCIS 2.0 capture interface. */
export async function loadCommand(args: string[], parse: Parse, help: string): Promise<number> {
  const { values, positionals } = parse(args, {
    target: { type: "string" },
    "api-key": { type: "string" },
    dataset: { type: "string" },
    seed: { type: "string" },
    events: { type: "string" },
    "start-from": { type: "string" },
    timeout: { type: "string" },
    quiet: { type: "boolean" },
  });
  if (values.help) {
    process.stdout.write(help);
    return 0;
  }
  if (positionals.length > 0)
    throw new UsageError(`unexpected argument "${positionals[0]}"; see tracecheck load --help.`);
  const target = String(values.target ?? "").replace(/\/+$/, "");
  if (values.target === undefined)
    throw new UsageError("load needs --target <url>, the base of the EPCIS interface.");
  if (!URL.canParse(target) || !/^https?:$/.test(new URL(target).protocol))
    throw new UsageError(`--target must be an absolute http(s) URL, got "${String(values.target)}".`);
  if (values.dataset && (values.seed !== undefined || values.events !== undefined)) {
    throw new UsageError("give either --dataset or --seed/--events, not both.");
  }
  const timeoutMs = int("timeout", values.timeout, 10_000, 1)!;
  const dataset = values.dataset
    ? await readDatasetOption(String(values.dataset))
    : generateDataset({ seed: int("seed", values.seed, 1)!, events: int("events", values.events, 200, 1)! });
  const apiKey = (values["api-key"] as string | undefined) ?? process.env.TRACECHECK_API_KEY;
  const { HttpClient } = await import("../http/index.ts");
  const { loadByCapture, loadSummary } = await import("../target/capture.ts");
  const client = new HttpClient({
    timeoutMs,
    allowedOrigins: [new URL(target).origin],
    ...(apiKey ? { apiKey } : {}),
  });
  try {
    const outcome = await loadByCapture(client, {
      eventsBase: target,
      events: dataset.events,
      ...(values["start-from"] !== undefined ? { startFrom: String(values["start-from"]) } : {}),
      ...(values.quiet === true
        ? {}
        : { note: (line: string) => process.stderr.write(`tracecheck: ${line}\n`) }),
    });
    if (!outcome.ok) {
      process.stderr.write(`tracecheck: ${outcome.reason}\n`);
      return 2;
    }
    process.stdout.write(`${loadSummary(outcome)}\n`);
    return 0;
  } finally {
    await client.close();
  }
}
