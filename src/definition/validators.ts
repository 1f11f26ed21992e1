import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";
import type { Ajv, ErrorObject, Options, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type standaloneCode from "ajv/dist/standalone/index.js";
import type formats from "ajv-formats";
import { DefinitionError } from "./errors.ts";
import { isObject } from "./json-pointer.ts";
import { loadDefinition } from "./load-definition.ts";
import { EPCIS_SCHEMA_URL, START_UP_CACHE } from "./locations.ts";
import { type ResolveOptions, resolveSchema, type SchemaSource } from "./resolve-schema.ts";
import type { Definition, MasterDataTypeName } from "./types.ts";

export interface ValidationResult {
  valid: boolean;
  errors: string[];
}

export interface ValidatorOptions extends ResolveOptions {
  /** The definition to take the link-set, master data and module schemas from; default: our own. */
  definition?: Definition;
  /** The EPCIS JSON schema itself, when the caller already has it; otherwise it is resolved. */
  epcisSchema?: object;
  /** Where compiled validators are kept between runs; default VALIDATOR_CACHE. */
  validatorCache?: string;
}

export interface Validators {
  /** An EPCISDocument or EPCISQueryDocument against the published EPCIS 2.0 JSON schema. */
  validateEpcisDocument(doc: unknown): ValidationResult;
  /** One event as it appears in a document's eventList (no @context of its own needed). */
  validateEvent(event: unknown): ValidationResult;
  validateModule(name: string, event: unknown): ValidationResult;
  validateLinkset(body: unknown): ValidationResult;
  validateMasterData(type: MasterDataTypeName, doc: unknown): ValidationResult;
  /** The module names the definition lists, in its order. */
  modules: string[];
  /** Where the EPCIS schema came from; "given" when the caller passed it. */
  epcisSchemaSource: SchemaSource | "given";
}

const EPCIS_DOCUMENT_TYPES = ["EPCISDocument", "EPCISQueryDocument"];

function allowed(values: unknown[]): string {
  const shown = values.slice(0, 8).map(String).join(", ");
  return values.length > 8 ? `${shown}, …` : shown;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath || "/";
  const extra =
    error.keyword === "additionalProperties"
      ? ` (${String(error.params.additionalProperty)})`
      : error.keyword === "enum"
        ? ` (${allowed(error.params.allowedValues as unknown[])})`
        : "";
  return `${where} ${error.message ?? error.keyword}${extra}`;
}

/** Readable messages; the "must match then schema" wrappers only repeat what the errors under them say. */
function run(validate: ValidateFunction, value: unknown): ValidationResult {
  if (validate(value)) return { valid: true, errors: [] };
  const all = validate.errors ?? [];
  const specific = all.filter((e) => e.keyword !== "if");
  const messages = (specific.length > 0 ? specific : all).map(describe);
  return { valid: false, errors: [...new Set(messages)] };
}

async function readModuleSchema(file: string): Promise<object> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as object;
  } catch (err) {
    throw new DefinitionError(
      file,
      `Cannot read the module schema ${file} (${(err as Error).message}); check the x-modules entry of the definition.`,
    );
  }
}

const require = createRequire(import.meta.url);

/** Where the code Ajv generates is kept between runs; a directory any `npm ci` leaves writable. */
export const VALIDATOR_CACHE = path.join(START_UP_CACHE, "validators");

/** Changes when the way the cache is written or keyed changes, so that older files are no longer read. */
const CACHE_LAYOUT = 1;

/** The published schema is draft-07 and uses keywords and formats strict mode would refuse. */
const AJV_OPTIONS: Options = { strict: false, allErrors: true, code: { source: true } };

/** The key a validator is added to Ajv under: Ajv takes it for the schema's base URI, so it is one. */
const key = (name: string) => `urn:tracecheck:validator:${name}`;

interface SchemaSet {
  draft: "draft-07" | "2020-12";
  /** Schemas added first, under their key, that the exported ones refer to. */
  shared: [key: string, schema: unknown][];
  /** The validators wanted, under their key. */
  exported: [key: string, schema: unknown][];
}

/**
 * Ajv and its formats, loaded on the first compile: a run whose validators were all kept between runs never
 * compiles, and loading them was a tenth of a second of its start-up.
 */
function ajvModules() {
  return {
    Ajv: (require("ajv") as { Ajv: typeof Ajv }).Ajv,
    Ajv2020: (require("ajv/dist/2020.js") as { Ajv2020: typeof Ajv2020 }).Ajv2020,
    standaloneCode: require("ajv/dist/standalone/index.js") as typeof standaloneCode,
    formats: require("ajv-formats") as typeof formats,
  };
}

function newAjv(draft: SchemaSet["draft"]): Ajv {
  const modules = ajvModules();
  const ajv = draft === "draft-07" ? new modules.Ajv(AJV_OPTIONS) : new modules.Ajv2020(AJV_OPTIONS);
  modules.formats.default(ajv);
  return ajv;
}

/** Everything that shapes the generated code: the schemas, Ajv's options and the versions of Ajv and its formats. */
function cacheKey(set: SchemaSet): string {
  const versions = ["ajv", "ajv-formats"].map(
    (p) => (require(`${p}/package.json`) as { version: string }).version,
  );
  return createHash("sha256")
    .update(JSON.stringify({ layout: CACHE_LAYOUT, versions, options: AJV_OPTIONS, set }))
    .digest("hex");
}

/** The cache files run in this process, each once, as require would. */
const loadedFiles = new Map<string, Record<string, unknown>>();

/**
 * Runs a cache file, a CommonJS module as Ajv writes it, with this module's require: the runtime of Ajv's that it
 * requires is found from here, wherever the cache is kept.
 */
function loadCacheFile(file: string): Record<string, unknown> {
  let loaded = loadedFiles.get(file);
  if (loaded === undefined) {
    const code = readFileSync(file, "utf8");
    // Node's own wrapper for a CommonJS module, on the file's first line, so that line numbers stay the same.
    const run = vm.runInThisContext(`(function (exports, require, module) {${code}\n})`, { filename: file });
    const module = { exports: {} as Record<string, unknown> };
    run(module.exports, require, module);
    loaded = module.exports;
    loadedFiles.set(file, loaded);
  }
  return loaded;
}

/** The validators a cache file holds, or undefined when it is missing, unreadable or lacks one of them. */
function fromCache(file: string, keys: string[]): Map<string, ValidateFunction> | undefined {
  try {
    const loaded = loadCacheFile(file);
    const found = new Map<string, ValidateFunction>();
    for (const k of keys) {
      const validate = loaded[k];
      if (typeof validate !== "function") return undefined;
      found.set(k, validate as ValidateFunction);
    }
    return found;
  } catch {
    return undefined;
  }
}

/** Writes the file whole or not at all: a run that reads it meanwhile sees the old state or the new one. */
function toCache(file: string, code: string): void {
  const partial = `${file}.${randomBytes(6).toString("hex")}.partial`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(partial, code);
    renameSync(partial, file);
  } catch {
    // A cache that cannot be written (a read-only install) only costs the next run the compile.
    try {
      rmSync(partial, { force: true });
    } catch {
      // Nothing was written.
    }
  }
}

/**
 * The validators of a set of schemas, each compiled once for all runs: Ajv compiles them and its generated code
 * (ajv standalone) is kept under VALIDATOR_CACHE, keyed by the hash of the schemas, Ajv's options and versions;
 * a later run with the same schemas loads that code instead of compiling again, which for the EPCIS schema is most
 * of a run's start-up. The code is the one Ajv would run after compiling, so the verdicts are the same.
 */
function compiled(set: SchemaSet, cacheDir: string): Map<string, ValidateFunction> {
  const keys = set.exported.map(([k]) => k);
  const file = path.join(cacheDir, `${cacheKey(set)}.cjs`);
  const cached = fromCache(file, keys);
  if (cached) return cached;
  const ajv = newAjv(set.draft);
  for (const [k, schema] of [...set.shared, ...set.exported]) ajv.addSchema(schema as object, k);
  const fresh = new Map<string, ValidateFunction>();
  for (const k of keys) {
    const validate = ajv.getSchema(k);
    if (!validate) throw new Error(`Ajv compiled no validator for ${k}.`);
    fresh.set(k, validate);
  }
  toCache(file, ajvModules().standaloneCode.default(ajv, Object.fromEntries(keys.map((k) => [k, k]))));
  return fresh;
}

/**
 * The validators of JSON Schema 2020-12 schemas of the harness's own, by name, compiled once for all runs as the
 * payload schemas are (see compiled): the report schema, the master data properties of a definition.
 */
export function ownSchemaValidatorsOf(
  schemas: readonly (readonly [name: string, schema: object])[],
  cacheDir: string = VALIDATOR_CACHE,
): Map<string, ValidateFunction> {
  const found = compiled(
    { draft: "2020-12", shared: [], exported: schemas.map(([name, schema]) => [key(name), schema]) },
    cacheDir,
  );
  // compiled answers every key it was given, or throws.
  return new Map(schemas.map(([name]) => [name, found.get(key(name))!]));
}

/** The validator of one such schema (ownSchemaValidatorsOf). */
export function ownSchemaValidator(
  name: string,
  schema: object,
  cacheDir: string = VALIDATOR_CACHE,
): ValidateFunction {
  return ownSchemaValidatorsOf([[name, schema]], cacheDir).get(name)!;
}

/** Compiles, once, every schema the harness validates payloads with (see compiled for how once). */
export async function createValidators(opts: ValidatorOptions = {}): Promise<Validators> {
  const definition = opts.definition ?? (await loadDefinition());
  const url = definition.epcisSchemaUrl ?? EPCIS_SCHEMA_URL;
  const resolved = opts.epcisSchema
    ? { schema: opts.epcisSchema, source: "given" as const }
    : await resolveSchema(url, opts);

  const cacheDir = opts.validatorCache ?? VALIDATOR_CACHE;
  const epcisId =
    isObject(resolved.schema) && typeof resolved.schema.$id === "string" ? resolved.schema.$id : url;
  const epcis = compiled(
    {
      draft: "draft-07",
      shared: [[epcisId, resolved.schema]],
      exported: [
        [key("epcis-document"), { $ref: epcisId }],
        [key("epcis-event"), { $ref: `${epcisId}#/definitions/EPCIS-Document-Event` }],
      ],
    },
    cacheDir,
  );
  const documentValidator = epcis.get(key("epcis-document"))!;
  const eventValidator = epcis.get(key("epcis-event"))!;

  // Definition and module schemas are 2020-12 and carry x- annotations (x-kde-name, x-std-values).
  const moduleSchemas = await Promise.all(
    definition.modules.map(async (m) => [m.name, await readModuleSchema(m.schemaFile)] as const),
  );
  const own = compiled(
    {
      draft: "2020-12",
      shared: [],
      exported: [
        [key("linkset"), definition.linksetSchema],
        ...definition.masterDataTypes.map((t): [string, unknown] => [
          key(`master-data:${t.type}`),
          t.jsonSchema,
        ]),
        ...moduleSchemas.map(([name, schema]): [string, unknown] => [key(`module:${name}`), schema]),
      ],
    },
    cacheDir,
  );
  const linksetValidator = own.get(key("linkset"))!;
  const masterData = new Map<string, ValidateFunction>();
  for (const t of definition.masterDataTypes) masterData.set(t.type, own.get(key(`master-data:${t.type}`))!);
  const modules = new Map<string, ValidateFunction>();
  for (const [name] of moduleSchemas) modules.set(name, own.get(key(`module:${name}`))!);

  return {
    validateEpcisDocument(doc) {
      if (!isObject(doc) || !EPCIS_DOCUMENT_TYPES.includes(String(doc.type))) {
        return { valid: false, errors: ["/type must be EPCISDocument or EPCISQueryDocument"] };
      }
      return run(documentValidator, doc);
    },
    validateEvent: (event) => run(eventValidator, event),
    validateModule(name, event) {
      const validate = modules.get(name);
      if (!validate) {
        throw new Error(`Unknown module ${name}; the definition lists ${[...modules.keys()].join(", ")}.`);
      }
      return run(validate, event);
    },
    validateLinkset: (body) => run(linksetValidator, body),
    validateMasterData(type, doc) {
      const validate = masterData.get(type);
      if (!validate)
        throw new Error(`The definition declares no schema for ${type}; add one to validate it.`);
      return run(validate, doc);
    },
    modules: [...modules.keys()],
    epcisSchemaSource: resolved.source,
  };
}
