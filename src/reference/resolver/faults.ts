import type { Fault } from "../types.ts";

/** Defects of the resolver, each violating MUST requirements of spec 2.3 and 4.2. */
export const RESOLVER_FAULTS: Fault[] = [
  {
    id: "res-no-sscc",
    description: "The resolver answers 404 for every /00/{sscc} path, known or not.",
    violates: ["RES-PATH-SSCC"],
  },
  {
    id: "res-no-pgln",
    description: "The resolver answers 404 for every /417/{pgln} path, known or not.",
    violates: ["RES-PATH-PGLN"],
  },
  {
    id: "res-no-gln",
    description: "The resolver answers 404 for every /414/{gln} path, known or not.",
    violates: ["RES-PATH-GLN"],
  },
  {
    id: "res-no-gtin",
    description: "The resolver answers 404 for every /01/{gtin} path, known or not.",
    violates: ["RES-PATH-GTIN"],
  },
  {
    id: "res-no-gtin-lot",
    description: "The resolver answers 404 for every /01/{gtin}/10/{lot} path, known or not.",
    violates: ["RES-PATH-GTIN-LOT"],
  },
  {
    id: "res-no-gtin-serial",
    description: "The resolver answers 404 for every /01/{gtin}/21/{serial} path, known or not.",
    violates: ["RES-PATH-GTIN-SERIAL"],
  },
  {
    id: "res-alphabetic-accepted",
    description: "Alphabetic AIs (/gtin/…, /sscc/…, /ser/…) are answered like their numeric forms.",
    violates: ["RES-NUMERIC-ONLY"],
  },
  {
    id: "res-anchor-wrong",
    description:
      "Every link set entry's anchor is the resolver's base URL, not the Digital Link URI asked about.",
    violates: ["RES-ANCHOR"],
  },
  {
    id: "res-no-title",
    description: "Link objects in link sets carry href but no title.",
    violates: ["RES-LINKSET-SHAPE"],
  },
  {
    id: "res-itemdescription-number",
    description:
      "itemDescription is the identifier's key written as a JSON number instead of a string or null.",
    violates: ["RES-LINKSET-SHAPE"],
  },
  {
    id: "res-no-linkset-array",
    description: "The linkset member is the entry object itself instead of an array of entries.",
    violates: ["RES-LINKSET-SHAPE"],
  },
  {
    id: "res-missing-epcis-link",
    description: "The link set of /01/{gtin}/10/{lot} lacks the https://ref.gs1.org/voc/epcis link.",
    violates: ["RES-LINKTYPES"],
  },
  {
    id: "res-missing-masterdata-link",
    description: "The link set of /01/{gtin} lacks the https://ref.gs1.org/voc/masterData link.",
    violates: ["RES-LINKTYPES"],
  },
  {
    id: "res-epcis-link-broken",
    description: "epcis links point to {events base}/event, a path the query interface does not serve.",
    violates: ["RES-EPCIS-LINK"],
  },
  {
    id: "res-epcis-link-wrong-id",
    description: "The epcis link of a lot or serial drops the qualifier and queries the bare GTIN.",
    violates: ["RES-EPCIS-LINK"],
  },
  {
    id: "res-product-epcis-empty",
    description:
      "The link set of /01/{gtin} offers an epcis link that asks MATCH_anyEPC for the GTIN itself, which is no EPC, so it answers none of the product's events.",
    violates: ["RES-EPCIS-LINK"],
  },
  {
    id: "res-lot-anchor-gtin",
    description:
      "The link set of /01/{gtin}/10/{lot} anchors its entry at the GTIN, as a relative /01/{gtin}, and puts the lot's epcis link there.",
    violates: ["RES-ANCHOR", "RES-LINKSET-SHAPE"],
  },
  {
    id: "res-last-product-lots",
    description:
      "The epcis links of the lots of one product, the last GTIN with lots in numeric order, select a lot of another product.",
    violates: ["RES-EPCIS-LINK"],
  },
  {
    id: "res-last-product-masterdata",
    description:
      "The masterData link of one product, the last GTIN in numeric order, leads to the gs1:Product document of the first.",
    violates: ["RES-MASTERDATA-LINK"],
  },
  {
    id: "res-masterdata-wrong-type",
    description:
      "A GTIN's masterData link leads to the first gs1:Place (else gs1:Organization) instead of its gs1:Product.",
    violates: ["RES-MASTERDATA-LINK"],
  },
];
