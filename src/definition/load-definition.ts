import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { DefinitionError } from "./errors.ts";
import { isObject } from "./json-pointer.ts";
import { DEFAULT_DEFINITION_FILE, START_UP_CACHE } from "./locations.ts";
import { readDefinition } from "./read-definition.ts";
import type { Definition, JsonObject } from "./types.ts";
import { parseYamlCached } from "./yaml-cache.ts";

/**
 * A copy without external $refs. The validator resolves internal references only; external ones (the
 * published EPCIS schema) are resolved by resolveSchema, so here only the document's own structure is judged.
 */
function withoutExternalRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutExternalRefs);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string" && !value.startsWith("#")) continue;
    out[key] = withoutExternalRefs(value);
  }
  return out;
}

function describeErrors(errors: unknown): string {
  if (typeof errors === "string") return errors;
  if (!Array.isArray(errors) || errors.length === 0) return "it does not match the OpenAPI 3.1 schema";
  return errors
    .slice(0, 3)
    .map((e) => (isObject(e) ? `${String(e.instancePath) || "/"} ${String(e.message)}` : String(e)))
    .join("; ");
}

/** Checks a parsed document against the OpenAPI 3.1 schema; returns what is wrong, or undefined. */
export async function openApiProblem(raw: unknown): Promise<string | undefined> {
  if (!isObject(raw)) return "it is not a YAML or JSON object";
  if (typeof raw.openapi !== "string" || !raw.openapi.startsWith("3.1")) {
    return `it declares openapi ${JSON.stringify(raw.openapi)} where 3.1.x is needed`;
  }
  // Loaded when first needed: the suites read a definition already checked and never need it.
  const { Validator } = await import("@seriousme/openapi-schema-validator");
  const result = await new Validator().validate(withoutExternalRefs(raw) as JsonObject);
  return result.valid ? undefined : describeErrors(result.errors);
}

/** Where the texts of definitions that passed the OpenAPI 3.1 check are remembered, one empty file per text. */
export const OPENAPI_PASSED_CACHE = path.join(START_UP_CACHE, "openapi-passed");

/** The text and the validator's version: a text that passed with this validator passes again. */
export function passedMarker(text: string, dir: string): string {
  const { version } = createRequire(import.meta.url)("@seriousme/openapi-schema-validator/package.json") as {
    version: string;
  };
  return path.join(dir, createHash("sha256").update(JSON.stringify({ version, text })).digest("hex"));
}

function passedBefore(text: string, dir: string): boolean {
  return existsSync(passedMarker(text, dir));
}

function rememberPassed(text: string, dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(passedMarker(text, dir), "");
  } catch {
    // Not remembered (a read-only install): the next run checks the text again.
  }
}

/**
 * Definitions already read, by file and exact text: validating a definition against OpenAPI 3.1 compiles the
 * OpenAPI schema, and every suite file of a run, and every run of a proving worker, asks for the same one. A
 * file whose text changed is read afresh; a definition that failed is not kept.
 */
const loaded = new Map<string, { text: string; validated: boolean; definition: Promise<Definition> }>();

export interface LoadOptions {
  /**
   * This process's caller has already seen this file pass the OpenAPI 3.1 check (a run checks its definition
   * before any suite starts, and the suites read it again): index it without checking it twice.
   */
  alreadyValidated?: boolean;
  /**
   * Where texts that passed the OpenAPI 3.1 check are remembered (default OPENAPI_PASSED_CACHE): compiling the
   * OpenAPI schema to check one is half a second of every run's start-up, and the same text always gets the
   * same answer, so a text that passed once is not checked again.
   */
  passedCache?: string;
}

/** Reads, validates (OpenAPI 3.1) and indexes an interface definition. */
export async function loadDefinition(
  file: string = DEFAULT_DEFINITION_FILE,
  opts: LoadOptions = {},
): Promise<Definition> {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = await readFile(absolute, "utf8");
  } catch (err) {
    throw new DefinitionError(
      absolute,
      `Cannot read the interface definition ${absolute} (${(err as NodeJS.ErrnoException).code ?? String(err)}); check the path given with --definition.`,
    );
  }
  const validate = opts.alreadyValidated !== true;
  const known = loaded.get(absolute);
  if (known?.text === text && (known.validated || !validate)) return known.definition;
  const definition = interpret(absolute, text, validate, opts.passedCache ?? OPENAPI_PASSED_CACHE);
  loaded.set(absolute, { text, validated: validate, definition });
  definition.catch(() => {
    if (loaded.get(absolute)?.definition === definition) loaded.delete(absolute);
  });
  return definition;
}

async function interpret(
  absolute: string,
  text: string,
  validate: boolean,
  passedCache: string,
): Promise<Definition> {
  let raw: unknown;
  try {
    raw = parseYamlCached(text);
  } catch (err) {
    throw new DefinitionError(
      absolute,
      `The interface definition ${absolute} is not valid YAML (${(err as Error).message.split("\n")[0]}); fix the syntax and run again.`,
    );
  }
  const check = validate && !passedBefore(text, passedCache);
  const problem = check ? await openApiProblem(raw) : undefined;
  if (problem !== undefined || !isObject(raw)) {
    throw new DefinitionError(
      absolute,
      `The interface definition ${absolute} is not valid OpenAPI 3.1: ${problem}; fix it and run again.`,
    );
  }
  if (check) rememberPassed(text, passedCache);
  return readDefinition(raw, absolute);
}
