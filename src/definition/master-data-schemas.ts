import { deref, isObject, pointerOf } from "./json-pointer.ts";
import { getOperation, pathsOf } from "./operations.ts";
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

/** The application identifier whose path leads to each type's master data (spec 4.2). */
const AI_OF_TYPE: Record<MasterDataTypeName, string> = {
  "gs1:Organization": "417",
  "gs1:Place": "414",
  "gs1:Product": "01",
};

/** A component schema: its name and the schema itself. */
type Entry = [name: string, schema: JsonObject];

const isLinkset = (schema: unknown) =>
  isObject(schema) && isObject(schema.properties) && "linkset" in schema.properties;

/**
 * The component schema a GET of the type's own identifier answers with other than a link set: the master data
 * response of /417/{pgln}, /414/{gln} or /01/{gtin} (or of any path ending in that pair), where the definition
 * declares one (spec 4.2 shows no fixed master data path, so a definition need not). Its success responses are
 * read in every JSON media type but a link set's, and through oneOf or anyOf, which a resolver answering both by
 * linkType would use. Only a schema in components/schemas is taken: the checks name the schema they judge.
 */
function ledToByPaths(raw: JsonObject, type: MasterDataTypeName): Entry | undefined {
  const ai = AI_OF_TYPE[type];
  const templates = Object.keys(pathsOf(raw)).filter((t) => {
    const segments = t.split("/");
    return segments.at(-2) === ai && /^\{[^/{}]+\}$/.test(segments.at(-1) ?? "");
  });
  for (const template of templates) {
    const responses = getOperation(raw, template)?.responses;
    if (!isObject(responses)) continue;
    for (const [code, written] of Object.entries(responses)) {
      if (!/^2(\d\d|XX)$/i.test(code)) continue;
      const response = deref(raw, written, "").node;
      const content = isObject(response) && isObject(response.content) ? response.content : {};
      for (const [mediaType, media] of Object.entries(content)) {
        if (!/json/i.test(mediaType) || /linkset/i.test(mediaType) || !isObject(media)) continue;
        const top = deref(raw, media.schema, "").node;
        const choices = isObject(top) ? [top.oneOf, top.anyOf].filter(Array.isArray).flat() : [];
        for (const candidate of [media.schema, ...choices]) {
          const { node, at } = deref(raw, candidate, "");
          const name = /^\/components\/schemas\/([^/]+)$/.exec(at)?.[1];
          if (name !== undefined && isObject(node) && !isLinkset(node)) {
            return [name.replace(/~1/g, "/").replace(/~0/g, "~"), node];
          }
        }
      }
    }
  }
  return undefined;
}

/**
 * The component schemas of the three master data types: those marked with x-master-data-type; for a type no schema
 * is marked with, the schema the definition's own path for the type's identifier answers with (ledToByPaths); and
 * failing both, the schema named after it (a vendor's definition need not carry our marker). The spec shows
 * neither marker nor name, so a type none of these finds is not known to the checks, which say so.
 */
export function findMasterDataSchemas(raw: JsonObject): FoundSchema[] {
  const schemas = isObject(raw.components) && isObject(raw.components.schemas) ? raw.components.schemas : {};
  const entries = Object.entries(schemas).filter((e): e is Entry => isObject(e[1]));
  const found: FoundSchema[] = [];
  for (const type of MASTER_DATA_TYPES) {
    const marked = entries.find(([, s]) => s["x-master-data-type"] === type);
    const local = type.slice("gs1:".length).toLowerCase();
    const named = () => entries.find(([n]) => plainName(n) === local || plainName(n) === "gs1" + local);
    const hit = marked ?? ledToByPaths(raw, type) ?? named();
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

/** The master data types whose schema findMasterDataSchemas does not find. */
export function unfoundMasterDataTypes(raw: JsonObject): MasterDataTypeName[] {
  const found = new Set(findMasterDataSchemas(raw).map((f) => f.type));
  return MASTER_DATA_TYPES.filter((t) => !found.has(t));
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
