// What a resolver's link set must look like (spec 2.3), written once for every check that reads one. Each
// assertion returns undefined when the rule holds, else evidence whose message says what is wrong.

import type { Evidence } from "../engine/types.ts";
import { canonicalId } from "../model/index.ts";
import {
  DEFAULT_LINK,
  isRecord,
  type LinksetEntry,
  linksetEntries,
  linksOf,
  linkTypeMember,
  membersFor,
  SPEC_LINK_TYPES,
  sameIdentifier,
} from "../target/linkset.ts";

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
