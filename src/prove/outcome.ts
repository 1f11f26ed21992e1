// What a proving run is and what comes back from it.
import type { Report } from "../engine/types.ts";

export interface TracecheckRun {
  /** Names the run in tables and its report directory: letters, digits, dots and dashes. */
  label: string;
  /** Options of `tracecheck run`, as on its command line, without --report-dir and --quiet. */
  args: string[];
  /** Only the suite files that record these requirements run (RunOptions.onlyRequirements). */
  onlyRequirements?: string[];
  /** Requirements a correct sender run this way warns on, and no others (a named configuration's freedom). */
  expectedWarnings?: string[];
}

export interface TracecheckOutcome {
  label: string;
  args: string[];
  /** The exit status `tracecheck run` would give; null when the run was stopped at its bound. */
  exitCode: number | null;
  timedOut: boolean;
  report?: Report;
  reportDir: string;
  /** What the run printed: the summary on stdout, messages on stderr. */
  stdout: string;
  stderr: string;
  durationMs: number;
  /** Peak resident memory of the process that ran it, when it answered (see WorkerReply.peakRssBytes). */
  peakRssBytes?: number;
}

/**
 * The environment of a proving process: ours without what tracecheck reads (a developer's key or mirror must not
 * change a verdict) and without the variables of a vitest that may be running us, which would confuse the
 * runner's own.
 */
export function childEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith("TRACECHECK_") || k.startsWith("VITEST") || k === "NODE_OPTIONS") continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: "1" };
}
