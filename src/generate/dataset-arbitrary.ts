// Datasets as a fast-check arbitrary, for properties. Apart from dataset.ts so that a run that only generates a
// dataset does not load fast-check.
import fc from "fast-check";
import type { Dataset } from "../model/index.ts";
import { checkCount } from "./dataset.ts";
import { DatasetBuilder } from "./dataset-builder.ts";
import type { DatasetShape } from "./options.ts";
import { resolveShape } from "./options.ts";
import { createRandom } from "./random.ts";

export interface DatasetArbitraryOptions extends DatasetShape {
  /** Fewest chains in a dataset (default 1). */
  minChains?: number;
  /** Most chains in a dataset (default 4, or minChains if larger). */
  maxChains?: number;
}

/**
 * Datasets of whole chains. The arbitrary draws only seeds and chain kinds, so shrinking removes chains and
 * simplifies seeds while every dataset stays coherent.
 */
export function datasetArbitrary(opts: DatasetArbitraryOptions = {}): fc.Arbitrary<Dataset> {
  const shape = resolveShape(opts);
  const minChains = opts.minChains ?? 1;
  const maxChains = opts.maxChains ?? Math.max(minChains, 4);
  checkCount("minChains", minChains);
  checkCount("maxChains", maxChains);
  if (maxChains < minChains) {
    throw new Error(`maxChains (${maxChains}) is below minChains (${minChains}); raise maxChains.`);
  }
  const chain = fc.record({ seed: fc.nat(), module: fc.constantFrom(...shape.modules) });
  return fc
    .record({ seed: fc.nat(), chains: fc.array(chain, { minLength: minChains, maxLength: maxChains }) })
    .map((plan) => {
      const builder = new DatasetBuilder(createRandom(plan.seed), shape);
      for (const c of plan.chains) builder.addChain(createRandom(c.seed), c.module);
      return builder.dataset();
    });
}
