// A JSON-LD document read as the graph it states, not as the strings it is spelled with: expanded by a JSON-LD
// processor (contexts loaded through the loader), GS1 terms brought under one namespace, and rdf:type read as
// @type. Two documents that expand to the same graph read the same (ARCHITECTURE.md "Equivalences, not string
// equality").
import jsonld from "jsonld";
import { ContextUnavailableError, type DocumentLoader } from "./loader.ts";
import { canonicalGs1Iri, gs1NamespaceOf } from "./vocabulary.ts";

export type JsonObject = Record<string, unknown>;

const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";

export interface ReadOptions {
  loader: DocumentLoader;
  /** The URL the document was read from: relative IRIs in it resolve against it (JSON-LD 1.1, 4.1.3). */
  base?: string;
}

/** A document's graph: its top-level nodes in expanded form, GS1 IRIs under the canonical namespace. */
export interface JsonLdGraph {
  kind: "read";
  /** The nodes the document states at its top level, or in its top-level @graph. */
  nodes: JsonObject[];
  /** Every top-level node with an @id, by @id, so that a reference to one can be followed. */
  byId: ReadonlyMap<string, JsonObject>;
  /** The GS1 namespaces the document wrote, as written (e.g. https://gs1.org/voc/). */
  namespaces: string[];
}

export type JsonLdReading =
  | JsonLdGraph
  /** A context could not be loaded: nothing can be said about the document. */
  | { kind: "unloadable"; url: string; message: string }
  /** The processor refused the document: it is not JSON-LD. */
  | { kind: "invalid"; message: string };

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The ContextUnavailableError behind a processor's error, which wraps a loader's failure in its details. */
function unavailableIn(err: unknown): ContextUnavailableError | undefined {
  for (let at: unknown = err, depth = 0; at !== undefined && at !== null && depth < 8; depth++) {
    if (at instanceof ContextUnavailableError) return at;
    if (!isObject(at) && !(at instanceof Error)) return undefined;
    const record = at as { cause?: unknown; details?: { cause?: unknown } };
    at = record.details?.cause ?? record.cause;
  }
  return undefined;
}

function processorMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { details?: { code?: unknown } }).details?.code;
  return typeof code === "string" && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
}

/** Rewrites an expanded value: GS1 IRIs in keys, types and references under one namespace; rdf:type as @type. */
function normalized(value: unknown, seen: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => normalized(v, seen));
  if (!isObject(value)) return value;
  if ("@value" in value) return value;
  const iri = (s: string): string => {
    const ns = gs1NamespaceOf(s);
    if (ns !== undefined) seen.add(ns);
    return canonicalGs1Iri(s);
  };
  const out: JsonObject = {};
  const types: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (key === "@type" && Array.isArray(v)) {
      types.push(...v.filter((t): t is string => typeof t === "string").map(iri));
    } else if (key === RDF_TYPE && Array.isArray(v)) {
      // The triple rdf:type written as a property is the same statement @type makes (JSON-LD 1.1, 8.2).
      const literals: unknown[] = [];
      for (const ref of v) {
        if (isObject(ref) && typeof ref["@id"] === "string") types.push(iri(ref["@id"]));
        else literals.push(ref);
      }
      if (literals.length > 0) out[RDF_TYPE] = literals;
    } else if (key === "@id" && typeof v === "string") {
      out[key] = iri(v);
    } else if (key.startsWith("@")) {
      out[key] = normalized(v, seen);
    } else {
      const k = iri(key);
      const prior = out[k];
      const next = normalized(v, seen) as unknown[];
      out[k] = Array.isArray(prior) ? [...prior, ...next] : next;
    }
  }
  if (types.length > 0) out["@type"] = [...new Set(types)];
  return out;
}

/** Top-level nodes, those of a top-level @graph included (a named graph's nodes too). */
function topLevel(expanded: unknown[]): JsonObject[] {
  const nodes: JsonObject[] = [];
  for (const item of expanded) {
    if (!isObject(item)) continue;
    if (Array.isArray(item["@graph"])) {
      nodes.push(...item["@graph"].filter(isObject));
      const { "@graph": _, ...rest } = item;
      if (Object.keys(rest).some((k) => k !== "@id")) nodes.push(rest);
    } else {
      nodes.push(item);
    }
  }
  return nodes;
}

/** Merges the statements made about one @id in several top-level nodes. */
function merged(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a };
  for (const [key, v] of Object.entries(b)) {
    const prior = out[key];
    if (key === "@id") continue;
    if (Array.isArray(prior) && Array.isArray(v)) {
      out[key] = key === "@type" ? [...new Set([...prior, ...v])] : [...prior, ...v];
    } else out[key] = v;
  }
  return out;
}

/** Expands a document and reads its graph; a context that cannot be loaded is said so, never read as absent. */
export async function readJsonLd(doc: unknown, options: ReadOptions): Promise<JsonLdReading> {
  if (typeof doc !== "object" || doc === null) {
    return { kind: "invalid", message: "the document is not a JSON object or array" };
  }
  let expanded: unknown[];
  try {
    const expandOptions: Parameters<typeof jsonld.expand>[1] = { documentLoader: options.loader };
    if (options.base !== undefined) expandOptions.base = options.base;
    expanded = await jsonld.expand(doc as Parameters<typeof jsonld.expand>[0], expandOptions);
  } catch (err) {
    const unavailable = unavailableIn(err);
    if (unavailable !== undefined) {
      return { kind: "unloadable", url: unavailable.url, message: unavailable.message };
    }
    return { kind: "invalid", message: `a JSON-LD processor refuses it: ${processorMessage(err)}` };
  }
  const seen = new Set<string>();
  const nodes = topLevel(normalized(expanded, seen) as unknown[]);
  const byId = new Map<string, JsonObject>();
  for (const node of nodes) {
    const id = node["@id"];
    if (typeof id !== "string") continue;
    const prior = byId.get(id);
    byId.set(id, prior === undefined ? node : merged(prior, node));
  }
  const subjects = nodes.map((n) => (typeof n["@id"] === "string" ? byId.get(n["@id"])! : n));
  return { kind: "read", nodes: [...new Set(subjects)], byId, namespaces: [...seen] };
}

/**
 * The node with the references it makes to other top-level nodes replaced by those nodes, so that a node and
 * what it links to by @id read as one tree (an address stated apart in an @graph, for instance).
 */
export function embedded(node: JsonObject, byId: ReadonlyMap<string, JsonObject>): JsonObject {
  const visit = (value: unknown, path: ReadonlySet<string>): unknown => {
    if (Array.isArray(value)) return value.map((v) => visit(v, path));
    if (!isObject(value) || "@value" in value) return value;
    const id = value["@id"];
    const keys = Object.keys(value);
    const target = typeof id === "string" && keys.length === 1 ? byId.get(id) : undefined;
    const node = target !== undefined && !path.has(id as string) ? target : value;
    const inside = typeof node["@id"] === "string" ? new Set([...path, node["@id"]]) : path;
    const out: JsonObject = {};
    for (const [key, v] of Object.entries(node)) out[key] = key.startsWith("@") ? v : visit(v, inside);
    return out;
  };
  return visit(node, new Set()) as JsonObject;
}
