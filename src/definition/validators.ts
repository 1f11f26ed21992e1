import { readFile } from "node:fs/promises";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { DefinitionError } from "./errors.ts";
import { isObject } from "./json-pointer.ts";
import { loadDefinition } from "./load-definition.ts";
import { EPCIS_SCHEMA_URL } from "./locations.ts";
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

/** Compiles, once, every schema the harness validates payloads with. */
export async function createValidators(opts: ValidatorOptions = {}): Promise<Validators> {
  const definition = opts.definition ?? (await loadDefinition());
  const url = definition.epcisSchemaUrl ?? EPCIS_SCHEMA_URL;
  const resolved = opts.epcisSchema
    ? { schema: opts.epcisSchema, source: "given" as const }
    : await resolveSchema(url, opts);

  // The published schema is draft-07 and uses keywords and formats strict mode would refuse.
  const draft07 = new Ajv({ strict: false, allErrors: true });
  formats.default(draft07);
  const epcisId =
    isObject(resolved.schema) && typeof resolved.schema.$id === "string" ? resolved.schema.$id : url;
  draft07.addSchema(resolved.schema, epcisId);
  const documentValidator = draft07.compile({ $ref: epcisId });
  const eventValidator = draft07.compile({ $ref: `${epcisId}#/definitions/EPCIS-Document-Event` });

  // Definition and module schemas are 2020-12 and carry x- annotations (x-kde-name, x-std-values).
  const draft2020 = new Ajv2020({ strict: false, allErrors: true });
  formats.default(draft2020);
  const linksetValidator = draft2020.compile(definition.linksetSchema);
  const masterData = new Map<string, ValidateFunction>();
  for (const t of definition.masterDataTypes) masterData.set(t.type, draft2020.compile(t.jsonSchema));
  const modules = new Map<string, ValidateFunction>();
  for (const m of definition.modules)
    modules.set(m.name, draft2020.compile(await readModuleSchema(m.schemaFile)));

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
