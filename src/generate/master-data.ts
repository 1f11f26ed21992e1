// Master data documents as GS1 Web Vocabulary JSON-LD (spec 2.2), with the property names of the
// Organization, Place and Product schemas of schemas/interface.openapi.yaml. @id is the canonical Digital Link.

import type { MasterDataDocument } from "../model/index.ts";
import { CANONICAL_DL_BASE, formatDigitalLink } from "../model/index.ts";
import type { Party, PostalAddress, Site, TradeItem } from "./catalogue.ts";

/** Inline context: gs1: and bare terms both name GS1 Web Vocabulary terms, without fetching a remote context. */
export const GS1_VOCABULARY_CONTEXT = { gs1: "https://gs1.org/voc/", "@vocab": "https://gs1.org/voc/" };

function address(a: PostalAddress): Record<string, string> {
  return { "@type": "gs1:PostalAddress", ...a };
}

/** A document of GS1 Web Vocabulary `type` about the Digital Link `id`, under the inline context. */
function vocabularyDocument(type: string, id: string, members: Record<string, unknown>): MasterDataDocument {
  return { "@context": { ...GS1_VOCABULARY_CONTEXT }, "@type": type, "@id": id, ...members };
}

export function organizationDocument(p: Party): MasterDataDocument {
  return vocabularyDocument("gs1:Organization", p.id.dl, {
    organizationName: p.name,
    globalLocationNumber: p.pgln,
    address: address(p.address),
  });
}

export function placeDocument(s: Site): MasterDataDocument {
  return vocabularyDocument("gs1:Place", s.id.dl, {
    name: s.name,
    globalLocationNumber: s.gln,
    address: address(s.address),
    locationClassification: s.classification,
  });
}

export function productDocument(i: TradeItem): MasterDataDocument {
  const id = formatDigitalLink(CANONICAL_DL_BASE, [{ ai: "01", value: i.gtin }]);
  return vocabularyDocument("gs1:Product", id, {
    gtin: i.gtin,
    productName: i.name,
    brandName: i.brand,
    productClassification: i.classification,
  });
}
