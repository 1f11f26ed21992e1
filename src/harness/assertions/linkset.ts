// What a resolver's link set must look like (spec 2.3), written once for every check that reads one. Each
// assertion returns undefined when the rule holds, else evidence whose message says what is wrong.
import { canonicalId, isDigitalLink } from "../../model/index.ts";
import type { Evidence } from "../types.ts";

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
function membersFor(entry: LinksetEntry, linkType: string): string[] {
  const wanted = linkTypeMember(linkType);
  return Object.keys(entry).filter((k) => k !== "anchor" && linkTypeMember(k) === wanted);
}

export interface LinkObject {
  href: string;
  title: string;
  [k: string]: unknown;
}

export type LinksetEntry = Record<string, unknown>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isAbsoluteUrl(v: unknown): boolean {
  if (typeof v !== "string") return false;
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}

function linkObjectProblem(link: unknown, where: string): string | undefined {
  if (!isRecord(link)) return `${where} is not a link object`;
  if (typeof link.href !== "string") return `${where} has no string href`;
  if (!isAbsoluteUrl(link.href)) return `${where}.href "${link.href}" is not an absolute URL`;
  if (typeof link.title !== "string") return `${where} has no string title`;
  return undefined;
}

function entryProblems(entry: unknown, i: number): string[] {
  const at = `linkset[${i}]`;
  if (!isRecord(entry)) return [`${at} is not an object`];
  const problems: string[] = [];
  if (typeof entry.anchor !== "string") problems.push(`${at}.anchor is not a string`);
  else if (!isAbsoluteUrl(entry.anchor)) problems.push(`${at}.anchor "${entry.anchor}" is not a URI`);
  if (!("itemDescription" in entry)) problems.push(`${at} has no itemDescription`);
  else if (entry.itemDescription !== null && typeof entry.itemDescription !== "string") {
    problems.push(`${at}.itemDescription is ${JSON.stringify(entry.itemDescription)}, not a string or null`);
  }
  for (const member of SPEC_LINK_TYPES.flatMap((t) => membersFor(entry, t))) {
    const links = entry[member];
    if (!Array.isArray(links)) {
      problems.push(`${at}["${member}"] is not an array of link objects`);
      continue;
    }
    links.forEach((link, k) => {
      const problem = linkObjectProblem(link, `${at}["${member}"][${k}]`);
      if (problem !== undefined) problems.push(problem);
    });
  }
  return problems;
}

/** The body is `{ "linkset": [entry, …] }` with the fields and link objects of spec 2.3. */
export function linksetShapeProblem(body: unknown): Evidence | undefined {
  if (!isRecord(body)) {
    return { message: "the body is not a JSON object", expected: "{ linkset: [ … ] }", actual: body };
  }
  if (!Array.isArray(body.linkset)) {
    return {
      message: "the linkset member is not an array of entries",
      expected: "linkset: an array of entries",
      actual: body.linkset === undefined ? "no linkset member" : body.linkset,
    };
  }
  const problems = body.linkset.flatMap((entry, i) => entryProblems(entry, i));
  if (problems.length === 0) return undefined;
  const shown =
    problems.slice(0, 5).join("; ") + (problems.length > 5 ? `; and ${problems.length - 5} more` : "");
  return { message: shown, actual: problems };
}

/** The entries of a link set body, whatever else is wrong with it. */
export function linksetEntries(body: unknown): LinksetEntry[] {
  if (!isRecord(body) || !Array.isArray(body.linkset)) return [];
  return body.linkset.filter(isRecord);
}

function sameIdentifier(anchor: unknown, uri: string): boolean {
  if (typeof anchor !== "string" || !isDigitalLink(anchor)) return false;
  return canonicalId(anchor) === canonicalId(uri);
}

/** The entry whose anchor names the identifier (under any base), else undefined. */
export function entryAbout(body: unknown, uri: string): LinksetEntry | undefined {
  return linksetEntries(body).find((e) => sameIdentifier(e.anchor, uri));
}

/**
 * An entry's anchor is the Digital Link URI asked about (spec 2.3). The spec names no base for it, so any host
 * is taken: the resolver's own, https://id.gs1.org, or the brand owner's domain.
 */
export function anchorProblem(body: unknown, requested: string): Evidence | undefined {
  const anchors = linksetEntries(body).map((e) => e.anchor);
  if (anchors.some((a) => sameIdentifier(a, requested))) return undefined;
  const message =
    anchors.length === 0
      ? "the link set has no entry, so no anchor names the identifier asked about"
      : "no entry's anchor is a Digital Link URI of the identifier asked about";
  return { message, expected: canonicalId(requested), actual: anchors };
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

/**
 * The entry offers the link types of its row in spec 4.2's table, each with at least one link: all of them, or
 * with `anyOf` one of them at least (the /414 and /417 rows: "reachable with gs1:masterData or gs1:epcis").
 */
export function missingLinkTypesProblem(
  entry: LinksetEntry,
  linkTypes: readonly string[],
  opts: { anyOf?: boolean } = {},
): Evidence | undefined {
  const missing = linkTypes.filter((t) => linksOf(entry, t).length === 0);
  if (missing.length === 0 || (opts.anyOf === true && missing.length < linkTypes.length)) return undefined;
  const names = missing.map(linkTypeMember);
  return {
    message:
      opts.anyOf === true && names.length > 1
        ? `the entry offers neither a ${names.join(" nor a ")} link`
        : `the entry offers no ${names.join(" and no ")} link`,
    expected: opts.anyOf === true ? { anyOf: linkTypes.map(linkTypeMember) } : linkTypes.map(linkTypeMember),
    actual: Object.keys(entry).filter((k) => k !== "anchor" && k !== "itemDescription"),
  };
}

/**
 * The link types of spec 2.3 are written as spec 2.3 writes them, under https://ref.gs1.org/voc/. Another
 * spelling of the GS1 Web Vocabulary names the same link type (linksOf reads it), so this is a warning at most.
 */
export function linkTypeSpellingProblem(body: unknown): Evidence | undefined {
  const spelled = linksetEntries(body).flatMap((entry) =>
    Object.keys(entry).filter(
      (k) => SPEC_LINK_TYPES.includes(linkTypeMember(k)) && !SPEC_LINK_TYPES.includes(k),
    ),
  );
  const distinct = [...new Set(spelled)];
  if (distinct.length === 0) return undefined;
  return {
    message: `link types are written ${distinct.join(", ")} instead of as spec 2.3 writes them (${distinct.map(linkTypeMember).join(", ")}); they were read as the same link types`,
    expected: distinct.map(linkTypeMember),
    actual: distinct,
  };
}

/** Every entry carries a non-empty defaultLink array (spec 2.3). */
export function defaultLinkProblem(body: unknown): Evidence | undefined {
  const without = linksetEntries(body)
    .filter((e) => linksOf(e, DEFAULT_LINK).length === 0)
    .map((e) => e.anchor);
  if (without.length === 0) return undefined;
  return {
    message: `${without.length} entr${without.length === 1 ? "y has" : "ies have"} no ${DEFAULT_LINK} link`,
    expected: `a non-empty ${DEFAULT_LINK} array in every entry`,
    actual: without,
  };
}
