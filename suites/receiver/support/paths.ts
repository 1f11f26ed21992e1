// The resolver paths a receiver asked (spec 4.2): whether each is one of the six forms with numeric application
// identifiers, which RCV-RESOLVER-PATH judges, and which identifier it asks about, which the checks that follow
// a resolver request read whatever its spelling.
import {
  ALPHABETIC_AI_ALIASES,
  CANONICAL_DL_BASE,
  canonicalId,
  type DigitalLinkElement,
  DigitalLinkError,
  parseDigitalLink,
  pathFormOf,
} from "../../../src/model/index.ts";
import type { ReceivedRequest } from "./requests.ts";

/** The path a resolver request asked, after the resolver's base. */
export function resolverPathOf(r: ReceivedRequest): string {
  return r.resolverPath ?? r.url.pathname;
}

/** Why a resolver path is not one of the six forms with numeric AIs, or undefined when it is. */
export function pathProblem(path: string): string | undefined {
  let elements: DigitalLinkElement[];
  try {
    elements = parseDigitalLink(CANONICAL_DL_BASE + path).elements;
  } catch (error) {
    if (error instanceof DigitalLinkError) return error.message;
    throw error;
  }
  return pathFormOf(elements) !== undefined
    ? undefined
    : `the path ${path} has the AIs ${elements.map((e) => e.ai).join("/")}, which are not one of the six forms of spec 4.2 (/00, /417, /414, /01, /01/…/10, /01/…/21)`;
}

/**
 * The identifier a resolver path asks about, canonical, or undefined when it names none. An alphabetic AI is read
 * as its numeric one here: asking the right resolver with the wrong spelling is RCV-RESOLVER-PATH's to judge.
 */
export function identifierOf(path: string): string | undefined {
  const numeric = path
    .split("/")
    .map((segment, i) => (i % 2 === 1 ? (ALPHABETIC_AI_ALIASES[segment.toLowerCase()] ?? segment) : segment))
    .join("/");
  try {
    return canonicalId(CANONICAL_DL_BASE + numeric);
  } catch {
    return undefined;
  }
}
