// A definition text that passed the OpenAPI 3.1 check is remembered and not checked again; any other text is.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { DEFAULT_DEFINITION_FILE, DefinitionError, loadDefinition } from "../../src/definition/index.ts";
import { passedMarker } from "../../src/definition/load-definition.ts";
import { tempDir } from "../support/cli.ts";

let work: Awaited<ReturnType<typeof tempDir>>;
let original: Record<string, unknown>;
beforeAll(async () => {
  work = await tempDir("openapi-passed");
  original = parse(await readFile(DEFAULT_DEFINITION_FILE, "utf8"));
});
afterAll(async () => {
  await work?.remove();
});

function write(name: string, doc: unknown): { file: string; text: string } {
  const file = path.join(work.dir, name);
  const text = stringify(doc);
  writeFileSync(file, text);
  return { file, text };
}

describe("definitions that passed the OpenAPI 3.1 check", () => {
  it("are remembered, one mark per text, and a text that fails leaves none", async () => {
    const passedCache = path.join(work.dir, "remembered");
    const good = write("good.yaml", original);
    await loadDefinition(good.file, { passedCache });
    expect(readdirSync(passedCache)).toEqual([path.basename(passedMarker(good.text, passedCache))]);
    const bad = write("bad.yaml", { ...original, openapi: "3.0.3" });
    await expect(loadDefinition(bad.file, { passedCache })).rejects.toBeInstanceOf(DefinitionError);
    expect(readdirSync(passedCache)).toHaveLength(1);
  });

  it("are not checked again: a text marked as passed loads without the check", async () => {
    const passedCache = path.join(work.dir, "marked");
    // Marked by hand, so that only a check that was skipped lets it through.
    const unchecked = write("unchecked.yaml", { ...original, info: undefined });
    await expect(loadDefinition(unchecked.file, { passedCache })).rejects.toThrow(/info/);
    const marked = write("marked.yaml", { ...original, info: undefined, servers: [] });
    mkdirSync(passedCache, { recursive: true });
    writeFileSync(passedMarker(marked.text, passedCache), "");
    await expect(loadDefinition(marked.file, { passedCache })).resolves.toMatchObject({ file: marked.file });
  });

  it("are checked again when the text changes, and when the mark cannot be kept", async () => {
    const passedCache = path.join(work.dir, "changing");
    const file = path.join(work.dir, "changing.yaml");
    writeFileSync(file, stringify(original));
    await loadDefinition(file, { passedCache });
    writeFileSync(file, stringify({ ...original, openapi: "3.0.3" }));
    await expect(loadDefinition(file, { passedCache })).rejects.toThrow(/3\.1/);

    const blocked = path.join(work.dir, "a-file");
    writeFileSync(blocked, "");
    const elsewhere = write("elsewhere.yaml", { ...original, info: { title: "t", version: "1" } });
    await expect(
      loadDefinition(elsewhere.file, { passedCache: path.join(blocked, "cache") }),
    ).resolves.toMatchObject({ file: elsewhere.file });
  });
});
