// Coherent seafood supply-chain datasets: a seeded generator that builds large datasets directly (a million events
// without going through shrinkable values). The fast-check arbitrary for properties is in dataset-arbitrary.ts.
import type { Dataset } from "../model/index.ts";
import { DatasetBuilder } from "./dataset-builder.ts";
import { type DatasetShape, resolveShape } from "./options.ts";
import { createRandom } from "./random.ts";

export interface GenerateDatasetOptions extends DatasetShape {
  seed: number;
  /** How many events the dataset holds: exactly this many (the last chain is cut short to fit). */
  events: number;
}

export function checkCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`${name} must be a whole number of 0 or more; got ${value}.`);
  }
}

/** The same dataset for the same options, every time; chain kinds alternate so each module is present. */
export function generateDataset(opts: GenerateDatasetOptions): Dataset {
  const shape = resolveShape(opts);
  checkCount("events", opts.events);
  if (!Number.isSafeInteger(opts.seed)) throw new Error(`seed must be a whole number; got ${opts.seed}.`);
  const rng = createRandom(opts.seed);
  const builder = new DatasetBuilder(rng.fork(), shape);
  for (let turn = 0; builder.size < opts.events; turn++) {
    const module = shape.modules[turn % shape.modules.length] ?? "wildcatch";
    builder.addChain(rng.fork(), module, opts.events - builder.size);
  }
  return builder.dataset();
}

/**
 * The party that holds the dataset: its first gs1:Organization, as exchanged at setup (spec 1): the party's
 * Digital Link URI and its location number.
 */
export function senderOf(ds: Dataset): { partyDl: string; gln: string } {
  const org = ds.masterData.find((d) => d["@type"] === "gs1:Organization");
  const gln = org?.["globalLocationNumber"];
  if (org === undefined || typeof gln !== "string") {
    throw new Error(
      "The dataset has no gs1:Organization with a globalLocationNumber, so it names no sender; put the sender's Organization first in its master data.",
    );
  }
  return { partyDl: org["@id"], gln };
}
