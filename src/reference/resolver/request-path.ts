// Reads a request path as a Digital Link under the resolver's own base. Identifiers issued under
// https://id.gs1.org arrive here already rebased by the client (spec 4.2), so the path alone identifies them.
import type { DigitalLinkElement, PathForm } from "../../model/index.ts";
import {
  ALPHABETIC_AI_ALIASES,
  CANONICAL_DL_BASE,
  DigitalLinkError,
  parseDigitalLink,
  pathFormOf,
} from "../../model/index.ts";
import { canonicalUri } from "./catalogue.ts";

export type PathReading =
  | { ok: true; elements: DigitalLinkElement[]; form: PathForm; uri: string }
  | { ok: false; status: 400 | 404; detail: string };

const ADVICE: Record<DigitalLinkError["code"], string> = {
  syntax: "send a path of the form /{AI}/{value} or /{AI}/{value}/{AI2}/{value2}",
  "alphabetic-ai": "use the numeric application identifier instead (for example 01, not gtin), spec 4.2",
  "unknown-ai": "use one of the application identifiers 00, 01, 10, 21, 414 or 417",
  "ai-order": "put the primary key first: /01/{gtin}/10/{lot} or /01/{gtin}/21/{serial}",
  length: "send the identifier with its full length (SSCC 18 digits, GTIN 14, GLN and PGLN 13)",
  "check-digit": "correct the identifier's check digit",
  charset: "percent-encode the value and use only characters GS1 allows in it",
};

/**
 * The identifier a path asks about. With `alphabetic` set, alphabetic AIs are read as their numeric forms
 * (used only by the fault that accepts them).
 */
export function readResolverPath(path: string, opts: { alphabetic?: boolean } = {}): PathReading {
  const segments = path.split("/");
  if (opts.alphabetic === true) {
    for (let i = 1; i < segments.length; i += 2) {
      const numeric = ALPHABETIC_AI_ALIASES[(segments[i] ?? "").toLowerCase()];
      if (numeric !== undefined) segments[i] = numeric;
    }
  }
  let elements: DigitalLinkElement[];
  try {
    const dl = parseDigitalLink(CANONICAL_DL_BASE + segments.join("/"));
    if (dl.base !== CANONICAL_DL_BASE) {
      return refuse(400, `The path ${path} does not start with an application identifier; ${ADVICE.syntax}.`);
    }
    elements = dl.elements;
  } catch (err) {
    if (err instanceof DigitalLinkError) {
      return refuse(
        400,
        `The path ${path} is not a valid Digital Link (${err.message}); ${ADVICE[err.code]}.`,
      );
    }
    return refuse(400, `The path ${path} is not a valid Digital Link; ${ADVICE.syntax}.`);
  }
  const form = pathFormOf(elements);
  if (form === undefined) {
    return refuse(
      404,
      `The path ${path} is a Digital Link this resolver does not serve; ask for one of the six path forms of spec 4.2.`,
    );
  }
  return { ok: true, elements, form, uri: canonicalUri(elements) };
}

function refuse(status: 400 | 404, detail: string): PathReading {
  return { ok: false, status, detail };
}
