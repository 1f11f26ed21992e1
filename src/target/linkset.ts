// Reading a resolver's link set (spec 2.3): its entries, the entry about an identifier, and the links an entry
// lists under a link type in any of the spellings the GS1 vocabulary gives it. What a link set must look like is
// judged in src/assertions/linkset.ts.
import { canonicalId, isDigitalLink } from "../model/index.ts";

/** Member names of a link set entry are link type URIs under this namespace (spec 2.3). */
export const LINK_TYPE_NAMESPACE = "https://ref.gs1.org/voc/";

/**
 * Other spellings of the same link types. The GS1 Web Vocabulary declares each link type under
 * https://gs1.org/voc/ and https://www.gs1.org/voc/ as well (owl:equivalentProperty), and GS1's own resolver
 * writes its link sets that way; spec 4.2 names the link types in the compact gs1: form. A standard that names
 * one thing several ways is read in all of them (RES-LINKTYPE-SPELLING only warns).
 */
export const OTHER_LINK_TYPE_NAMESPACES: readonly string[] = [
  "http://ref.gs1.org/voc/",
  "https://gs1.org/voc/",
  "http://gs1.org/voc/",
  "https://www.gs1.org/voc/",
  "http://www.gs1.org/voc/",
  "gs1:",
];

const NAMESPACES = [LINK_TYPE_NAMESPACE, ...OTHER_LINK_TYPE_NAMESPACES];

export const DEFAULT_LINK = `${LINK_TYPE_NAMESPACE}defaultLink`;
export const MASTER_DATA_LINK = `${LINK_TYPE_NAMESPACE}masterData`;
export const EPCIS_LINK = `${LINK_TYPE_NAMESPACE}epcis`;

/** The link types spec 2.3 names; their members must be arrays of link objects. */
export const SPEC_LINK_TYPES: readonly string[] = [DEFAULT_LINK, MASTER_DATA_LINK, EPCIS_LINK];

/** The vocabulary term a member name or link type spells, in any of the namespaces, else undefined. */
function termOf(name: string): string | undefined {
  const namespace = NAMESPACES.find((ns) => name.startsWith(ns));
  const term = namespace === undefined ? undefined : name.slice(namespace.length);
  return term === undefined || term === "" || term.includes("/") ? undefined : term;
}

/** The entry member spec 2.3 lists a link type under: "gs1:epcis", "https://gs1.org/voc/epcis" and the like read as https://ref.gs1.org/voc/epcis. */
export function linkTypeMember(linkType: string): string {
  const term = termOf(linkType);
  return term === undefined ? linkType : LINK_TYPE_NAMESPACE + term;
}

/** The members of an entry that name a link type, in whichever spelling the entry uses. */
export function membersFor(entry: LinksetEntry, linkType: string): string[] {
  const wanted = linkTypeMember(linkType);
  return Object.keys(entry).filter((k) => k !== "anchor" && linkTypeMember(k) === wanted);
}

export interface LinkObject {
  href: string;
  title: string;
  [k: string]: unknown;
}

export type LinksetEntry = Record<string, unknown>;

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The entries of a link set body, whatever else is wrong with it. */
export function linksetEntries(body: unknown): LinksetEntry[] {
  if (!isRecord(body) || !Array.isArray(body.linkset)) return [];
  return body.linkset.filter(isRecord);
}

export function sameIdentifier(anchor: unknown, uri: string): boolean {
  if (typeof anchor !== "string" || !isDigitalLink(anchor)) return false;
  return canonicalId(anchor) === canonicalId(uri);
}

/** The entry whose anchor names the identifier (under any base), else undefined. */
export function entryAbout(body: unknown, uri: string): LinksetEntry | undefined {
  return linksetEntries(body).find((e) => sameIdentifier(e.anchor, uri));
}

/**
 * The entry to take links from when going on: the one about `uri`, else the first. For finding where to go next
 * (an endpoint to ask, the links a receiver was offered), never for judging a link set: whether an entry is about
 * the identifier is RES-ANCHOR's to decide (linkset-answers.ts, entryOf).
 */
export function entryToFollow(body: unknown, uri: string): LinksetEntry | undefined {
  return entryAbout(body, uri) ?? linksetEntries(body)[0];
}

/** The link objects an entry lists under a link type, in any of its spellings; a malformed member yields none. */
export function linksOf(entry: LinksetEntry, linkType: string): LinkObject[] {
  return membersFor(entry, linkType).flatMap((member) => {
    const links = entry[member];
    if (!Array.isArray(links)) return [];
    return links.filter((l): l is LinkObject => isRecord(l) && typeof l.href === "string");
  });
}

/** The link types an entry offers, each named once as spec 2.3 writes it, in sorted order. */
export function linkTypesOffered(entry: LinksetEntry): string[] {
  const names = Object.keys(entry)
    .filter((k) => k !== "anchor" && k !== "itemDescription")
    .map(linkTypeMember);
  return [...new Set(names)].sort();
}
