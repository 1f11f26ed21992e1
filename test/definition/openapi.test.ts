import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import {
  DEFAULT_DEFINITION_FILE,
  DefinitionError,
  loadDefinition,
  openApiProblem,
} from "../../src/definition/index.ts";

let dir: string;
let original: Record<string, unknown>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tracecheck-definition-"));
  original = parse(await readFile(DEFAULT_DEFINITION_FILE, "utf8"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeVariant(name: string, doc: unknown): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, typeof doc === "string" ? doc : stringify(doc));
  return file;
}

describe("the interface definition as OpenAPI 3.1 (spec 9)", () => {
  it("validates with the OpenAPI schema validator", async () => {
    expect(await openApiProblem(original)).toBeUndefined();
    const definition = await loadDefinition();
    expect(definition.file).toBe(DEFAULT_DEFINITION_FILE);
    expect(definition.raw.openapi).toMatch(/^3\.1\./);
  });

  it("refuses a copy without info, naming the file and what is missing", async () => {
    const broken = structuredClone(original);
    delete broken.info;
    const file = await writeVariant("no-info.yaml", broken);
    const error = await loadDefinition(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as DefinitionError).message).toContain(file);
    expect((error as DefinitionError).message).toContain("info");
  });

  it("refuses a copy whose parameter has no location", async () => {
    const broken = structuredClone(original) as {
      components: { parameters: Record<string, Record<string, unknown>> };
    };
    delete broken.components.parameters.EQ_bizStep?.in;
    const file = await writeVariant("no-in.yaml", broken);
    await expect(loadDefinition(file)).rejects.toBeInstanceOf(DefinitionError);
  });

  it("refuses a copy that points a $ref at a component that does not exist", async () => {
    const broken = structuredClone(original) as { components: { schemas: Record<string, unknown> } };
    delete broken.components.schemas.Link;
    const file = await writeVariant("dangling.yaml", broken);
    await expect(loadDefinition(file)).rejects.toThrow(/Link/);
  });

  it("refuses an OpenAPI 3.0 document", async () => {
    const file = await writeVariant("v30.yaml", { ...original, openapi: "3.0.3" });
    await expect(loadDefinition(file)).rejects.toThrow(/3\.1/);
  });

  it("says which file could not be read or parsed", async () => {
    const missing = path.join(dir, "absent.yaml");
    await expect(loadDefinition(missing)).rejects.toThrow(missing);
    const file = await writeVariant("bad.yaml", "openapi: [3.1.0\ninfo: {\n");
    await expect(loadDefinition(file)).rejects.toThrow(/not valid YAML/);
  });
});

describe("loadDefinition keeps what it read, by file and text", () => {
  it("answers the same definition for an unchanged file, and reads a changed one afresh", async () => {
    const file = await writeVariant("kept.yaml", original);
    const first = await loadDefinition(file);
    expect(await loadDefinition(file)).toBe(first);
    const info = original.info as Record<string, unknown>;
    await writeVariant("kept.yaml", { ...original, info: { ...info, title: "changed" } });
    const second = await loadDefinition(file);
    expect(second).not.toBe(first);
    expect((second.raw.info as Record<string, unknown>).title).toBe("changed");
  });

  it("keeps no failure: a file fixed after a failed read loads", async () => {
    const file = await writeVariant("fixed.yaml", { ...original, openapi: "3.0.3" });
    await expect(loadDefinition(file)).rejects.toThrow(/3\.1/);
    await writeVariant("fixed.yaml", original);
    await expect(loadDefinition(file)).resolves.toMatchObject({ file });
    const broken = await writeVariant("again.yaml", { ...original, openapi: "3.0.3" });
    await expect(loadDefinition(broken)).rejects.toThrow(/3\.1/);
    await expect(loadDefinition(broken)).rejects.toThrow(/3\.1/);
  });

  it("skips the OpenAPI check only when told the file passed it, and checks it when next asked plainly", async () => {
    const file = await writeVariant("told.yaml", { ...original, openapi: "3.0.3" });
    await expect(loadDefinition(file, { alreadyValidated: true })).resolves.toMatchObject({ file });
    await expect(loadDefinition(file)).rejects.toThrow(/3\.1/);
    const good = await writeVariant("checked.yaml", original);
    const checked = await loadDefinition(good);
    expect(await loadDefinition(good, { alreadyValidated: true })).toBe(checked);
  });
});

type Responses = Record<string, { description?: string; content?: Record<string, unknown> }>;
const eventsResponses = (doc: Record<string, unknown>): Responses =>
  (doc as { paths: Record<string, { get: { responses: Responses } }> }).paths["/events"]!.get.responses;

describe("the events response's schema, wherever a definition writes it", () => {
  it("no false positive on a 2XX response or an application/json body: the spec shows neither code nor type", async () => {
    const base = await loadDefinition(DEFAULT_DEFINITION_FILE);
    expect(base.epcisSchemaUrl).toMatch(/^https:\/\//);
    const copy = structuredClone(original);
    const responses = eventsResponses(copy);
    const ok = responses["200"]!;
    ok.content = { "application/json": ok.content?.["application/ld+json"] };
    delete responses["200"];
    responses["2XX"] = ok;
    const moved = await loadDefinition(await writeVariant("success-2xx.yaml", copy));
    expect(moved.epcisSchemaUrl).toBe(base.epcisSchemaUrl);
  });

  it("finds none when no success response declares a body", async () => {
    const copy = structuredClone(original);
    eventsResponses(copy)["200"] = { description: "events" };
    const bare = await loadDefinition(await writeVariant("success-bare.yaml", copy));
    expect(bare.epcisSchemaUrl).toBeUndefined();
  });
});
