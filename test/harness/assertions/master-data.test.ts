import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { type Definition, loadDefinition, type MasterDataTypeInfo } from "../../../src/definition/index.ts";
import {
  classificationFindings,
  contextMapsToGs1,
  createPropertyChecker,
  identifierProblem,
  jsonLdProblem,
  masterDataTypeProblem,
  masterDataTypesOf,
} from "../../../src/harness/assertions/master-data.ts";
import { CANONICAL_DL_BASE, gs1CheckDigit } from "../../../src/model/index.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const GTIN = "0950600001343" + gs1CheckDigit("0950600001343");
const OTHER_GTIN = "0950600001344" + gs1CheckDigit("0950600001344");
const CONTEXT = { "@vocab": "https://gs1.org/voc/", gs1: "https://gs1.org/voc/" };

function product(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "@context": CONTEXT,
    "@type": "gs1:Product",
    "@id": `${CANONICAL_DL_BASE}/01/${GTIN}`,
    gtin: GTIN,
    productName: "Frozen cod fillets",
    ...fields,
  };
}

let definition: Definition;
let productType: MasterDataTypeInfo;

beforeAll(async () => {
  definition = await loadDefinition(path.join(ROOT, "schemas", "interface.openapi.yaml"));
  productType = definition.masterDataTypes.find((t) => t.type === "gs1:Product")!;
});

describe("contextMapsToGs1", () => {
  it("accepts the vocabulary's namespaces as a string, in a list, or as a term's IRI", () => {
    expect(contextMapsToGs1("https://ref.gs1.org/voc/data/gs1Voc.jsonld")).toBe(true);
    expect(contextMapsToGs1(["https://www.w3.org/ns/other", { gs1: "http://gs1.org/voc/" }])).toBe(true);
    expect(contextMapsToGs1({ gs1: { "@id": "https://gs1.org/voc/" } })).toBe(true);
  });

  it("no false positive on the www. host of the vocabulary, as GS1's and GDST's own documents write it", () => {
    expect(contextMapsToGs1({ gs1: "https://www.gs1.org/voc/" })).toBe(true);
    expect(contextMapsToGs1(["https://www.w3.org/ns/other", { gs1: "http://www.gs1.org/voc/" }])).toBe(true);
    expect(
      jsonLdProblem({ "@context": { gs1: "https://www.gs1.org/voc/" }, "@type": "gs1:Place" }),
    ).toBeUndefined();
    expect(
      masterDataTypesOf({
        "@context": { gs1: "https://www.gs1.org/voc/" },
        "@type": "https://www.gs1.org/voc/Organization",
      }),
    ).toEqual(["gs1:Organization"]);
  });

  it("refuses a context that names another vocabulary", () => {
    expect(contextMapsToGs1({ "@vocab": "https://schema.org/" })).toBe(false);
    expect(contextMapsToGs1("https://gs1.org/other/")).toBe(false);
    expect(contextMapsToGs1(42)).toBe(false);
  });
});

describe("masterDataTypesOf", () => {
  it("reads gs1: names, full IRIs, lists and bare names under a GS1 @vocab", () => {
    expect(masterDataTypesOf(product())).toEqual(["gs1:Product"]);
    expect(masterDataTypesOf(product({ "@type": "https://gs1.org/voc/Place" }))).toEqual(["gs1:Place"]);
    expect(masterDataTypesOf({ "@context": CONTEXT, type: ["Thing", "Organization"] })).toEqual([
      "gs1:Organization",
    ]);
  });

  it("reads no type from a bare name without a GS1 @vocab, or an unknown type", () => {
    expect(masterDataTypesOf({ "@context": "https://ref.gs1.org/voc/x", "@type": "Product" })).toEqual([]);
    expect(masterDataTypesOf(product({ "@type": "gs1:Vessel" }))).toEqual([]);
    expect(masterDataTypesOf("text")).toEqual([]);
  });
});

describe("jsonLdProblem", () => {
  it("accepts a GS1 Web Vocabulary document", () => {
    expect(jsonLdProblem(product())).toBeUndefined();
  });

  it("names what is missing or wrong", () => {
    const { "@context": _, ...noContext } = product();
    expect(jsonLdProblem(noContext)?.message).toMatch(/no @context/);
    expect(jsonLdProblem(product({ "@context": { "@vocab": "https://schema.org/" } }))?.message).toMatch(
      /maps no term to the GS1 Web Vocabulary/,
    );
    const { "@type": __, ...noType } = product();
    expect(jsonLdProblem(noType)?.message).toMatch(/no @type/);
    expect(jsonLdProblem(product({ "@type": "gs1:Vessel" }))?.actual).toBe("gs1:Vessel");
    expect(jsonLdProblem([product()])?.message).toMatch(/not a JSON object/);
  });
});

describe("masterDataTypeProblem and identifierProblem", () => {
  it("holds a document to the type its identifier calls for", () => {
    expect(masterDataTypeProblem(product(), "gs1:Product")).toBeUndefined();
    expect(masterDataTypeProblem(product(), "gs1:Place")).toMatchObject({
      expected: "gs1:Place",
      actual: "gs1:Product",
    });
  });

  it("holds a document's Digital Link @id to the identifier asked about, in any form", () => {
    const asked = `${CANONICAL_DL_BASE}/01/${GTIN}`;
    expect(identifierProblem(product(), asked)).toBeUndefined();
    const underPrefix = `http://127.0.0.1:1/masterdata/01/${GTIN}`;
    expect(identifierProblem(product({ "@id": underPrefix }), asked)).toBeUndefined();
    expect(
      identifierProblem(product({ "@id": "urn:epc:idpat:sgtin:9506000.001343.*" }), asked),
    ).toBeUndefined();
    expect(
      identifierProblem(product({ "@id": `${CANONICAL_DL_BASE}/01/${OTHER_GTIN}` }), asked)?.actual,
    ).toBe(`${CANONICAL_DL_BASE}/01/${OTHER_GTIN}`);
    expect(identifierProblem(product({ "@id": "https://example.com/products/1" }), asked)).toBeUndefined();
  });
});

describe("classificationFindings", () => {
  it("tells listed, unlisted and non-string values apart", () => {
    expect(classificationFindings(product({ productClassification: "FROZEN_FISH" }), productType)).toEqual([
      { property: "productClassification", value: "FROZEN_FISH", status: "listed" },
    ]);
    expect(
      classificationFindings(product({ productClassification: "frozen_fish" }), productType)[0]?.status,
    ).toBe("unlisted");
    expect(classificationFindings(product({ productClassification: 3 }), productType)[0]?.status).toBe(
      "not-a-string",
    );
    expect(classificationFindings(product(), productType)).toEqual([]);
  });
});

describe("createPropertyChecker", () => {
  it("passes properties of their declared types, nested ones included", () => {
    const check = createPropertyChecker(definition);
    const doc = product({ productClassification: "SHELLFISH", brandName: "North" });
    expect(check("gs1:Product", doc)).toEqual([]);
    const place = {
      "@context": CONTEXT,
      "@type": "gs1:Place",
      "@id": "x",
      address: { addressCountry: "NO", postalCode: "9000" },
    };
    expect(check("gs1:Place", place)).toEqual([]);
  });

  it("names each property whose value has another type, and leaves JSON-LD keywords alone", () => {
    const check = createPropertyChecker(definition);
    const problems = check("gs1:Product", product({ productClassification: 7, gtin: "12", "@type": 5 }));
    expect(problems.map((p) => p.property).sort()).toEqual(["gtin", "productClassification"]);
    expect(problems.find((p) => p.property === "productClassification")?.errors.join()).toMatch(
      /must be string/,
    );
    const place = { address: { addressCountry: "Norway" } };
    expect(check("gs1:Place", place)[0]?.errors.join()).toMatch(/addressCountry/);
  });
});
