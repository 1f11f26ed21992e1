// What a master data document must be (spec 2.2): GS1 Web Vocabulary JSON-LD of one of three types, whose
// declared properties have their declared types. A document is read as the graph it expands to through a JSON-LD
// processor, so any spelling of the same graph (compact terms or full IRIs, language-tagged names, an @graph,
// either namespace of the vocabulary) reads the same. Each assertion answers undefined when the rule holds, else
// evidence whose message says what is wrong; a context that cannot be loaded is a ContextUnavailableError, which
// a suite reports as an error, never as a failure.
import type { ErrorObject, ValidateFunction } from "ajv";
import jsonld from "jsonld";
import {
  type Definition,
  MASTER_DATA_TYPES,
  type MasterDataTypeInfo,
  type MasterDataTypeName,
  ownSchemaValidatorsOf,
  standaloneSchema,
} from "../definition/index.ts";
import type { Evidence } from "../engine/types.ts";
import { canonicalId, isDigitalLink } from "../model/index.ts";
import {
  ContextUnavailableError,
  createContextLoader,
  type DocumentLoader,
  embedded,
  GS1_NAMESPACE,
  gs1LocalName,
  type JsonLdGraph,
  type JsonObject,
  readJsonLd,
} from "../target/jsonld/index.ts";
import { isRecord } from "../target/linkset.ts";

export { ContextUnavailableError, GS1_VOCABULARY_NAMESPACES } from "../target/jsonld/index.ts";

export interface MasterDataReadOptions {
  /** Where contexts come from; a suite passes runContextLoader(ctx). Default: the mirrors only, no network. */
  loader?: DocumentLoader;
  /** The URL the document was read from, against which its relative IRIs resolve. */
  base?: string;
}

/** A node of the document, with the master data types it has. */
export interface MasterDataNode {
  types: MasterDataTypeName[];
  node: JsonObject;
}

export type MasterDataReading =
  | {
      kind: "read";
      graph: JsonLdGraph;
      /** The document's top-level nodes, each with the master data types it has (possibly none). */
      subjects: MasterDataNode[];
      /** Every master data type a top-level node has. */
      types: MasterDataTypeName[];
      /** Every type the top-level nodes state, as expanded (GS1 terms under https://ref.gs1.org/voc/). */
      typesStated: string[];
      loader: DocumentLoader;
    }
  | { kind: "unloadable"; url: string; message: string }
  | { kind: "invalid"; message: string };

/**
 * The context the definition's schemas are applied under: GS1 terms bare, as the definition names them. No gs1:
 * prefix, so that a type a document left unexpanded ("gs1:Place" with gs1 undefined) stays as written instead of
 * being confused with the prefix.
 */
const SCHEMA_CONTEXT = { "@vocab": GS1_NAMESPACE };

const XSD_STRING = "http://www.w3.org/2001/XMLSchema#string";

// JSON-LD keywords and their plain aliases: MD-JSONLD and the type checks judge them, not the property types.
const JSON_LD_MEMBERS = new Set(["@context", "@type", "@id", "type", "id"]);

let offlineLoader: DocumentLoader | undefined;

function stringsOf(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((t): t is string => typeof t === "string") : [];
}

/**
 * Classes the GS1 Web Vocabulary defines as subclasses of gs1:Product, directly or through another: a document
 * typed with one of them describes a gs1:Product (spec 2.2), as GS1's own food and apparel examples write it.
 */
const PRODUCT_SUBCLASSES: ReadonlySet<string> = new Set([
  "FoodBeverageTobaccoProduct",
  "FruitsVegetables",
  "MeatPoultry",
  "Seafood",
  "WearableProduct",
  "Clothing",
  "Footwear",
  "PersonalAccessories",
]);

/** gs1:Organization for a GS1 IRI of one of the three types (or of a subclass of gs1:Product), else undefined. */
function masterDataTypeOf(iri: string): MasterDataTypeName | undefined {
  const local = gs1LocalName(iri);
  if (local !== undefined && PRODUCT_SUBCLASSES.has(local)) return "gs1:Product";
  const name = `gs1:${local}` as MasterDataTypeName;
  return local !== undefined && MASTER_DATA_TYPES.includes(name) ? name : undefined;
}

/** Readings already made, by document: the same document, loader and base are read once. */
const readings = new WeakMap<
  object,
  { loader: DocumentLoader; base: string | undefined; reading: Promise<MasterDataReading> }[]
>();

async function read(
  doc: unknown,
  loader: DocumentLoader,
  base: string | undefined,
): Promise<MasterDataReading> {
  const options = base === undefined ? { loader } : { loader, base };
  const reading = await readJsonLd(doc, options);
  if (reading.kind !== "read") return reading;
  const subjects = reading.nodes.map((node) => {
    const found = stringsOf(node["@type"]).map(masterDataTypeOf);
    return { node, types: [...new Set(found.filter((t) => t !== undefined))] };
  });
  return {
    kind: "read",
    graph: reading,
    subjects,
    types: [...new Set(subjects.flatMap((s) => s.types))],
    typesStated: [...new Set(reading.nodes.flatMap((n) => stringsOf(n["@type"])))],
    loader,
  };
}

/** The document read as JSON-LD; the same document, loader and base are read once. */
export function readMasterData(
  doc: unknown,
  options: MasterDataReadOptions = {},
): Promise<MasterDataReading> {
  offlineLoader ??= createContextLoader();
  const loader = options.loader ?? offlineLoader;
  if (typeof doc !== "object" || doc === null) return read(doc, loader, options.base);
  const known = readings.get(doc) ?? [];
  readings.set(doc, known);
  const hit = known.find((k) => k.loader === loader && k.base === options.base);
  if (hit !== undefined) return hit.reading;
  const reading = read(doc, loader, options.base);
  known.push({ loader, base: options.base, reading });
  return reading;
}

type Read = Extract<MasterDataReading, { kind: "read" }>;

/** The graph of a reading; a context that could not be loaded is thrown, an invalid document answered as evidence. */
function graphOf(reading: MasterDataReading): Read | Evidence {
  if (reading.kind === "unloadable") throw new ContextUnavailableError(reading.url, reading.message);
  if (reading.kind === "invalid") return { message: `the document is not JSON-LD: ${reading.message}` };
  return reading;
}

/** The evidence that a document has none of the expected types, naming the likeliest cause. */
function untypedEvidence(reading: Read, expected: readonly MasterDataTypeName[]): Evidence {
  if (reading.typesStated.length === 0) {
    return {
      message:
        "the document states no @type once expanded (a type under a key its @context does not alias to @type is no type)",
      expected,
    };
  }
  // "gs1:Organization" left as it is by expansion: gs1 read as a URI scheme because no context defines it.
  const prefixed = reading.typesStated.some((t) => /^[a-z][a-z0-9+.-]*:[^/]/i.test(t) && !/^urn:/i.test(t));
  const hint = prefixed
    ? " (a prefix such as gs1: that no @context defines is not expanded: define it, e.g. as https://ref.gs1.org/voc/)"
    : "";
  const names = expected.join(", ");
  return {
    message: `the document's type is not ${expected.length === 1 ? names : `one of ${names}`} of the GS1 Web Vocabulary${hint}`,
    expected,
    actual: reading.typesStated,
  };
}

/**
 * Whether a reading is GS1 Web Vocabulary JSON-LD of one of the three types (spec 2.2), or of `expected`, the
 * type its identifier calls for (spec 4.2). A reading whose context could not be loaded is thrown as a
 * ContextUnavailableError: nothing can be said about it.
 */
export function typeProblem(reading: MasterDataReading, expected?: MasterDataTypeName): Evidence | undefined {
  const read = graphOf(reading);
  if (!("kind" in read)) return read;
  if (expected === undefined)
    return read.types.length > 0 ? undefined : untypedEvidence(read, MASTER_DATA_TYPES);
  if (read.types.includes(expected)) return undefined;
  if (read.types.length === 0) return untypedEvidence(read, [expected]);
  return { message: `the document is not a ${expected}`, expected, actual: read.types };
}

/** The document is JSON-LD whose graph has a node typed gs1:Organization, gs1:Place or gs1:Product (spec 2.2). */
export async function jsonLdProblem(
  doc: unknown,
  options?: MasterDataReadOptions,
): Promise<Evidence | undefined> {
  return typeProblem(await readMasterData(doc, options));
}

/** The document is of the type the identifier calls for (spec 4.2). */
export async function masterDataTypeProblem(
  doc: unknown,
  expected: MasterDataTypeName,
  options?: MasterDataReadOptions,
): Promise<Evidence | undefined> {
  return typeProblem(await readMasterData(doc, options), expected);
}

/** The master data types the document's top-level nodes have, in their gs1: form. */
export async function masterDataTypesOf(
  doc: unknown,
  options?: MasterDataReadOptions,
): Promise<MasterDataTypeName[]> {
  const reading = await readMasterData(doc, options);
  if (reading.kind === "unloadable") throw new ContextUnavailableError(reading.url, reading.message);
  return reading.kind === "read" ? reading.types : [];
}

/** The node the document is about for an identifier of `expected` type: one of that type, else of any of the three. */
export function subjectOf(reading: Read, expected: MasterDataTypeName): JsonObject | undefined {
  return (
    reading.subjects.find((s) => s.types.includes(expected))?.node ??
    reading.subjects.find((s) => s.types.length > 0)?.node ??
    reading.subjects[0]?.node
  );
}

const GLN_PATH = /^https:\/\/id\.gs1\.org\/(414|417)\/(\d{13})$/;

/**
 * When the document names what it describes with a Digital Link or EPC URN, that is the identifier asked about.
 * @id is optional (the spec does not ask for it), so a document without one has no problem here.
 */
export async function identifierProblem(
  doc: unknown,
  uri: string,
  options?: MasterDataReadOptions & { expected?: MasterDataTypeName },
): Promise<Evidence | undefined> {
  const reading = graphOf(await readMasterData(doc, options));
  if (!("kind" in reading)) return undefined;
  const subject =
    options?.expected === undefined
      ? reading.subjects.find((s) => s.types.length > 0)?.node
      : subjectOf(reading, options.expected);
  const id = subject?.["@id"];
  if (typeof id !== "string" || id.startsWith("_:")) return undefined;
  const canonical = canonicalId(id);
  const asked = canonicalId(uri);
  if (!isDigitalLink(canonical) || canonical === asked) return undefined;
  // A party's GLN written under AI 414, as parties were named before AI 417 was given them, is the same number.
  const gln = (dl: string) => GLN_PATH.exec(dl)?.[2];
  if (gln(canonical) !== undefined && gln(canonical) === gln(asked)) return undefined;
  return {
    message: `the document describes ${id}, not the identifier asked about`,
    expected: uri,
    actual: id,
  };
}

/**
 * A language-tagged or xsd:string literal is a string, so the definition's `type: string` holds for it; a blank
 * node's label is no identifier of the sender's, so it is left out.
 */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (!isRecord(value)) return value;
  if ("@value" in value) {
    const literal = value["@value"];
    const typed = value["@type"];
    const isString = typeof literal === "string" && (typed === undefined || typed === XSD_STRING);
    return isString ? { "@value": literal } : value;
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === "@id" && typeof v === "string" && v.startsWith("_:")) continue;
    out[key] = key === "@type" ? v : plain(v);
  }
  return out;
}

/**
 * The node the document is about, with what it links to by @id, compacted under the GS1 context: the canonical
 * shape the definition's JSON schemas are written for (bare GS1 terms, "@type", plain strings), whatever the
 * spelling served. Undefined when no node of the document has a master data type (MD-JSONLD's failure).
 */
export function schemaShape(
  reading: Read,
  expected: MasterDataTypeName,
): Promise<Record<string, unknown> | undefined> {
  const known = shapes.get(reading) ?? new Map<MasterDataTypeName, Promise<JsonObject | undefined>>();
  shapes.set(reading, known);
  const found = known.get(expected) ?? compacted(reading, expected);
  known.set(expected, found);
  return found;
}

/** Shapes already made, by reading and type: several requirements validate the same shape. */
const shapes = new WeakMap<Read, Map<MasterDataTypeName, Promise<JsonObject | undefined>>>();

/**
 * The types of the node the document is about as they were read: a subclass of gs1:Product written as gs1:Product
 * (what MD-JSONLD and RES-MASTERDATA-LINK read it as), so that the definition's schema, which names the three
 * types only, is applied to the type the document was taken for. Other types stay as stated.
 */
function typesAsRead(types: unknown): unknown {
  if (!Array.isArray(types)) return types;
  const product = `${GS1_NAMESPACE}Product`;
  const read = types.map((t) =>
    typeof t === "string" && masterDataTypeOf(t) === "gs1:Product" ? product : t,
  );
  return [...new Set(read)];
}

async function compacted(reading: Read, expected: MasterDataTypeName): Promise<JsonObject | undefined> {
  const subject = subjectOf(reading, expected);
  if (subject === undefined || reading.types.length === 0) return undefined;
  const tree = plain(embedded(subject, reading.graph.byId)) as Record<string, unknown>;
  if ("@type" in tree) tree["@type"] = typesAsRead(tree["@type"]);
  return (await jsonld.compact(tree as Parameters<typeof jsonld.compact>[0], SCHEMA_CONTEXT, {
    documentLoader: reading.loader,
    compactToRelative: false,
  })) as Record<string, unknown>;
}

export interface ClassificationFinding {
  property: string;
  /** One value the property holds (each of an array's, where the definition's type admits an array). */
  value: unknown;
  /**
   * listed: in x-std-values as spelled; unlisted: a code outside the list (allowed, spec 2.2); not-a-code: no
   * non-empty string, so nothing to look up in a list of codes.
   */
  status: "listed" | "unlisted" | "not-a-code";
  /**
   * The definition gives the property a schema that constrains its value (a type, a $ref, an enum, ...): whether
   * the value has that type is MD-PROPERTY-TYPES's to judge, not the list's.
   */
  typeDeclared: boolean;
}

// Keywords by which a property's schema constrains the kind of value it holds; x-std-values and x-kde-name do not.
const TYPE_KEYWORDS = [
  "type",
  "const",
  "enum",
  "$ref",
  "$dynamicRef",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
];

/** Whether a property's schema constrains its value's type, so that MD-PROPERTY-TYPES judges it. */
export function declaresType(schema: JsonObject): boolean {
  return TYPE_KEYWORDS.some((k) => k in schema);
}

/**
 * The classification values a document (in its schema shape) carries for the properties with x-std-values, each
 * looked up in the list. An array is several values, each a code of its own.
 */
export function classificationFindings(doc: unknown, type: MasterDataTypeInfo): ClassificationFinding[] {
  if (!isRecord(doc)) return [];
  const findings: ClassificationFinding[] = [];
  for (const property of type.properties) {
    if (property.stdValues === undefined || !(property.name in doc)) continue;
    const held = doc[property.name];
    const typeDeclared = declaresType(property.schema);
    for (const value of Array.isArray(held) ? held : [held]) {
      const status =
        typeof value !== "string" || value === ""
          ? "not-a-code"
          : property.stdValues.includes(value)
            ? "listed"
            : "unlisted";
      findings.push({ property: property.name, value, status, typeDeclared });
    }
  }
  return findings;
}

export interface PropertyProblem {
  property: string;
  value: unknown;
  errors: string[];
}

export type PropertyChecker = (type: MasterDataTypeName, doc: unknown) => PropertyProblem[];

function describe(property: string, error: ErrorObject): string {
  return `${property}${error.instancePath} ${error.message ?? error.keyword}`;
}

/**
 * Whether an error of validateMasterData (the value's JSON pointer in the document, then what is wrong) is about
 * `property` or something it holds: MD-PROPERTY-TYPES's to judge when it failed that property.
 */
export function isUnderProperty(error: string, property: string): boolean {
  const pointer = `/${property.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  return error.startsWith(`${pointer} `) || error.startsWith(`${pointer}/`);
}

/**
 * Checks each property a document (in its schema shape) carries against the schema the definition declares for
 * it in that type (components travel along, so a $ref to PostalAddress resolves). JSON-LD keywords are left to
 * jsonLdProblem.
 */
export function createPropertyChecker(definition: Definition): PropertyChecker {
  const wanted = definition.masterDataTypes.flatMap((info) =>
    info.properties
      .filter((p) => !JSON_LD_MEMBERS.has(p.name))
      .map((p, i) => ({
        type: info.type,
        name: p.name,
        key: `master-data-${info.type}-${i}`,
        schema: standaloneSchema(definition.raw, p.schema),
      })),
  );
  const validators = ownSchemaValidatorsOf(wanted.map((w) => [w.key, w.schema] as const));
  const byType = new Map<MasterDataTypeName, { name: string; validate: ValidateFunction }[]>();
  for (const w of wanted) {
    const checks = byType.get(w.type) ?? [];
    checks.push({ name: w.name, validate: validators.get(w.key)! });
    byType.set(w.type, checks);
  }
  return (type, doc) => {
    if (!isRecord(doc)) return [];
    const problems: PropertyProblem[] = [];
    for (const { name, validate } of byType.get(type) ?? []) {
      if (!(name in doc)) continue;
      const value = doc[name];
      if (validate(value)) continue;
      problems.push({ property: name, value, errors: (validate.errors ?? []).map((e) => describe(name, e)) });
    }
    return problems;
  };
}
