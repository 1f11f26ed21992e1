// What the resolver and the master data endpoint know, built once from the dataset: every identifier a client
// may ask about (keyed by its canonical Digital Link URI) and the master data document of each GTIN, GLN and
// PGLN.
import type { Dataset, DigitalLinkElement, EpcisEvent, MasterDataDocument } from "../../model/index.ts";
import {
  CANONICAL_DL_BASE,
  CLASS_LISTS,
  canonicalId,
  EPC_LIST_FIELDS,
  formatDigitalLink,
  idValue,
  PARTY_FIELDS,
  PATH_FORMS,
  parseDigitalLink,
  pathFormOf,
} from "../../model/index.ts";
import { GS1_VOC_CONTEXT } from "../masterdata/context.ts";
import { type OwnIdentifiers, ownIdentifiers } from "./own.ts";

export interface Catalogue {
  /** Canonical Digital Link URIs of every identifier the resolver answers for. */
  identifiers: ReadonlySet<string>;
  /** Master data by the canonical URI of its /01, /414 or /417 identifier. */
  documents: ReadonlyMap<string, MasterDataDocument>;
  /** The sender's own party and company prefix. */
  own: OwnIdentifiers;
}

const cache = new WeakMap<Dataset, Catalogue>();

/** The catalogue of a dataset; the resolver and the master data endpoint share one per dataset. */
export function catalogueOf(dataset: Dataset): Catalogue {
  let catalogue = cache.get(dataset);
  if (catalogue === undefined) {
    catalogue = buildCatalogue(dataset);
    cache.set(dataset, catalogue);
  }
  return catalogue;
}

function buildCatalogue(dataset: Dataset): Catalogue {
  const identifiers = new Set<string>();
  const documents = new Map<string, MasterDataDocument>();

  for (const doc of dataset.masterData) {
    const elements = elementsOf(doc["@id"]);
    if (elements === undefined) continue;
    const form = pathFormOf(elements);
    if (form !== "01" && form !== "414" && form !== "417") continue;
    const uri = canonicalUri(elements);
    identifiers.add(uri);
    if (!documents.has(uri)) documents.set(uri, doc);
  }

  // Locations and classes recur in many events; each distinct string is canonicalised once.
  const seen = new Set<string>();
  const keys = new Map<string, DigitalLinkElement>();
  for (const event of dataset.events) {
    for (const id of identifiersOfEvent(event)) {
      if (seen.has(id)) continue;
      seen.add(id);
      register(id, identifiers, keys);
    }
  }

  // A GTIN, GLN or party GLN seen only in events still gets a document, so that every /01, /414 and /417 link
  // set can offer the master data link that spec 4.2 names for it.
  for (const [uri, key] of keys) {
    if (documents.has(uri)) continue;
    documents.set(uri, placeholderDocument(uri, key));
  }

  // A party's GLN is a location number too: the one exchanged at setup (spec 1, step 1) is often the party's
  // own, so /414/{its GLN} resolves to the party's seat where no other place holds that number.
  for (const [uri, doc] of [...documents]) {
    if (!uri.startsWith(`${CANONICAL_DL_BASE}/417/`)) continue;
    const place = `${CANONICAL_DL_BASE}/414/${uri.slice(`${CANONICAL_DL_BASE}/417/`.length)}`;
    if (documents.has(place)) continue;
    identifiers.add(place);
    documents.set(place, seatOf(place, doc));
  }
  return { identifiers, documents, own: ownIdentifiers(dataset.events) };
}

/** The place a party's GLN names as a location: its seat, with the party's name and address. */
function seatOf(uri: string, party: MasterDataDocument): MasterDataDocument {
  const seat: MasterDataDocument = {
    "@context": party["@context"] ?? GS1_VOC_CONTEXT,
    "@type": "gs1:Place",
    "@id": uri,
    globalLocationNumber: uri.slice(uri.lastIndexOf("/") + 1),
  };
  if (party.organizationName !== undefined) seat.name = party.organizationName;
  if (party.address !== undefined) seat.address = party.address;
  return seat;
}

/** The least master data a key seen only in events gets: its type and its key. */
function placeholderDocument(uri: string, key: DigitalLinkElement): MasterDataDocument {
  if (key.ai === "01")
    return { "@context": GS1_VOC_CONTEXT, "@type": "gs1:Product", "@id": uri, gtin: key.value };
  const type = key.ai === "417" ? "gs1:Organization" : "gs1:Place";
  return { "@context": GS1_VOC_CONTEXT, "@type": type, "@id": uri, globalLocationNumber: key.value };
}

/**
 * Every identifier an event names, in a list. A plain function rather than a generator: V8 took tens of
 * milliseconds of a core to optimise the generator, while a short run was starting.
 */
function identifiersOfEvent(event: EpcisEvent): string[] {
  const out: string[] = [];
  for (const field of EPC_LIST_FIELDS) for (const id of event[field] ?? []) out.push(id);
  if (event.parentID !== undefined) out.push(event.parentID);
  for (const field of CLASS_LISTS) {
    for (const q of event[field] ?? []) out.push(q.epcClass);
  }
  if (event.bizLocation !== undefined) out.push(event.bizLocation.id);
  if (event.readPoint !== undefined) out.push(event.readPoint.id);
  // The parties and places an event names besides its location: a receiver resolves them to master data too.
  for (const s of listOf(event.sourceList)) if (typeof s.source === "string") out.push(s.source);
  for (const d of listOf(event.destinationList))
    if (typeof d.destination === "string") out.push(d.destination);
  for (const field of PARTY_FIELDS) {
    const party = idValue(event[field]);
    if (party !== undefined) out.push(party);
  }
  return out;
}

function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => typeof v === "object" && v !== null)
    : [];
}

/**
 * Adds an identifier and the GTIN or GLN it carries (kept in `keys` too), each in one of the six path forms.
 * The canonical form is written by formatDigitalLink, so its segments can be read by splitting instead of
 * parsing again: this runs once per distinct EPC on load.
 */
function register(id: string, identifiers: Set<string>, keys: Map<string, DigitalLinkElement>): void {
  const canonical = canonicalId(id);
  if (!canonical.startsWith(`${CANONICAL_DL_BASE}/`)) return;
  const parts = canonical.slice(CANONICAL_DL_BASE.length + 1).split("/");
  const [ai, value] = parts;
  if ((ai === "01" || ai === "414" || ai === "417") && value !== undefined) {
    const key = `${CANONICAL_DL_BASE}/${ai}/${value}`;
    identifiers.add(key);
    keys.set(key, { ai, value });
  }
  const ais = parts.filter((_, i) => i % 2 === 0).join("/");
  if (PATH_FORMS.some((form) => form === ais)) identifiers.add(canonical);
}

function elementsOf(id: string): DigitalLinkElement[] | undefined {
  try {
    return parseDigitalLink(canonicalId(id)).elements;
  } catch {
    return undefined;
  }
}

export function canonicalUri(elements: readonly DigitalLinkElement[]): string {
  return formatDigitalLink(CANONICAL_DL_BASE, [...elements]);
}

/** A human-readable name for an identifier from its (or its GTIN's) master data, else null (spec 2.3). */
export function itemDescription(
  catalogue: Catalogue,
  elements: readonly DigitalLinkElement[],
): string | null {
  const first = elements[0];
  if (first === undefined || first.ai === "00") return null;
  const doc = catalogue.documents.get(canonicalUri([first]));
  if (doc === undefined) return null;
  const key = first.ai === "01" ? "productName" : first.ai === "414" ? "name" : "organizationName";
  return textOf(doc[key]);
}

/** Plain text of a JSON-LD value: a string, a value object, or the first of a list of either. */
function textOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.length > 0 ? textOf(value[0]) : null;
  if (value !== null && typeof value === "object" && "@value" in value) {
    const inner = (value as { "@value": unknown })["@value"];
    return typeof inner === "string" ? inner : null;
  }
  return null;
}
