// How hard a proving run works. Quick keeps `npm test` within its budget; full is `npm run prove`.
import type { ConformanceClass } from "../engine/types.ts";
import { FULL_SCALE, QUICK_SCALE, type ShapeScale } from "./shapes.ts";

export interface Effort {
  name: "quick" | "full";
  /** --runs for every run; undefined keeps tracecheck's default. */
  runs?: number;
  /** --events of the embedded reference; undefined keeps tracecheck's default. */
  events?: number;
  /** The seed of every kill-matrix run, so that a missed fault can be replayed exactly. */
  seed: number;
  /** Seeds per dataset shape in the no-false-verdict runs. */
  seedsPerShape: number;
  scale: ShapeScale;
  /**
   * A faulted reference is checked with only the classes of the requirements its fault names, and within them
   * only the suite files that record those requirements.
   */
  namedClassesOnly: boolean;
}

/**
 * At 80 events every fault of the catalogue is still caught, and a run costs less than at 120 (a paged sender
 * answers in fewer pages); fewer than 10 property runs let a fault through (encoding-double-decode needs 8 at
 * seed 1).
 */
export const QUICK_EFFORT: Readonly<Effort> = Object.freeze({
  name: "quick",
  runs: 10,
  events: 80,
  seed: 1,
  seedsPerShape: 1,
  scale: QUICK_SCALE,
  namedClassesOnly: true,
});

export const FULL_EFFORT: Readonly<Effort> = Object.freeze({
  name: "full",
  seed: 1,
  seedsPerShape: 3,
  scale: FULL_SCALE,
  namedClassesOnly: false,
});

/** Every commodity module, so that the module faults have a schema to break. */
export const ALL_MODULES_ARG = "seafood,wildcatch,aquaculture";

/** The options every proving run shares. */
export function effortArgs(effort: Effort, classes?: readonly ConformanceClass[]): string[] {
  const args = ["--seed", String(effort.seed), "--modules", ALL_MODULES_ARG];
  if (effort.runs !== undefined) args.push("--runs", String(effort.runs));
  if (effort.events !== undefined) args.push("--events", String(effort.events));
  if (classes !== undefined && classes.length > 0) args.push("--suite", classes.join(","));
  return args;
}
