// The same master data written another legal way (spec 2.2 asks for "GS1 Web Vocabulary JSON-LD", not for one
// spelling of it): the statements of the document moved into an @graph, its type and names as full IRIs under
// https://ref.gs1.org/voc/, its other properties under a gs1: prefix for https://gs1.org/voc/ (the vocabulary
// declares each term equivalent under both), names language-tagged, codes typed xsd:string, and the address a
// node of its own that the subject refers to. Its context is not written into the document but named by a URL the
// sender serves itself, given relative to the document, as a solution with a context of its own would: a reader
// must load it from there. A JSON-LD processor reads it as the graph the compact form states.
import type { MasterDataDocument } from "../../model/index.ts";

const REF = "https://ref.gs1.org/voc/";

/** The variant's context, served by the reference at VARIANT_CONTEXT_PATH. */
export const VARIANT_CONTEXT = {
  "@context": { gs1: "https://gs1.org/voc/", xsd: "http://www.w3.org/2001/XMLSchema#" },
} as const;

/** Where the reference serves VARIANT_CONTEXT; a document names it as a path relative to its own URL's origin. */
export const VARIANT_CONTEXT_PATH = "/contexts/master-data.jsonld";

/** Properties that hold a name in a language (GS1 Web Vocabulary ranges them over rdf:langString). */
const NAMES = new Set(["organizationName", "name", "productName", "brandName"]);
/** Properties that hold a code. */
const CODES = new Set(["productClassification", "locationClassification"]);

const ADDRESS_NODE = "_:address";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A compact gs1: or bare term as the full IRI under the canonical namespace. */
const refIri = (term: string): string => REF + term.replace(/^gs1:/, "");

/** A type as the variant's context reads it: gs1: and full IRIs as written, a bare @vocab term in full. */
const typeIri = (t: unknown): unknown => (typeof t === "string" && !t.includes(":") ? refIri(t) : t);

function spelled(property: string, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => spelled(property, v));
  if (isRecord(value)) return node(value);
  if (typeof value !== "string") return value;
  if (NAMES.has(property)) return { "@value": value, "@language": "en" };
  if (CODES.has(property)) return { "@value": value, "@type": "xsd:string" };
  return value;
}

/** A node object of the compact form under the variant's context: every term under a prefix or in full. */
function node(source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === "@type") out[key] = Array.isArray(value) ? value.map(typeIri) : typeIri(value);
    else if (key.startsWith("@")) out[key] = value;
    else out[NAMES.has(key) ? refIri(key) : `gs1:${key}`] = spelled(key, value);
  }
  return out;
}

/** The reference's own context: terms bare under a GS1 @vocab, and at most a gs1: prefix beside it. */
function isGs1VocabContext(context: unknown): boolean {
  if (!isRecord(context)) return false;
  const gs1 = /^https?:\/\/(www\.|ref\.)?gs1\.org\/voc\/$/;
  return (
    typeof context["@vocab"] === "string" &&
    Object.entries(context).every(([k, v]) => (k === "@vocab" || k === "gs1") && gs1.test(String(v)))
  );
}

/**
 * The document as the jsonld-variant configuration serves it. A document under a context other than the one the
 * reference writes (one the dataset brought along) is served as it is, since its terms may mean something else.
 */
export function variantDocument(doc: MasterDataDocument): unknown {
  if (!isGs1VocabContext(doc["@context"])) return doc;
  const { "@context": _, address, ...rest } = doc;
  const subject = node(rest);
  const type = String(doc["@type"]);
  subject["@type"] = [type.startsWith("gs1:") || !type.includes(":") ? refIri(type) : type];
  const graph: Record<string, unknown>[] = [subject];
  if (isRecord(address)) {
    subject["gs1:address"] = { "@id": ADDRESS_NODE };
    graph.push({ "@id": ADDRESS_NODE, ...node(address) });
  }
  return { "@context": VARIANT_CONTEXT_PATH, "@graph": graph };
}
