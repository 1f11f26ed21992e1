// What a receiver walks and asks master data for, read from the events it fetched: the identifiers an event leads
// back to (aggregations and transformations, spec 1 and 6), and the products, business locations and parties it
// names (spec 2.2: gs1:Product, gs1:Place, gs1:Organization).
import {
  CANONICAL_DL_BASE,
  canonicalId,
  type DigitalLinkElement,
  type EpcisEvent,
  formatDigitalLink,
  gtinOf,
  idValue,
  isDigitalLink,
  PARTY_FIELDS,
  parseDigitalLink,
} from "../model/index.ts";

/** How an identifier is asked of GET /events: an instance in MATCH_anyEPC, a class in MATCH_anyEPCClass. */
export type IdentifierKind = "epc" | "class";

function classes(list: EpcisEvent["quantityList"]): string[] {
  return (list ?? []).map((q) => q.epcClass).filter((c): c is string => typeof c === "string");
}

/** Whether an identifier names a class (a lot, a GTIN, a pattern) rather than one object. */
export function kindOf(id: string): IdentifierKind {
  if (/^urn:epc:(class|idpat):/.test(id.trim())) return "class";
  const canonical = canonicalId(id);
  if (!isDigitalLink(canonical)) return "epc";
  const ais = parseDigitalLink(canonical).elements.map((e) => e.ai);
  return ais.length === 1 && ais[0] === "01" ? "class" : ais[1] === "10" ? "class" : "epc";
}

/** The parent and children of an aggregation: what it packed or unpacked. */
export function aggregatedIn(e: EpcisEvent): string[] {
  if (e.type !== "AggregationEvent") return [];
  const parent = typeof e.parentID === "string" ? [e.parentID] : [];
  return [...parent, ...(e.childEPCs ?? []), ...classes(e.childQuantityList)];
}

/** A transformation's outputs and inputs. */
export function transformed(e: EpcisEvent): { outputs: string[]; inputs: string[] } {
  if (e.type !== "TransformationEvent") return { outputs: [], inputs: [] };
  return {
    outputs: [...(e.outputEPCList ?? []), ...classes(e.outputQuantityList)],
    inputs: [...(e.inputEPCList ?? []), ...classes(e.inputQuantityList)],
  };
}

function keyElements(id: string | undefined, ai: string): DigitalLinkElement[] | undefined {
  if (id === undefined) return undefined;
  const canonical = canonicalId(id);
  if (!isDigitalLink(canonical)) return undefined;
  const first = parseDigitalLink(canonical).elements[0];
  return first?.ai === ai ? [first] : undefined;
}

/**
 * The identifiers whose master data the events point to, as Digital Link elements of a key the resolver
 * answers for (/01/{gtin}, /414/{gln}, /417/{pgln}), each once, keyed by its canonical URI; `known` first, the
 * keys the receiver has without any event.
 */
export function masterDataKeys(
  events: Iterable<EpcisEvent>,
  known: readonly DigitalLinkElement[][] = [],
): Map<string, DigitalLinkElement[]> {
  const keys = new Map<string, DigitalLinkElement[]>();
  const add = (elements: DigitalLinkElement[] | undefined) => {
    if (elements === undefined) return;
    const uri = formatDigitalLink(CANONICAL_DL_BASE, elements);
    if (!keys.has(uri)) keys.set(uri, elements);
  };
  for (const elements of known) add(elements);
  for (const e of events) {
    add(keyElements(idValue(e.bizLocation), "414"));
    const ids = [
      ...(e.epcList ?? []),
      ...(e.childEPCs ?? []),
      ...(e.inputEPCList ?? []),
      ...(e.outputEPCList ?? []),
      ...(typeof e.parentID === "string" ? [e.parentID] : []),
      ...classes(e.quantityList),
      ...classes(e.childQuantityList),
      ...classes(e.inputQuantityList),
      ...classes(e.outputQuantityList),
    ];
    for (const id of ids) {
      const gtin = gtinOf(id);
      if (gtin !== undefined) add([{ ai: "01", value: gtin }]);
    }
    for (const field of PARTY_FIELDS) add(keyElements(idValue(e[field]), "417"));
    // EPCIS source and destination lists name parties and places by their type (owning_party, location).
    for (const list of ["sourceList", "destinationList"] as const) {
      const entries = e[list];
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) {
        if (entry === null || typeof entry !== "object") continue;
        const record = entry as Record<string, unknown>;
        const value = idValue(record[list === "sourceList" ? "source" : "destination"]);
        add(keyElements(value, "417") ?? keyElements(value, "414"));
      }
    }
  }
  return keys;
}
