import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FileInfo } from "@apidevtools/json-schema-ref-parser";
import { SchemaUnavailableError } from "./errors.ts";
import { DEFAULT_SCHEMA_CACHE, DEFAULT_SIBLING_MIRROR } from "./locations.ts";

export type SchemaSource = "mirror" | "cache" | "sibling-mirror" | "network";

export interface ResolveOptions {
  /** A folder laid out as <dir>/<host>/<path>; defaults to env TRACECHECK_SCHEMA_MIRROR. */
  mirror?: string;
  /** Where fetched schemas are kept, same layout; defaults to schemas/cache/. */
  cacheDir?: string;
  /** The shared artefacts' mirror next to the repository; defaults to ../shared/epcis/mirror. */
  siblingMirror?: string;
  /** Whether the network may be used as the last resort; defaults to true. */
  network?: boolean;
}

export interface ResolvedSchema {
  schema: object;
  source: SchemaSource;
}

const FETCH_TIMEOUT_MS = 30_000;

/** Where `url` lives in a folder laid out as <dir>/<host>/<path>; undefined for a URL that cannot map there. */
export function mirrorPath(dir: string, url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const segments = parsed.pathname
    .split("/")
    .filter((s) => s !== "")
    .map(decodeURIComponent);
  if (segments.length === 0 || segments.some((s) => s === "." || s === ".." || s.includes(path.sep))) {
    return undefined;
  }
  return path.join(dir, parsed.host, ...segments);
}

async function readIfPresent(file: string | undefined): Promise<string | undefined> {
  if (!file) return undefined;
  try {
    await access(file);
  } catch {
    return undefined;
  }
  return readFile(file, "utf8");
}

async function fetchAndCache(url: string, cacheFile: string | undefined): Promise<string> {
  // Loaded only here: the network is the last resort, and undici's fetch loads most of undici.
  const { fetch } = await import("undici");
  const response = await fetch(url, {
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    headers: { accept: "application/schema+json, application/json" },
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const text = await response.text();
  // Only a JSON body is worth keeping; an HTML error page in the cache would shadow the network next time.
  JSON.parse(text);
  if (cacheFile) {
    await mkdir(path.dirname(cacheFile), { recursive: true });
    await writeFile(cacheFile, text);
  }
  return text;
}

async function locate(url: string, opts: ResolveOptions): Promise<{ text: string; source: SchemaSource }> {
  const mirror = opts.mirror ?? process.env.TRACECHECK_SCHEMA_MIRROR;
  const cacheDir = opts.cacheDir ?? DEFAULT_SCHEMA_CACHE;
  const siblingMirror = opts.siblingMirror ?? DEFAULT_SIBLING_MIRROR;
  const local: [string | undefined, SchemaSource][] = [
    [mirror, "mirror"],
    [cacheDir, "cache"],
    [siblingMirror, "sibling-mirror"],
  ];
  for (const [dir, source] of local) {
    const text = await readIfPresent(dir ? mirrorPath(dir, url) : undefined);
    if (text !== undefined) return { text, source };
  }
  let why = "the network is switched off";
  if (opts.network !== false) {
    try {
      return { text: await fetchAndCache(url, mirrorPath(cacheDir, url)), source: "network" };
    } catch (err) {
      why = `fetching it failed (${(err as Error).message})`;
    }
  }
  throw new SchemaUnavailableError(
    url,
    `The schema ${url} is in no mirror, cache or sibling mirror and ${why}; provide a mirror with --schema-mirror <dir> or TRACECHECK_SCHEMA_MIRROR, laid out as <dir>/<host>/<path>.`,
  );
}

/**
 * Resolves a schema URL and every external reference inside it, looking in order at the mirror, the cache,
 * the sibling mirror and the network (ARCHITECTURE.md: the EPCIS schema is resolved, not copied).
 */
export async function resolveSchema(url: string, opts: ResolveOptions = {}): Promise<ResolvedSchema> {
  if (!/^https?:\/\//i.test(url)) {
    throw new SchemaUnavailableError(
      url,
      `The schema reference ${url} is not an http(s) URL; reference the published schema by its URL.`,
    );
  }
  // A JSON object that refers to nothing outside itself is the schema as published, which is what the parser
  // would return for it; only a schema with external references, or one not written as JSON, needs the parser.
  const found = await locate(url, opts);
  const whole = selfContained(found.text);
  if (whole !== undefined) return { schema: whole, source: found.source };
  let first: SchemaSource | undefined;
  let unavailable: SchemaUnavailableError | undefined;
  const options = {
    resolve: {
      file: false,
      http: false,
      tracecheck: {
        order: 1,
        canRead: /^https?:\/\//i,
        read: async (file: FileInfo) => {
          try {
            const found = await locate(file.url, opts);
            first ??= found.source;
            return found.text;
          } catch (err) {
            if (err instanceof SchemaUnavailableError) unavailable ??= err;
            throw err;
          }
        },
      },
    },
  };
  // The parser is loaded only when a schema is resolved: most runs only ask whether it is available.
  const { default: $RefParser } = await import("@apidevtools/json-schema-ref-parser");
  try {
    const parser = new $RefParser();
    const refs = await parser.resolve(url, options);
    // A schema without external references is returned as published; bundling would rewrite its ref chains.
    const schema = refs.paths().length > 1 ? await new $RefParser().bundle(url, options) : parser.schema;
    if (typeof schema !== "object" || schema === null || first === undefined) {
      throw new SchemaUnavailableError(
        url,
        `The schema ${url} is empty or not a JSON object; replace the file in the mirror or cache.`,
      );
    }
    return { schema, source: first };
  } catch (err) {
    throw unavailable ?? err;
  }
}

/** Whether a JSON value holds a $ref to anything but a place inside itself. */
function refersOutside(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(refersOutside);
  if (typeof value !== "object" || value === null) return false;
  for (const [key, member] of Object.entries(value)) {
    if (key === "$ref" && typeof member === "string" && !member.startsWith("#")) return true;
    if (refersOutside(member)) return true;
  }
  return false;
}

/** The schema a text holds when it is a JSON object referring to nothing outside itself, else undefined. */
function selfContained(text: string): object | undefined {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    return undefined;
  }
  const isObject = typeof schema === "object" && schema !== null && !Array.isArray(schema);
  return isObject && !refersOutside(schema) ? (schema as object) : undefined;
}

/**
 * Throws SchemaUnavailableError unless resolveSchema finds the schema and everything it refers to: what a run asks
 * before it starts. A schema that is a JSON object referring to nothing outside itself is found without the parser.
 */
export async function assertSchemaAvailable(url: string, opts: ResolveOptions = {}): Promise<void> {
  await resolveSchema(url, opts);
}
