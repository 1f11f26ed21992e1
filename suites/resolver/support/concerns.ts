// Which events concern an identifier: what the epcis link of its link set must lead to (spec 4.2).
import { identifiersOf } from "../../../src/harness/baseline.ts";
import type { PathForm } from "../../../src/harness/identifiers-from-baseline.ts";
import { canonicalId, type EpcisEvent, type EventQuery } from "../../../src/model/index.ts";

/**
 * An event mentions an identifier when one of its EPCs, classes, parent, business location or read point is that
 * identifier or one qualified under it (a lot or serial under its GTIN, a GLN with an extension), in any form.
 */
export function mentions(event: EpcisEvent, uri: string): boolean {
  const target = canonicalId(uri);
  const { epcs, classes } = identifiersOf(event);
  const places = [event.bizLocation?.id, event.readPoint?.id].filter(
    (p): p is string => typeof p === "string",
  );
  return [...epcs, ...classes, ...places].some((id) => {
    const c = canonicalId(id);
    return c === target || c.startsWith(`${target}/`);
  });
}

/**
 * The query whose answer, over the events the harness knows, every epcis link of that path form must include:
 * the EPC for an SSCC or a serial, the class for a lot, the business location for a GLN. None for a product or a
 * party, whose links may lead to broader sets (a party's leads to the whole repository, spec 1 step 2).
 */
export function certainQuery(form: PathForm, uri: string): EventQuery | undefined {
  switch (form) {
    case "00":
    case "01/21":
      return { MATCH_anyEPC: [uri] };
    case "01/10":
      return { MATCH_anyEPCClass: [uri] };
    case "414":
      return { EQ_bizLocation: [uri] };
    default:
      return undefined;
  }
}
