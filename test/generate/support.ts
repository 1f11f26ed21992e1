// Validators and shared paths for the generator tests. The schemas are third-party or other rooms' files,
// read where they live.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { parse } from "yaml";
import type { EpcisEvent } from "../../src/model/index.ts";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SHARED = path.resolve(REPO_ROOT, "../shared");
export const EPCIS_SCHEMA_FILE = path.join(SHARED, "epcis/schema/epcis-json-schema-2.0.1.json");
export const GS1_EXAMPLES = path.join(SHARED, "epcis/examples/gs1/JSON");
export const GDST_EXAMPLES = path.join(SHARED, "gdst/opentraceability/events");
export const DEFINITION_FILE = path.join(REPO_ROOT, "schemas/interface.openapi.yaml");
export const MODULE_NAMES = ["core", "seafood", "wildcatch", "aquaculture"] as const;

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, "utf8"));
}

function describeErrors(errors: { instancePath: string; message?: string }[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
}

/** The published EPCIS 2.0 JSON schema (draft-07), compiled once. */
export function epcisDocumentValidator(): (doc: unknown) => string[] {
  const ajv = new Ajv({ strict: false, allErrors: false });
  addFormats.default(ajv);
  const validate = ajv.compile(readJson(EPCIS_SCHEMA_FILE) as object);
  return (doc) => (validate(doc) ? [] : describeErrors(validate.errors));
}

/** The four module schemas of schemas/modules/ (draft 2020-12), each applied to one event. */
export function moduleValidators(): Record<(typeof MODULE_NAMES)[number], (event: EpcisEvent) => string[]> {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats.default(ajv);
  const entries = MODULE_NAMES.map((name) => {
    const validate = ajv.compile(
      readJson(path.join(REPO_ROOT, `schemas/modules/${name}.schema.json`)) as object,
    );
    const check = (event: EpcisEvent): string[] => (validate(event) ? [] : describeErrors(validate.errors));
    return [name, check] as const;
  });
  return Object.fromEntries(entries) as Record<
    (typeof MODULE_NAMES)[number],
    (event: EpcisEvent) => string[]
  >;
}

export function readDefinition(): Record<string, unknown> {
  return parse(readFileSync(DEFINITION_FILE, "utf8")) as Record<string, unknown>;
}

/** A validator for one component schema of the interface definition (OpenAPI 3.1 = JSON Schema 2020-12). */
export function definitionSchemaValidator(component: string): (doc: unknown) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats.default(ajv);
  ajv.addSchema(readDefinition(), "definition");
  const validate = ajv.getSchema(`definition#/components/schemas/${component}`);
  if (validate === undefined) throw new Error(`The definition has no components/schemas/${component}.`);
  return (doc) => (validate(doc) ? [] : describeErrors(validate.errors));
}
