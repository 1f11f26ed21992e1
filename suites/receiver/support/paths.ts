// The Digital Link paths a receiver asked (spec 4.2): whether a resolver path is one of the six forms with numeric
// application identifiers, which RCV-RESOLVER-PATH judges; which identifier it asks about, which the checks that
// follow a resolver request read whatever its spelling; and which master data key any other path names.
import {
  ALPHABETIC_AI_ALIASES,
  CANONICAL_DL_BASE,
  canonicalId,
  type DigitalLinkElement,
  DigitalLinkError,
  parseDigitalLink,
  pathFormOf,
} from "../../../src/model/index.ts";

/** A path without the slashes it ends in: the identifier it names, however its end is spelt. */
function withoutTrailingSlash(path: string): string {
  return path.replace(/\/+$/, "");
}

/**
 * Why a resolver path is not one of the six forms with numeric AIs, or undefined when it is. A slash after the
 * last value is a form of none of them: spec 4.2 has "A path has the form `/{AI}/{value}` or
 * `/{AI}/{value}/{AI2}/{value2}`", and a resolver may treat /01/{gtin}/ as another resource (RFC 3986 6.2.3
 * leaves an empty path segment significant).
 */
export function pathProblem(path: string): string | undefined {
  const trimmed = withoutTrailingSlash(path);
  let elements: DigitalLinkElement[];
  try {
    elements = parseDigitalLink(CANONICAL_DL_BASE + trimmed).elements;
  } catch (error) {
    if (error instanceof DigitalLinkError) return error.message;
    throw error;
  }
  if (pathFormOf(elements) === undefined) {
    return `the path ${path} has the AIs ${elements.map((e) => e.ai).join("/")}, which are not one of the six forms of spec 4.2 (/00, /417, /414, /01, /01/…/10, /01/…/21)`;
  }
  return trimmed === path
    ? undefined
    : `the path ${path} ends in a slash after its last value; spec 4.2 writes a path as /{AI}/{value} or /{AI}/{value}/{AI2}/{value2}, with nothing after the last value`;
}

/**
 * The identifier a resolver path asks about, canonical, or undefined when it names none. An alphabetic AI is read
 * as its numeric one here, and a slash after the last value is dropped: asking the right resolver with the wrong
 * spelling is RCV-RESOLVER-PATH's to judge.
 */
export function identifierOf(path: string): string | undefined {
  const numeric = withoutTrailingSlash(path)
    .split("/")
    .map((segment, i) => (i % 2 === 1 ? (ALPHABETIC_AI_ALIASES[segment.toLowerCase()] ?? segment) : segment))
    .join("/");
  try {
    return canonicalId(CANONICAL_DL_BASE + numeric);
  } catch {
    return undefined;
  }
}

/** The AIs of spec 4.2 whose link set offers master data: a GTIN, a GLN, a PGLN (gs1:masterData). */
const MASTER_DATA_AIS = new Set(["01", "414", "417"]);

/**
 * The master data key a path names, canonical, or undefined when it names none: a segment that is AI 01, 414 or
 * 417 (or its alphabetic alias) followed by a value that identifier reads, anywhere in the path, as a client
 * that builds a master data path writes it (/masterdata/01/{gtin}). A path that names no such key, such as / or
 * /openapi.json, fetches no master data.
 */
export function masterDataKeyOf(pathname: string): string | undefined {
  const segments = pathname.split("/");
  for (const [i, segment] of segments.entries()) {
    const ai = ALPHABETIC_AI_ALIASES[segment.toLowerCase()] ?? segment;
    const value = segments[i + 1];
    if (!MASTER_DATA_AIS.has(ai) || value === undefined || value === "") continue;
    const id = identifierOf(`/${ai}/${value}`);
    if (id !== undefined) return id;
  }
  return undefined;
}
