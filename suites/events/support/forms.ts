// An identifier in its other spelling: a GS1 EPC URN as its Digital Link and back (EVT-EPC-FORMS, EVT-BIZLOCATION),
// and the class patterns that cover a class (EVT-CLASS-PATTERN). Going from a Digital Link to a URN needs the
// length of the company prefix, which only a URN shows; it is taken from the URNs the target's events carry.
import {
  CANONICAL_DL_BASE,
  digitalLinkToEpcUrn,
  epcUrnToDigitalLink,
  formatDigitalLink,
  gtinOf,
  isDigitalLink,
  parseDigitalLink,
} from "../../../src/model/index.ts";

/** The digits after which a key's company prefix starts: GTIN and SSCC lead with an indicator or extension digit. */
const PREFIX_OFFSET: Record<string, number> = { "01": 1, "00": 1, "414": 0, "417": 0 };

function companyPrefixOf(
  key: { ai: string; value: string },
  prefixes: readonly string[],
): string | undefined {
  const offset = PREFIX_OFFSET[key.ai];
  if (offset === undefined) return undefined;
  const digits = key.value.slice(offset);
  let best: string | undefined;
  for (const p of prefixes) {
    if (digits.startsWith(p) && (best === undefined || p.length > best.length)) best = p;
  }
  return best;
}

/** The identifier in the other of its two spellings, or undefined when there is none the harness can be sure of. */
export function otherForm(value: string, prefixes: readonly string[]): string | undefined {
  const dl = epcUrnToDigitalLink(value);
  if (dl !== undefined) return dl;
  if (!isDigitalLink(value)) return undefined;
  const key = parseDigitalLink(value).elements[0];
  if (key === undefined) return undefined;
  const prefix = companyPrefixOf(key, prefixes);
  return prefix === undefined ? undefined : digitalLinkToEpcUrn(value, prefix.length);
}

/** The sgtin patterns that cover a class: its GTIN (CP.IR.*) and its company prefix (CP.*.*). */
export function classPatterns(epcClass: string, prefixes: readonly string[]): string[] {
  const gtin = gtinOf(epcClass);
  if (gtin === undefined) return [];
  const prefix = companyPrefixOf({ ai: "01", value: gtin }, prefixes);
  if (prefix === undefined) return [];
  const ofGtin = digitalLinkToEpcUrn(
    formatDigitalLink(CANONICAL_DL_BASE, [{ ai: "01", value: gtin }]),
    prefix.length,
  );
  return ofGtin === undefined ? [] : [ofGtin, `urn:epc:idpat:sgtin:${prefix}.*.*`];
}
