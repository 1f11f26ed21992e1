// The document served for an identifier: the one the dataset holds, made GS1 Web Vocabulary JSON-LD when it
// arrived without a context (spec 2.2).
import type { MasterDataDocument } from "../../model/index.ts";
import { GS1_VOC_CONTEXT } from "./context.ts";

export function servedDocument(
  doc: MasterDataDocument,
  faults: ReadonlySet<string>,
  classificationCodes: ReadonlyMap<string, number>,
): MasterDataDocument {
  const served: MasterDataDocument = { ...doc };
  if (!hasContext(served["@context"])) served["@context"] = GS1_VOC_CONTEXT;
  if (faults.has("md-no-context")) delete (served as Partial<MasterDataDocument>)["@context"];
  if (faults.has("md-wrong-type-organization") && served["@type"] === "gs1:Organization") {
    served["@type"] = "gs1:Place";
  }
  const classification = served.productClassification;
  if (faults.has("md-classification-not-string") && typeof classification === "string") {
    served.productClassification = classificationCodes.get(classification) ?? 0;
  }
  return served;
}

function hasContext(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return typeof value === "string" && value !== "";
}

/** A number per distinct productClassification of the documents, counting from 1 in sorted order. */
export function classificationCodes(docs: Iterable<MasterDataDocument>): Map<string, number> {
  const values = new Set<string>();
  for (const doc of docs) {
    if (typeof doc.productClassification === "string") values.add(doc.productClassification);
  }
  return new Map([...values].sort().map((value, i) => [value, i + 1]));
}
