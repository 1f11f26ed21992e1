import path from "node:path";
import { CORE_EVENTS } from "./core-events.ts";
import { findCoreEvents, noAction } from "./declared-core-events.ts";
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

/**
 * The rows of x-std-core-events wherever the definition declares it (declared-core-events.ts), each as the
 * signature of the core event of spec 6 it names, with the definition's further columns. A row that names none
 * of the seven, or fixes no bizStep, says nothing the checks can use and is left out; checkExtensions names rows
 * that are wrong.
 */
function coreEvents(raw: JsonObject): CoreEventSignature[] {
  const declared = findCoreEvents(raw);
  if (!declared.found || declared.rows === undefined) return [];
  return declared.rows.flatMap((row): CoreEventSignature[] => {
    const spec = CORE_EVENTS.find((e) => e.name === row.name);
    const { eventType, action, bizStep, disposition } = row.columns;
    if (spec === undefined || typeof bizStep.value !== "string") return [];
    return [
      {
        name: spec.name,
        eventType: typeof eventType.value === "string" ? eventType.value : spec.eventType,
        action:
          action.key === undefined ? spec.action : noAction(action.value) ? null : nullable(action.value),
        bizStep: bizStep.value,
        disposition: nullable(disposition.value),
      },
    ];
  });
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
