// One sender's GS1 keys (company prefix 9506000) and the master data it loads, as the resolver and master data
// tests give them to the reference: a product, the plant that is its place, and the sender itself.
import { CANONICAL_DL_BASE, gs1CheckDigit } from "../../src/model/index.ts";

/** The digits given followed by their GS1 check digit. */
export const withCheck = (body: string): string => body + gs1CheckDigit(body);

export const GTIN = withCheck("0950600013435");
export const GLN = withCheck("950600000001");
/** A place the events name that has no master data loaded. */
export const GLN_EVENTS_ONLY = withCheck("950600000002");
export const PGLN = withCheck("950600099999");
export const SSCC = withCheck("09506000000000042");

export const CONTEXT = { "@vocab": "https://gs1.org/voc/", gs1: "https://gs1.org/voc/" };

/** A master data document of `type` about the Digital Link path `dlPath`, under CONTEXT, with its own members. */
export function loadedDocument<M extends Record<string, unknown>>(type: string, dlPath: string, members: M) {
  return { "@context": CONTEXT, "@type": type, "@id": `${CANONICAL_DL_BASE}${dlPath}`, ...members };
}

export const PRODUCT = loadedDocument("gs1:Product", `/01/${GTIN}`, {
  gtin: GTIN,
  productName: "Frozen cod fillets",
  productClassification: "FROZEN_FISH",
});
export const PLACE = loadedDocument("gs1:Place", `/414/${GLN}`, {
  globalLocationNumber: GLN,
  name: "Harbour plant",
  locationClassification: "PROCESSING_PLANT",
});
export const ORGANIZATION = loadedDocument("gs1:Organization", `/417/${PGLN}`, {
  globalLocationNumber: PGLN,
  organizationName: "Sender Fisheries",
});
