// Runs of the reference without faults that must come out clean: every dataset shape over several seeds, and
// every named configuration of a correct but unusual sender.
import path from "node:path";
import { generateDataset, writeDatasetFile } from "../generate/index.ts";
import { REFERENCE_CONFIGURATIONS } from "../reference/configurations.ts";
import { ALL_MODULES_ARG, type Effort } from "./effort.ts";
import type { TracecheckRun } from "./outcome.ts";
import { DATASET_SHAPES } from "./shapes.ts";

/** Seeds of shape runs start here, a hundred apart per shape, so that no two runs share a seed. */
const SHAPE_SEED_BASE = 1000;

function common(seed: number, effort: Effort): string[] {
  const args = ["--seed", String(seed), "--modules", ALL_MODULES_ARG];
  if (effort.runs !== undefined) args.push("--runs", String(effort.runs));
  return args;
}

/** Writes one dataset per shape and seed into `dir` and returns the runs that load them. */
export async function shapeRuns(effort: Effort, dir: string): Promise<TracecheckRun[]> {
  const runs: TracecheckRun[] = [];
  for (const [n, shape] of DATASET_SHAPES.entries()) {
    for (let k = 0; k < effort.seedsPerShape; k++) {
      const seed = SHAPE_SEED_BASE + n * 100 + k;
      const file = path.join(dir, `dataset-${shape.name}-${seed}.json`);
      await writeDatasetFile(shape.build(seed, effort.scale), file);
      runs.push({ label: `shape-${shape.name}-${seed}`, args: [...common(seed, effort), "--dataset", file] });
    }
  }
  return runs;
}

/** The embedded reference's events where the effort names none (tracecheck's default for --events). */
const DEFAULT_EVENTS = 200;

/**
 * The run of each named configuration; one whose freedom shows only against what was loaded gets the dataset the
 * embedded reference would generate, written into `dir` and given with --dataset.
 */
export async function configurationRuns(effort: Effort, dir: string): Promise<TracecheckRun[]> {
  const runs: TracecheckRun[] = [];
  for (const [n, c] of REFERENCE_CONFIGURATIONS.entries()) {
    const seed = effort.seed + n;
    const args = [...common(seed, effort), "--reference-config", c.name];
    if (c.withDataset === true) {
      const file = path.join(dir, `dataset-config-${c.name}-${seed}.json`);
      await writeDatasetFile(generateDataset({ seed, events: effort.events ?? DEFAULT_EVENTS }), file);
      args.push("--dataset", file);
    } else if (effort.events !== undefined) {
      args.push("--events", String(effort.events));
    }
    runs.push({ label: `config-${c.name}`, args, expectedWarnings: [...c.expectedWarnings] });
  }
  return runs;
}
