// Shared domain types. Every room of tracecheck speaks of events, queries and identifiers in these terms.

/** A quantity element of an EPCIS event (quantityList, childQuantityList, inputQuantityList, outputQuantityList). */
export interface QuantityElement {
  epcClass: string;
  quantity?: number;
  uom?: string;
}

/**
 * An EPCIS 2.0 event as JSON-LD. Only the fields the query interface reads are typed (spec 2.1); every other
 * member is kept as it arrived, so that a served event can be compared with the one that was loaded.
 */
export interface EpcisEvent {
  type: string;
  eventID?: string;
  eventTime?: string;
  eventTimeZoneOffset?: string;
  recordTime?: string;
  action?: string;
  bizStep?: string;
  disposition?: string;
  epcList?: string[];
  childEPCs?: string[];
  parentID?: string;
  inputEPCList?: string[];
  outputEPCList?: string[];
  quantityList?: QuantityElement[];
  childQuantityList?: QuantityElement[];
  inputQuantityList?: QuantityElement[];
  outputQuantityList?: QuantityElement[];
  transformationID?: string;
  bizLocation?: { id: string; [k: string]: unknown };
  readPoint?: { id: string; [k: string]: unknown };
  [k: string]: unknown;
}

/** The fields MATCH_anyEPC looks at (spec 2.1, 4.1): four lists of EPCs and the parentID. */
export const EPC_FIELDS = ["epcList", "childEPCs", "parentID", "inputEPCList", "outputEPCList"] as const;
export type EpcField = (typeof EPC_FIELDS)[number];

/** The EPC fields that are lists (every one but parentID). */
export const EPC_LIST_FIELDS = ["epcList", "childEPCs", "inputEPCList", "outputEPCList"] as const;

/** The JSON-LD context every EPCIS 2.0 document names first. */
export const EPCIS_CONTEXT_URL = "https://ref.gs1.org/standards/epcis/epcis-context.jsonld";

/**
 * The extension prefixes of the events this project writes and serves. cbvmda is also a protected term of the
 * EPCIS context, so it must be declared with the very IRI that context gives it, or the document is not valid
 * JSON-LD.
 */
export const EXTENSION_PREFIXES: Readonly<Record<"gdst" | "cbvmda", string>> = {
  gdst: "https://traceability-dialogue.org/epcis",
  cbvmda: "urn:epcglobal:cbv:mda:",
};

/**
 * The party members of the core module (schemas/modules/core): the information provider, the party that holds
 * the events, first, then the product owner. Each names a party by its URI, or by an object whose @id is one.
 */
export const PARTY_FIELDS = ["cbvmda:informationProvider", "gdst:productOwner"] as const;

/** The identifier a member names: the string itself, or the @id (or id) of an object. */
export function idValue(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value !== null && typeof value === "object") {
    const id = (value as Record<string, unknown>)["@id"] ?? (value as Record<string, unknown>).id;
    return typeof id === "string" ? id : undefined;
  }
  return undefined;
}

/** The quantity lists whose classes MATCH_anyEPCClass looks at (spec 2.1, 4.1). */
export const CLASS_LISTS = [
  "quantityList",
  "childQuantityList",
  "inputQuantityList",
  "outputQuantityList",
] as const;
export type ClassList = (typeof CLASS_LISTS)[number];

/** Every EPC an event carries, as written: its four EPC lists and its parentID (what MATCH_anyEPC reads). */
export function epcsOf(e: EpcisEvent): string[] {
  return EPC_FIELDS.flatMap((f) => {
    const value = e[f];
    return typeof value === "string" ? [value] : (value ?? []);
  });
}

/** The class of every quantity element of an event's four quantity lists, as written (what MATCH_anyEPCClass reads). */
export function classesOf(e: EpcisEvent): string[] {
  return CLASS_LISTS.flatMap((l) => (e[l] ?? []).map((q) => q.epcClass)).filter(
    (c): c is string => typeof c === "string",
  );
}

/** The four time bounds of spec 4.1. Values are xsd:dateTimeStamp strings as sent on the wire. */
export const TIME_PARAMETERS = ["LT_recordTime", "GE_recordTime", "LT_eventTime", "GE_eventTime"] as const;
export type TimeParameter = (typeof TIME_PARAMETERS)[number];

/** The five list parameters of spec 4.1: pipe-joined on the wire, alternatives (OR) among their values. */
export const LIST_PARAMETERS = [
  "MATCH_anyEPC",
  "MATCH_anyEPCClass",
  "EQ_bizStep",
  "EQ_transformationID",
  "EQ_bizLocation",
] as const;
export type ListParameter = (typeof LIST_PARAMETERS)[number];

export const QUERY_PARAMETERS = [...TIME_PARAMETERS, ...LIST_PARAMETERS] as const;
export type QueryParameter = (typeof QUERY_PARAMETERS)[number];

/** A query on GET /events: parameters combine as AND, values of one list parameter as OR (spec 4.1). */
export type EventQuery = Partial<Record<TimeParameter, string>> & Partial<Record<ListParameter, string[]>>;

/**
 * An instant with its full precision: whole seconds since the epoch in UTC, plus the fractional digits with
 * trailing zeros removed ("" for none). Two instants are equal exactly when both members are equal.
 */
export interface Instant {
  epochSeconds: bigint;
  fraction: string;
}

/** One element of a GS1 Digital Link path: a numeric application identifier and its (decoded) value. */
export interface DigitalLinkElement {
  ai: string;
  value: string;
}

export interface DigitalLink {
  /** Scheme, host and any path prefix before the first AI, without a trailing slash, e.g. https://id.gs1.org */
  base: string;
  elements: DigitalLinkElement[];
  /** The query string after "?", decoded into pairs, in order. */
  query: [string, string][];
}

/**
 * A master data document as GS1 Web Vocabulary JSON-LD (spec 2.2). `@id` is the canonical Digital Link URI of
 * what it describes: /01/{gtin} for gs1:Product, /414/{gln} for gs1:Place, /417/{pgln} for gs1:Organization.
 */
export interface MasterDataDocument {
  "@context": unknown;
  "@type": "gs1:Organization" | "gs1:Place" | "gs1:Product" | string;
  "@id": string;
  [k: string]: unknown;
}

/** The data a sender holds: its events and the master data its identifiers need. */
export interface Dataset {
  events: EpcisEvent[];
  masterData: MasterDataDocument[];
}
