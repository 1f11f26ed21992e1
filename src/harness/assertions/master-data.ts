// What a master data document must be (spec 2.2): GS1 Web Vocabulary JSON-LD of one of three types, whose
// declared properties have their declared types. Each assertion returns undefined when the rule holds, else
// evidence whose message says what is wrong.
import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import {
  type Definition,
  MASTER_DATA_TYPES,
  type MasterDataTypeInfo,
  type MasterDataTypeName,
  standaloneSchema,
} from "../../definition/index.ts";
import { canonicalId, isDigitalLink } from "../../model/index.ts";
import type { Evidence } from "../types.ts";

/**
 * Namespaces of the GS1 Web Vocabulary a context may map terms to. The www. forms are in wide use (GS1's own
 * examples and the GDST master data use them), so a sender writing them maps to the vocabulary as much as one
 * writing the bare host.
 */
export const GS1_VOCABULARY_NAMESPACES: readonly string[] = [
  "https://gs1.org/voc/",
  "http://gs1.org/voc/",
  "https://www.gs1.org/voc/",
  "http://www.gs1.org/voc/",
  "https://ref.gs1.org/voc/",
];

// JSON-LD keywords and their plain aliases: MD-JSONLD and the type checks judge them, not the property types.
const JSON_LD_MEMBERS = new Set(["@context", "@type", "@id", "type", "id"]);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const inGs1Namespace = (v: unknown): v is string =>
  typeof v === "string" && GS1_VOCABULARY_NAMESPACES.some((ns) => v.startsWith(ns));

/** A context maps to the vocabulary when it is, lists, or defines a term as, an IRI under a GS1 namespace. */
export function contextMapsToGs1(context: unknown): boolean {
  if (inGs1Namespace(context)) return true;
  if (Array.isArray(context)) return context.some(contextMapsToGs1);
  if (!isRecord(context)) return false;
  return Object.values(context).some((v) => inGs1Namespace(v) || (isRecord(v) && inGs1Namespace(v["@id"])));
}

function vocabIsGs1(context: unknown): boolean {
  if (Array.isArray(context)) return context.some(vocabIsGs1);
  return isRecord(context) && inGs1Namespace(context["@vocab"]);
}

function typeValues(doc: Record<string, unknown>): string[] {
  const raw = doc["@type"] ?? doc.type;
  const list = Array.isArray(raw) ? raw : [raw];
  return list.filter((t): t is string => typeof t === "string");
}

/**
 * The master data types a document declares, in their gs1: form: "gs1:Product", a full IRI under a GS1
 * namespace, or a bare "Product" when the context's @vocab is the GS1 vocabulary.
 */
export function masterDataTypesOf(doc: unknown): MasterDataTypeName[] {
  if (!isRecord(doc)) return [];
  const bareAllowed = vocabIsGs1(doc["@context"]);
  const found = new Set<MasterDataTypeName>();
  for (const value of typeValues(doc)) {
    let local: string | undefined;
    if (value.startsWith("gs1:")) local = value.slice(4);
    else if (inGs1Namespace(value)) {
      local = value.slice((GS1_VOCABULARY_NAMESPACES.find((ns) => value.startsWith(ns)) ?? "").length);
    } else if (bareAllowed) local = value;
    const name = `gs1:${local}` as MasterDataTypeName;
    if (MASTER_DATA_TYPES.includes(name)) found.add(name);
  }
  return [...found];
}

/** The document is JSON-LD whose context maps to the GS1 vocabulary and whose type is one of the three. */
export function jsonLdProblem(doc: unknown): Evidence | undefined {
  if (!isRecord(doc)) return { message: "the master data document is not a JSON object", actual: doc };
  if (!("@context" in doc) || doc["@context"] === null) {
    return {
      message: "the document has no @context",
      expected: "an @context mapping to https://gs1.org/voc/",
    };
  }
  if (!contextMapsToGs1(doc["@context"])) {
    return {
      message: "the @context maps no term to the GS1 Web Vocabulary",
      expected: `a context naming one of ${GS1_VOCABULARY_NAMESPACES.join(", ")}`,
      actual: doc["@context"],
    };
  }
  if (typeValues(doc).length === 0) {
    return { message: "the document has no @type (or type)", expected: MASTER_DATA_TYPES };
  }
  if (masterDataTypesOf(doc).length === 0) {
    return {
      message: "the document's type is none of gs1:Organization, gs1:Place and gs1:Product",
      expected: MASTER_DATA_TYPES,
      actual: doc["@type"] ?? doc.type,
    };
  }
  return undefined;
}

/** The document is of the type the identifier calls for (spec 4.2). */
export function masterDataTypeProblem(doc: unknown, expected: MasterDataTypeName): Evidence | undefined {
  const types = masterDataTypesOf(doc);
  if (types.includes(expected)) return undefined;
  const actual = isRecord(doc) ? (doc["@type"] ?? doc.type) : doc;
  return { message: `the document is not a ${expected}`, expected, actual: actual ?? "no @type" };
}

/** When the document names what it describes with a Digital Link or EPC URN, that is the identifier asked about. */
export function identifierProblem(doc: unknown, uri: string): Evidence | undefined {
  if (!isRecord(doc)) return undefined;
  const id = doc["@id"] ?? doc.id;
  if (typeof id !== "string") return undefined;
  const canonical = canonicalId(id);
  if (!isDigitalLink(canonical) || canonical === canonicalId(uri)) return undefined;
  return {
    message: `the document describes ${id}, not the identifier asked about`,
    expected: uri,
    actual: id,
  };
}

export interface ClassificationFinding {
  property: string;
  value: unknown;
  /** listed: in x-std-values as spelled; unlisted: a string outside the list (allowed, spec 2.2). */
  status: "listed" | "unlisted" | "not-a-string";
}

/** The classification values a document carries for the properties its type lists x-std-values for. */
export function classificationFindings(doc: unknown, type: MasterDataTypeInfo): ClassificationFinding[] {
  if (!isRecord(doc)) return [];
  const findings: ClassificationFinding[] = [];
  for (const property of type.properties) {
    if (property.stdValues === undefined || !(property.name in doc)) continue;
    const value = doc[property.name];
    const status =
      typeof value !== "string" || value === ""
        ? "not-a-string"
        : property.stdValues.includes(value)
          ? "listed"
          : "unlisted";
    findings.push({ property: property.name, value, status });
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
 * Checks each property a document carries against the schema the definition declares for it in that type
 * (components travel along, so a $ref to PostalAddress resolves). JSON-LD keywords are left to jsonLdProblem.
 */
export function createPropertyChecker(definition: Definition): PropertyChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  formats.default(ajv);
  const byType = new Map<MasterDataTypeName, { name: string; validate: ValidateFunction }[]>();
  for (const info of definition.masterDataTypes) {
    byType.set(
      info.type,
      info.properties
        .filter((p) => !JSON_LD_MEMBERS.has(p.name))
        .map((p) => ({ name: p.name, validate: ajv.compile(standaloneSchema(definition.raw, p.schema)) })),
    );
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
