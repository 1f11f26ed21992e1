import { isObject } from "./json-pointer.ts";
import type { JsonObject } from "./types.ts";

const COMPONENT_SCHEMAS = "#/components/schemas/";

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === "$ref" && typeof value === "string" && value.startsWith(COMPONENT_SCHEMAS)
        ? "#/$defs/" + value.slice(COMPONENT_SCHEMAS.length)
        : rewriteRefs(value);
  }
  return out;
}

/**
 * A schema taken out of an OpenAPI 3.1 document so that a JSON Schema 2020-12 validator can compile it alone:
 * the document's component schemas travel along as $defs, and references to them are rewritten to match.
 */
export function standaloneSchema(raw: JsonObject, schema: unknown): JsonObject {
  const components =
    isObject(raw.components) && isObject(raw.components.schemas) ? raw.components.schemas : {};
  const body = rewriteRefs(schema);
  const own = isObject(body) && isObject(body.$defs) ? body.$defs : {};
  return {
    ...(isObject(body) ? body : {}),
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $defs: { ...(rewriteRefs(components) as JsonObject), ...own },
  };
}
