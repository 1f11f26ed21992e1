// The committed fixture fixtures/small.dataset.jsonld, which vendors load into their systems. It must stay
// byte-stable: a test regenerates it and compares. Regenerate with `npx tsx src/generate/fixture.ts`.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { REPO_ROOT } from "../definition/locations.ts";
import type { Dataset } from "../model/index.ts";
import { generateDataset } from "./dataset.ts";
import { writeDatasetFile } from "./dataset-file.ts";

export const SMALL_FIXTURE = {
  file: path.join(REPO_ROOT, "fixtures", "small.dataset.jsonld"),
  seed: 1,
  events: 200,
} as const;

export function smallFixtureDataset(): Dataset {
  return generateDataset({ seed: SMALL_FIXTURE.seed, events: SMALL_FIXTURE.events });
}

export async function writeSmallFixture(file: string = SMALL_FIXTURE.file): Promise<void> {
  await writeDatasetFile(smallFixtureDataset(), file);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeSmallFixture().catch((error: unknown) => {
    console.error(`Could not write ${SMALL_FIXTURE.file}: ${(error as Error).message}`);
    process.exitCode = 1;
  });
}
