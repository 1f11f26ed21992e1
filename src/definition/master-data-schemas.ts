import { deref, isObject, pointerOf } from "./json-pointer.ts";
import { type JsonObject, MASTER_DATA_TYPES, type MasterDataTypeName } from "./types.ts";

export interface FoundSchema {
  type: MasterDataTypeName;
  schemaName: string;
  schema: JsonObject;
  at: string;
}

export interface FoundProperty {
  name: string;
  /** The property's schema as written: x-kde-name and x-std-values sit here, also beside a $ref. */
  schema: JsonObject;
  at: string;
}

const plainName = (s: string) => s.toLowerCase().replace(/[^a-z]/g, "");

/**
 * The component schemas of the three master data types: those marked with x-master-data-type, and for a type
 * no schema is marked with, the schema named after it (a vendor's definition need not carry our marker).
 */
export function findMasterDataSchemas(raw: JsonObject): FoundSchema[] {
  const schemas = isObject(raw.components) && isObject(raw.components.schemas) ? raw.components.schemas : {};
  const found: FoundSchema[] = [];
  for (const type of MASTER_DATA_TYPES) {
    const entries = Object.entries(schemas).filter((e): e is [string, JsonObject] => isObject(e[1]));
    const marked = entries.find(([, s]) => s["x-master-data-type"] === type);
    const local = type.slice("gs1:".length).toLowerCase();
    const named = entries.find(([n]) => plainName(n) === local || plainName(n) === "gs1" + local);
    const hit = marked ?? named;
    if (hit)
      found.push({
        type,
        schemaName: hit[0],
        schema: hit[1],
        at: pointerOf(["components", "schemas", hit[0]]),
      });
  }
  return found;
}

/** The properties a schema declares directly and through allOf, following local $refs. */
export function propertiesOf(raw: JsonObject, schema: unknown, at: string): FoundProperty[] {
  const out: FoundProperty[] = [];
  const seen = new Set<unknown>();
  const visit = (node: unknown, where: string) => {
    const r = deref(raw, node, where);
    if (!isObject(r.node) || seen.has(r.node)) return;
    seen.add(r.node);
    if (isObject(r.node.properties)) {
      for (const [name, s] of Object.entries(r.node.properties)) {
        if (isObject(s))
          out.push({ name, schema: s, at: `${r.at}/properties/${pointerOf([name]).slice(1)}` });
      }
    }
    if (Array.isArray(r.node.allOf)) {
      for (const [i, sub] of r.node.allOf.entries()) visit(sub, `${r.at}/allOf/${i}`);
    }
  };
  visit(schema, at);
  return out;
}
