// fixtures/small.dataset.jsonld is what vendors load: it must be exactly what the generator makes for seed 1
// and 200 events, and a valid EPCISDocument. Regenerate it with `npx tsx src/generate/fixture.ts`.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SMALL_FIXTURE, smallFixtureDataset } from "../../src/generate/fixture.ts";
import { datasetToDocument, generateDataset, readDatasetFile, senderOf } from "../../src/generate/index.ts";
import { epcisDocumentValidator, REPO_ROOT } from "./support.ts";

describe("fixtures/small.dataset.jsonld", () => {
  it("lives at fixtures/small.dataset.jsonld and is made from seed 1 with 200 events", () => {
    expect(SMALL_FIXTURE.file).toBe(path.join(REPO_ROOT, "fixtures/small.dataset.jsonld"));
    expect(smallFixtureDataset()).toEqual(generateDataset({ seed: 1, events: 200 }));
  });

  it("equals a fresh regeneration byte for byte", async () => {
    const committed = await readFile(SMALL_FIXTURE.file, "utf8");
    const regenerated = `${JSON.stringify(datasetToDocument(generateDataset({ seed: 1, events: 200 })), null, 2)}\n`;
    expect(committed === regenerated, "the fixture is stale: run npx tsx src/generate/fixture.ts").toBe(true);
  });

  it("loads back as the dataset, validates, and names its sender", async () => {
    const ds = await readDatasetFile(SMALL_FIXTURE.file);
    expect(ds).toEqual(smallFixtureDataset());
    expect(ds.events).toHaveLength(200);
    expect(epcisDocumentValidator()(JSON.parse(await readFile(SMALL_FIXTURE.file, "utf8")))).toEqual([]);
    expect(senderOf(ds).partyDl).toMatch(/^https:\/\/id\.gs1\.org\/417\/\d{13}$/);
  });
});
