import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  assertSchemaAvailable,
  DEFAULT_SIBLING_MIRROR,
  EPCIS_SCHEMA_URL,
  mirrorPath,
  REPO_ROOT,
  resolveSchema,
  SchemaUnavailableError,
} from "../../src/definition/index.ts";

const SIBLING = path.resolve(REPO_ROOT, "../shared/epcis/mirror");
let tmp: string;
let emptyCache: string;
let savedEnv: string | undefined;
let published: Record<string, unknown>;

async function place(dir: string, url: string, body: unknown): Promise<void> {
  const file = mirrorPath(dir, url);
  if (!file) throw new Error(`cannot place ${url}`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(body));
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "tracecheck-schemas-"));
  emptyCache = path.join(tmp, "empty-cache");
  const file = mirrorPath(SIBLING, EPCIS_SCHEMA_URL) ?? "";
  published = JSON.parse(await readFile(file, "utf8"));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

// The environment may name a mirror; each test decides for itself.
beforeEach(() => {
  savedEnv = process.env.TRACECHECK_SCHEMA_MIRROR;
  delete process.env.TRACECHECK_SCHEMA_MIRROR;
});
afterEach(() => {
  if (savedEnv === undefined) delete process.env.TRACECHECK_SCHEMA_MIRROR;
  else process.env.TRACECHECK_SCHEMA_MIRROR = savedEnv;
});

describe("resolveSchema (ARCHITECTURE: mirror, cache, sibling mirror, network)", () => {
  it("maps a URL onto <dir>/<host>/<path> and refuses paths that climb out", () => {
    expect(mirrorPath("/m", "https://ref.gs1.org/standards/epcis/2.0.1/epcis-json-schema.json")).toBe(
      path.join("/m", "ref.gs1.org", "standards", "epcis", "2.0.1", "epcis-json-schema.json"),
    );
    expect(mirrorPath("/m", "https://a.example/x%2F..%2F..%2Fetc/passwd")).toBeUndefined();
    expect(mirrorPath("/m", "https://a.example/%2E%2E")).toBeUndefined();
    expect(mirrorPath("/m", "https://a.example/")).toBeUndefined();
  });

  it("takes the EPCIS schema from the sibling mirror with the network off", async () => {
    expect(DEFAULT_SIBLING_MIRROR).toBe(SIBLING);
    const { schema, source } = await resolveSchema(EPCIS_SCHEMA_URL, {
      cacheDir: emptyCache,
      network: false,
    });
    expect(source).toBe("sibling-mirror");
    expect(schema).toEqual(published);
  });

  it("prefers an explicit mirror, given as an option or through TRACECHECK_SCHEMA_MIRROR", async () => {
    const mirror = path.join(tmp, "explicit");
    await place(mirror, EPCIS_SCHEMA_URL, { ...published, title: "from the explicit mirror" });
    const byOption = await resolveSchema(EPCIS_SCHEMA_URL, { mirror, cacheDir: emptyCache, network: false });
    expect(byOption.source).toBe("mirror");
    expect((byOption.schema as { title?: string }).title).toBe("from the explicit mirror");
    process.env.TRACECHECK_SCHEMA_MIRROR = mirror;
    const byEnv = await resolveSchema(EPCIS_SCHEMA_URL, { cacheDir: emptyCache, network: false });
    expect(byEnv.source).toBe("mirror");
  });

  it("falls through a mirror that lacks the file", async () => {
    const mirror = path.join(tmp, "unrelated");
    await place(mirror, "https://other.example/schema.json", {});
    const { source } = await resolveSchema(EPCIS_SCHEMA_URL, {
      mirror,
      cacheDir: emptyCache,
      network: false,
    });
    expect(source).toBe("sibling-mirror");
  });

  it("uses the cache before the sibling mirror", async () => {
    const cacheDir = path.join(tmp, "cache");
    await place(cacheDir, EPCIS_SCHEMA_URL, { ...published, title: "cached" });
    const { schema, source } = await resolveSchema(EPCIS_SCHEMA_URL, { cacheDir, network: false });
    expect(source).toBe("cache");
    expect((schema as { title?: string }).title).toBe("cached");
  });

  it("resolves the external references inside a schema through the same lookup", async () => {
    const mirror = path.join(tmp, "nested-mirror");
    const cacheDir = path.join(tmp, "nested-cache");
    await place(mirror, "https://a.example/root.json", {
      type: "object",
      properties: { code: { $ref: "https://b.example/defs.json#/definitions/code" } },
    });
    await place(cacheDir, "https://b.example/defs.json", {
      definitions: { code: { type: "string", pattern: "^[A-Z]+$" } },
    });
    const { schema, source } = await resolveSchema("https://a.example/root.json", {
      mirror,
      cacheDir,
      network: false,
    });
    expect(source).toBe("mirror");
    expect(JSON.stringify(schema)).toContain("^[A-Z]+$");
    expect(JSON.stringify(schema)).not.toContain("b.example");
  });

  it("says how to provide a mirror when nothing has the schema", async () => {
    const missing = path.join(tmp, "no-such-folder");
    expect(existsSync(missing)).toBe(false);
    const error = await resolveSchema(EPCIS_SCHEMA_URL, {
      cacheDir: emptyCache,
      siblingMirror: missing,
      network: false,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaUnavailableError);
    const message = (error as Error).message;
    expect(message).toContain(EPCIS_SCHEMA_URL);
    expect(message).toContain("--schema-mirror <dir>");
    expect(message).toContain("TRACECHECK_SCHEMA_MIRROR");
    expect(message).toContain("<dir>/<host>/<path>");
    expect(message.split(/[.;]\s/).length).toBeGreaterThan(1);
    expect(message.trim().match(/\.\s/g)).toBeNull();
    expect(existsSync(emptyCache)).toBe(false);
  });

  it("names the missing nested schema too", async () => {
    const mirror = path.join(tmp, "half-mirror");
    await place(mirror, "https://a.example/half.json", { $ref: "https://c.example/absent.json" });
    await expect(
      resolveSchema("https://a.example/half.json", {
        mirror,
        cacheDir: emptyCache,
        siblingMirror: path.join(tmp, "no-such-folder"),
        network: false,
      }),
    ).rejects.toThrow(/https:\/\/c\.example\/absent\.json/);
  });
});

describe("assertSchemaAvailable (what a run asks before it starts)", () => {
  const offline = () => ({
    cacheDir: emptyCache,
    siblingMirror: path.join(tmp, "no-such-folder"),
    network: false as const,
  });

  it("finds the published EPCIS schema, which refers to nothing outside itself", async () => {
    await expect(assertSchemaAvailable(EPCIS_SCHEMA_URL, { network: false })).resolves.toBeUndefined();
  });

  it("refuses as resolveSchema does when nothing has the schema", async () => {
    await expect(assertSchemaAvailable(EPCIS_SCHEMA_URL, offline())).rejects.toBeInstanceOf(
      SchemaUnavailableError,
    );
  });

  it("follows a reference outside the schema, and refuses when what it names is missing", async () => {
    const mirror = path.join(tmp, "assert-mirror");
    await place(mirror, "https://a.example/outside.json", {
      properties: { code: { $ref: "https://d.example/absent.json#/definitions/code" } },
    });
    await expect(
      assertSchemaAvailable("https://a.example/outside.json", { ...offline(), mirror }),
    ).rejects.toThrow(/https:\/\/d\.example\/absent\.json/);
    await place(mirror, "https://d.example/absent.json", { definitions: { code: { type: "string" } } });
    await expect(
      assertSchemaAvailable("https://a.example/outside.json", { ...offline(), mirror }),
    ).resolves.toBeUndefined();
  });

  it("takes a reference inside the schema as found, and a text that is no JSON object to the resolver", async () => {
    const mirror = path.join(tmp, "assert-inside");
    await place(mirror, "https://a.example/inside.json", {
      definitions: { code: { type: "string" } },
      properties: { code: { $ref: "#/definitions/code" } },
    });
    await expect(
      assertSchemaAvailable("https://a.example/inside.json", { ...offline(), mirror }),
    ).resolves.toBeUndefined();
    const broken = mirrorPath(mirror, "https://a.example/broken.json") ?? "";
    await writeFile(broken, "{ this is not JSON");
    const options = { ...offline(), mirror };
    const resolved = await resolveSchema("https://a.example/broken.json", options).catch((e: Error) => e);
    expect(resolved).toBeInstanceOf(Error);
    await expect(assertSchemaAvailable("https://a.example/broken.json", options)).rejects.toThrow(
      (resolved as Error).message,
    );
  });
});
