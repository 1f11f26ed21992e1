import path from "node:path";
import { isObject, resolveLocalRef } from "./json-pointer.ts";
import { findMasterDataSchemas, propertiesOf } from "./master-data-schemas.ts";
import { getOperation, parametersOf, pathsOf, resolverTemplates, successSchema } from "./operations.ts";
import { standaloneSchema } from "./standalone-schema.ts";
import type {
  CoreEventSignature,
  Definition,
  JsonObject,
  MasterDataTypeInfo,
  ModuleInfo,
  QueryParameterInfo,
  ResolverPath,
} from "./types.ts";

function queryParameters(raw: JsonObject): QueryParameterInfo[] {
  const out: QueryParameterInfo[] = [];
  for (const { parameter } of parametersOf(raw, "/events")) {
    if (parameter.in !== "query" || typeof parameter.name !== "string") continue;
    const schema = isObject(parameter.schema) ? parameter.schema : {};
    const kind = schema.type === "array" ? "list" : schema.format === "date-time" ? "time" : undefined;
    if (!kind) continue;
    const info: QueryParameterInfo = {
      name: parameter.name,
      kind,
      description: typeof parameter.description === "string" ? parameter.description : "",
    };
    const style = parameter["x-style"] ?? parameter.style;
    const explode = parameter["x-explode"] ?? parameter.explode;
    if (typeof style === "string") info.style = style;
    if (typeof explode === "boolean") info.explode = explode;
    out.push(info);
  }
  return out;
}

const nullable = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** Entries too malformed to read are left out here; checkExtensions names them. */
function coreEvents(raw: JsonObject): CoreEventSignature[] {
  const list = raw["x-std-core-events"];
  if (!Array.isArray(list)) return [];
  return list.flatMap((e): CoreEventSignature[] =>
    isObject(e) &&
    typeof e.name === "string" &&
    typeof e.eventType === "string" &&
    typeof e.bizStep === "string"
      ? [
          {
            name: e.name,
            eventType: e.eventType,
            action: nullable(e.action),
            bizStep: e.bizStep,
            disposition: nullable(e.disposition),
          },
        ]
      : [],
  );
}

function masterDataTypes(raw: JsonObject): MasterDataTypeInfo[] {
  return findMasterDataSchemas(raw).map((found) => ({
    type: found.type,
    schemaName: found.schemaName,
    properties: propertiesOf(raw, found.schema, found.at).map((p) => {
      const stdValues = p.schema["x-std-values"];
      const kdeName = p.schema["x-kde-name"];
      return {
        name: p.name,
        kdeName: typeof kdeName === "string" ? kdeName : undefined,
        ...(Array.isArray(stdValues) ? { stdValues: stdValues.filter((v) => typeof v === "string") } : {}),
        isEnum: Array.isArray(p.schema.enum),
        schema: p.schema,
      };
    }),
    jsonSchema: standaloneSchema(raw, { $ref: `#/components/schemas/${found.schemaName}` }),
  }));
}

function resolverPaths(raw: JsonObject): ResolverPath[] {
  return resolverTemplates(raw).map((template) => {
    const item = pathsOf(raw)[template];
    const operation = getOperation(raw, template) ?? {};
    const declared = operation["x-link-types"] ?? (isObject(item) ? item["x-link-types"] : undefined);
    return {
      template,
      ais: [...template.matchAll(/\/([0-9]+)\/\{/g)].map((m) => m[1] ?? ""),
      linkTypes: Array.isArray(declared) ? declared.filter((t) => typeof t === "string") : [],
    };
  });
}

function modules(raw: JsonObject, file: string): ModuleInfo[] {
  const list = raw["x-modules"];
  if (!Array.isArray(list)) return [];
  return list.flatMap((m): ModuleInfo[] =>
    isObject(m) && typeof m.name === "string" && typeof m.schema === "string"
      ? [{ name: m.name, schemaFile: path.resolve(path.dirname(file), m.schema) }]
      : [],
  );
}

function linksetSchema(raw: JsonObject): JsonObject {
  for (const template of resolverTemplates(raw)) {
    const schema = successSchema(raw, template, "application/linkset+json");
    if (schema !== undefined) return standaloneSchema(raw, schema);
  }
  return standaloneSchema(raw, {});
}

function epcisSchemaUrl(raw: JsonObject): string | undefined {
  const schema = successSchema(raw, "/events", "application/ld+json");
  if (!isObject(schema) || typeof schema.$ref !== "string") return undefined;
  if (!schema.$ref.startsWith("#")) return schema.$ref;
  const target = resolveLocalRef(raw, schema.$ref);
  return isObject(target) && typeof target.$ref === "string" && !target.$ref.startsWith("#")
    ? target.$ref
    : undefined;
}

/** Typed views of a parsed definition; tolerant of a vendor's definition that lacks our extensions. */
export function readDefinition(raw: JsonObject, file: string): Definition {
  return {
    file,
    raw,
    queryParameters: queryParameters(raw),
    coreEvents: coreEvents(raw),
    masterDataTypes: masterDataTypes(raw),
    resolverPaths: resolverPaths(raw),
    modules: modules(raw, file),
    linksetSchema: linksetSchema(raw),
    epcisSchemaUrl: epcisSchemaUrl(raw),
  };
}
