import type { Fault } from "../types.ts";

/**
 * Defects of the master data documents (spec 2.2 and 4.2). md-classification-not-string breaks only the
 * definition's schemas, so with the bundled definition it is caught by warnings; it fails against a definition the
 * user passes (definitionLevel MUST), at MD-PROPERTY-TYPES alone: MD-TYPE-PRODUCT and MD-CLASSIFICATION-LISTED
 * leave a property's type to it. A document of the wrong type fails RES-MASTERDATA-LINK, which MD-TYPE-* leaves
 * the type to.
 */
export const MASTERDATA_FAULTS: Fault[] = [
  {
    id: "md-no-context",
    description:
      "Master data documents are served without @context, so they are not GS1 Web Vocabulary JSON-LD.",
    violates: ["MD-JSONLD"],
  },
  {
    id: "md-wrong-type-organization",
    description: "The master data of a PGLN is typed gs1:Place instead of gs1:Organization.",
    violates: ["RES-MASTERDATA-LINK"],
  },
  {
    id: "md-classification-not-string",
    description: "productClassification is served as a number (its position among the dataset's values).",
    violates: ["MD-PROPERTY-TYPES"],
  },
];
