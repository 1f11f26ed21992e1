// EVT-413-NARROW's narrow query, the one a sender may not refuse with 413 as too broad: one EPC, one lot or one
// transformation, whatever else narrows it further. Every other query may be refused, since the threshold of a
// query too broad to run is the sender's (spec 8: "not a stated number"). The events class and RES-EPCIS-LINK judge
// a 413 by this one rule.
import { canonicalId, isDigitalLink, parseDigitalLink } from "../../model/index.ts";
import type { EventQuery } from "../../model/types.ts";

/** True for the class of one lot of one GTIN (an lgtin, or /01/{gtin}/10/{lot}). */
export function isLotClass(value: string): boolean {
  try {
    const id = canonicalId(value);
    if (!isDigitalLink(id)) return false;
    const [gtin, lot, ...rest] = parseDigitalLink(id).elements;
    return gtin?.ai === "01" && lot?.ai === "10" && rest.length === 0;
  } catch {
    return false;
  }
}

/**
 * One EPC, one lot class or one transformation id: a sender refusing such a query does not support the parameter
 * (spec 4.1: "Every one must be supported").
 */
export function isNarrow(q: EventQuery): boolean {
  const classes = q.MATCH_anyEPCClass;
  return (
    q.MATCH_anyEPC?.length === 1 ||
    q.EQ_transformationID?.length === 1 ||
    (classes?.length === 1 && isLotClass(classes[0]!))
  );
}
