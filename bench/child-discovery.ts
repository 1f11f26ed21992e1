// Child process: the harness discovering the events of the target at argv[2] (key in TRACECHECK_API_KEY), with a
// run's default client settings. Its peak resident set is the harness's own, apart from the target's.
import { resolveRunOptions } from "../src/harness/options.ts";
import { HttpClient } from "../src/http/index.ts";
import { discoverBaseline } from "../src/target/baseline.ts";
import { emitResult, peakRssBytes } from "./child.ts";

export interface DiscoveryFigures {
  ms: number;
  requests: number;
  events: number;
  method: string;
  complete: boolean;
  note: string;
  peakRssBytes: number;
  /** Why discovery stopped, when it threw instead of returning a baseline. */
  error?: string;
}

async function main(): Promise<void> {
  const eventsBase = process.argv[2];
  if (eventsBase === undefined)
    throw new Error("Pass the events base URL of the target as the first argument.");
  const opts = resolveRunOptions({ target: eventsBase }, {}, process.env);
  const client = new HttpClient({
    timeoutMs: opts.timeoutMs,
    concurrency: opts.concurrency,
    ratePerSecond: opts.rate,
    apiKey: opts.apiKey,
    allowedOrigins: [new URL(eventsBase).origin],
  });
  const started = performance.now();
  try {
    const baseline = await discoverBaseline(client, { eventsBase, resolverBase: eventsBase });
    emitResult({
      ms: performance.now() - started,
      requests: client.requestCount,
      events: baseline.events.length,
      method: baseline.method,
      complete: baseline.complete,
      note: baseline.note,
      peakRssBytes: peakRssBytes(),
    } satisfies DiscoveryFigures);
  } catch (err) {
    // A discovery that throws is a finding of the benchmark, not a failure of it.
    emitResult({
      ms: performance.now() - started,
      requests: client.requestCount,
      events: 0,
      method: "none",
      complete: false,
      note: "discovery threw",
      peakRssBytes: peakRssBytes(),
      error: (err as Error).message,
    } satisfies DiscoveryFigures);
  } finally {
    await client.close();
  }
}

await main();
