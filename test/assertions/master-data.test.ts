// The master data assertion reads documents through a JSON-LD processor: several spellings of one graph read the
// same and pass, a wrong type fails, a context that cannot be loaded is an error (no network: contexts come from
// temporary mirrors or the sibling mirror of the shared artefacts).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ContextUnavailableError,
  classificationFindings,
  createPropertyChecker,
  declaresType,
  identifierProblem,
  isUnderProperty,
  jsonLdProblem,
  type MasterDataReadOptions,
  masterDataTypeProblem,
  masterDataTypesOf,
  readMasterData,
  schemaShape,
} from "../../src/assertions/master-data.ts";
import {
  createValidators,
  type Definition,
  loadDefinition,
  type MasterDataTypeInfo,
  type Validators,
} from "../../src/definition/index.ts";
import { CANONICAL_DL_BASE, EPCIS_CONTEXT_URL, gs1CheckDigit } from "../../src/model/index.ts";
import { createContextLoader } from "../../src/target/jsonld/index.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const GTIN = "0950600001343" + gs1CheckDigit("0950600001343");
const OTHER_GTIN = "0950600001344" + gs1CheckDigit("0950600001344");
const PGLN = "950600099999" + gs1CheckDigit("950600099999");
const PARTY = `${CANONICAL_DL_BASE}/417/${PGLN}`;
const CONTEXT = { "@vocab": "https://gs1.org/voc/", gs1: "https://gs1.org/voc/" };
const REMOTE_CONTEXT = "https://contexts.example/master-data.jsonld";

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

/** One organization, spelled as the reference spells it. */
const COMPACT = {
  "@context": CONTEXT,
  "@type": "gs1:Organization",
  "@id": PARTY,
  organizationName: "Sender Fisheries",
  globalLocationNumber: PGLN,
  address: { "@type": "gs1:PostalAddress", addressCountry: "NO", postalCode: "9000" },
};

/** The same graph spelled other legal ways. */
const SPELLINGS: [string, unknown][] = [
  ["compact terms under a GS1 @vocab", COMPACT],
  [
    "full IRIs under https://ref.gs1.org/voc/ and no @context at all",
    {
      "@id": PARTY,
      "@type": "https://ref.gs1.org/voc/Organization",
      "https://ref.gs1.org/voc/organizationName": "Sender Fisheries",
      "https://ref.gs1.org/voc/globalLocationNumber": PGLN,
      "https://ref.gs1.org/voc/address": {
        "@type": "https://ref.gs1.org/voc/PostalAddress",
        "https://ref.gs1.org/voc/addressCountry": "NO",
        "https://ref.gs1.org/voc/postalCode": "9000",
      },
    },
  ],
  [
    "an @graph, a language-tagged name and the address a node of its own",
    {
      "@context": { gs1: "https://gs1.org/voc/" },
      "@graph": [
        {
          "@id": PARTY,
          "@type": ["gs1:Organization"],
          "gs1:organizationName": [{ "@value": "Sender Fisheries", "@language": "en" }],
          "gs1:globalLocationNumber": { "@value": PGLN, "@type": "http://www.w3.org/2001/XMLSchema#string" },
          "gs1:address": { "@id": "_:a" },
        },
        { "@id": "_:a", "@type": "gs1:PostalAddress", "gs1:addressCountry": "NO", "gs1:postalCode": "9000" },
      ],
    },
  ],
  [
    "the www. namespace over http and the type as an rdf:type statement",
    {
      "@context": {
        "@vocab": "http://www.gs1.org/voc/",
        rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
      },
      "@id": PARTY,
      "rdf:type": { "@id": "http://www.gs1.org/voc/Organization" },
      organizationName: { "@value": "Sender Fisheries", "@language": "no" },
      globalLocationNumber: PGLN,
      address: { "@type": "PostalAddress", addressCountry: "NO", postalCode: "9000" },
    },
  ],
  [
    "aliases of a remote context (type, id) with its prefix",
    {
      "@context": REMOTE_CONTEXT,
      type: "gs1:Organization",
      id: PARTY,
      "gs1:organizationName": "Sender Fisheries",
      "gs1:globalLocationNumber": PGLN,
      "gs1:address": { type: "gs1:PostalAddress", "gs1:addressCountry": "NO", "gs1:postalCode": "9000" },
    },
  ],
];

let definition: Definition;
let productType: MasterDataTypeInfo;
let validators: Validators;
let emptyCache: string;
let read: MasterDataReadOptions;

beforeAll(async () => {
  definition = await loadDefinition(path.join(ROOT, "schemas", "interface.openapi.yaml"));
  productType = definition.masterDataTypes.find((t) => t.type === "gs1:Product")!;
  validators = await createValidators({ definition, network: false });
  emptyCache = await mkdtemp(path.join(tmpdir(), "tracecheck-md-cache-"));
  // The remote context is "fetched" from memory: no test reaches the network.
  const loader = createContextLoader({
    cacheDir: emptyCache,
    fetchContext: async (url) => {
      if (url !== REMOTE_CONTEXT) throw new Error("it answered 404");
      return { url, document: { "@context": { type: "@type", id: "@id", gs1: "https://gs1.org/voc/" } } };
    },
  });
  read = { loader, base: `http://127.0.0.1:1/masterdata/417/${PGLN}` };
});

afterAll(async () => {
  await rm(emptyCache, { recursive: true, force: true });
});

describe("several spellings of one graph read the same", () => {
  for (const [how, doc] of SPELLINGS) {
    it(`passes ${how}`, async () => {
      expect(await jsonLdProblem(doc, read)).toBeUndefined();
      expect(await masterDataTypeProblem(doc, "gs1:Organization", read)).toBeUndefined();
      expect(await masterDataTypesOf(doc, read)).toEqual(["gs1:Organization"]);
      expect(await identifierProblem(doc, PARTY, read)).toBeUndefined();
    });
  }

  it("brings every spelling to one shape, which the definition's schema accepts", async () => {
    const shapes = [];
    for (const [how, doc] of SPELLINGS) {
      const reading = await readMasterData(doc, read);
      if (reading.kind !== "read") throw new Error(`${how} was not read: ${reading.kind}`);
      const shape = await schemaShape(reading, "gs1:Organization");
      expect(validators.validateMasterData("gs1:Organization", shape), how).toEqual({
        valid: true,
        errors: [],
      });
      shapes.push(shape);
    }
    expect(shapes[0]).toMatchObject({
      "@type": "Organization",
      "@id": PARTY,
      organizationName: "Sender Fisheries",
      address: { "@type": "PostalAddress", addressCountry: "NO" },
    });
    for (const shape of shapes.slice(1)) expect(shape).toEqual(shapes[0]);
  });

  it("reads a document under the EPCIS context from the sibling mirror, offline", async () => {
    const doc = {
      "@context": EPCIS_CONTEXT_URL,
      type: "gs1:Organization",
      id: PARTY,
      "gs1:organizationName": "Sender Fisheries",
    };
    const offline = { loader: createContextLoader({ cacheDir: emptyCache }) };
    expect(await masterDataTypeProblem(doc, "gs1:Organization", offline)).toBeUndefined();
  });

  it("reads the GDST's published master data, written with www.-less http IRIs and language-tagged names", async () => {
    const gdst = path.resolve(ROOT, "../shared/gdst/opentraceability/masterdata");
    const cases = [
      ["gs1-vocab-locations01.json", "gs1:Place"],
      ["gs1-vocab-tradingparties01.json", "gs1:Organization"],
    ] as const;
    for (const [file, type] of cases) {
      const doc: unknown = JSON.parse(await readFile(path.join(gdst, file), "utf8"));
      expect(await masterDataTypeProblem(doc, type, read), file).toBeUndefined();
    }
  });

  it("needs no @id: the spec does not ask for one", async () => {
    const { "@id": _, ...anonymous } = COMPACT;
    expect(await jsonLdProblem(anonymous, read)).toBeUndefined();
    expect(await identifierProblem(anonymous, PARTY, read)).toBeUndefined();
  });

  it("picks the node of the type asked for out of an @graph that holds several", async () => {
    const doc = {
      "@context": CONTEXT,
      "@graph": [
        { "@type": "Place", "@id": `${CANONICAL_DL_BASE}/414/${PGLN}`, name: "Quay" },
        { "@type": "Organization", "@id": PARTY, organizationName: "Sender Fisheries" },
      ],
    };
    expect(await masterDataTypeProblem(doc, "gs1:Organization", read)).toBeUndefined();
    expect(await identifierProblem(doc, PARTY, { ...read, expected: "gs1:Organization" })).toBeUndefined();
    const reading = await readMasterData(doc, read);
    if (reading.kind !== "read") throw new Error(reading.kind);
    expect(await schemaShape(reading, "gs1:Organization")).toMatchObject({
      organizationName: "Sender Fisheries",
    });
  });
});

describe("subclasses of gs1:Product", () => {
  it("writes the type of the shape as it was read, so that the definition's Product schema accepts it", async () => {
    for (const subclass of [
      "gs1:Seafood",
      "gs1:FoodBeverageTobaccoProduct",
      ["gs1:Seafood", "gs1:Product"],
    ]) {
      const reading = await readMasterData(product({ "@type": subclass }), read);
      if (reading.kind !== "read") throw new Error(reading.kind);
      const shape = await schemaShape(reading, "gs1:Product");
      expect(shape?.["@type"], JSON.stringify(subclass)).toBe("Product");
      expect(validators.validateMasterData("gs1:Product", shape)).toEqual({ valid: true, errors: [] });
    }
    // A type that is no master data type stays as stated beside the one read.
    const other = { ...product({ "@type": ["gs1:Seafood", "https://schema.org/Thing"] }) };
    const reading = await readMasterData(other, read);
    if (reading.kind !== "read") throw new Error(reading.kind);
    expect((await schemaShape(reading, "gs1:Product"))?.["@type"]).toEqual([
      "Product",
      "https://schema.org/Thing",
    ]);
  });

  it("reads a document typed with a GS1 Web Vocabulary subclass of gs1:Product as a gs1:Product", async () => {
    for (const subclass of ["gs1:FoodBeverageTobaccoProduct", "gs1:Seafood", "gs1:Clothing"]) {
      const doc = product({ "@type": subclass });
      expect(await masterDataTypeProblem(doc, "gs1:Product", read), subclass).toBeUndefined();
      expect(await masterDataTypeProblem(doc, "gs1:Place", read), subclass).toMatchObject({
        actual: ["gs1:Product"],
      });
    }
    // A class the vocabulary does not place under gs1:Product is no product.
    expect(await masterDataTypeProblem(product({ "@type": "gs1:Offer" }), "gs1:Product", read)).toBeDefined();
  });
});

describe("documents that are not master data of the type asked for", () => {
  it("fails a wrong type, naming the one found", async () => {
    expect(await masterDataTypeProblem(product(), "gs1:Place", read)).toMatchObject({
      message: "the document is not a gs1:Place",
      expected: "gs1:Place",
      actual: ["gs1:Product"],
    });
    expect(
      await masterDataTypeProblem({ ...COMPACT, "@type": "gs1:Place" }, "gs1:Organization", read),
    ).toMatchObject({ actual: ["gs1:Place"] });
  });

  it("fails a gs1: prefix that no context defines, and says so", async () => {
    const { "@context": _, ...noContext } = COMPACT;
    const problem = await jsonLdProblem(noContext, read);
    expect(problem?.message).toMatch(/not one of gs1:Organization, gs1:Place, gs1:Product/);
    expect(problem?.message).toMatch(/prefix such as gs1: that no @context defines/);
  });

  it("fails a type of another vocabulary, a type under a key that is no type, and a type-less document", async () => {
    const schemaOrg = { "@context": { "@vocab": "https://schema.org/" }, "@type": "Organization", name: "X" };
    expect((await jsonLdProblem(schemaOrg, read))?.actual).toEqual(["https://schema.org/Organization"]);
    // Without an alias, "type" is a property of the vocabulary, not rdf:type.
    const typeProperty = { "@context": CONTEXT, type: "Organization", organizationName: "X" };
    expect((await jsonLdProblem(typeProperty, read))?.message).toMatch(/states no @type/);
    expect(await masterDataTypesOf(typeProperty, read)).toEqual([]);
  });

  it("fails what a JSON-LD processor refuses, and a body that is no JSON object", async () => {
    const invalid = { "@context": { "@vocab": 5 }, "@type": "Organization" };
    expect((await jsonLdProblem(invalid, read))?.message).toMatch(/^the document is not JSON-LD: .*@vocab/);
    expect((await masterDataTypeProblem("text", "gs1:Product", read))?.message).toMatch(/not JSON-LD/);
  });

  it("takes a party's GLN written under AI 414 for the party asked about at /417/", async () => {
    const doc = { ...COMPACT, "@id": `${CANONICAL_DL_BASE}/414/${PGLN}` };
    expect(await identifierProblem(doc, PARTY, read)).toBeUndefined();
    const other = "950600099998" + gs1CheckDigit("950600099998");
    const elsewhere = { ...COMPACT, "@id": `${CANONICAL_DL_BASE}/414/${other}` };
    expect(await identifierProblem(elsewhere, PARTY, read)).toBeDefined();
  });

  it("holds a document's Digital Link @id to the identifier asked about, in any form", async () => {
    const asked = `${CANONICAL_DL_BASE}/01/${GTIN}`;
    expect(await identifierProblem(product(), asked, read)).toBeUndefined();
    const underPrefix = `http://127.0.0.1:1/masterdata/01/${GTIN}`;
    expect(await identifierProblem(product({ "@id": underPrefix }), asked, read)).toBeUndefined();
    const pattern = product({ "@id": "urn:epc:idpat:sgtin:9506000.001343.*" });
    expect(await identifierProblem(pattern, asked, read)).toBeUndefined();
    const other = `${CANONICAL_DL_BASE}/01/${OTHER_GTIN}`;
    expect((await identifierProblem(product({ "@id": other }), asked, read))?.actual).toBe(other);
    const page = product({ "@id": "https://example.com/products/1" });
    expect(await identifierProblem(page, asked, read)).toBeUndefined();
  });
});

describe("a context that cannot be loaded", () => {
  const doc = { "@context": "https://contexts.example/missing.jsonld", "@type": "Organization" };

  it("is read as unloadable, with the URL and how to provide it", async () => {
    const reading = await readMasterData(doc, read);
    expect(reading).toMatchObject({ kind: "unloadable", url: "https://contexts.example/missing.jsonld" });
    if (reading.kind === "unloadable") expect(reading.message).toMatch(/answered 404.*--schema-mirror/);
  });

  it("makes the assertions throw, so that a check reports an error and never a failure", async () => {
    await expect(jsonLdProblem(doc, read)).rejects.toBeInstanceOf(ContextUnavailableError);
    await expect(masterDataTypeProblem(doc, "gs1:Organization", read)).rejects.toBeInstanceOf(
      ContextUnavailableError,
    );
    await expect(identifierProblem(doc, PARTY, read)).rejects.toBeInstanceOf(ContextUnavailableError);
  });

  it("is not fetched without a loader that may fetch: the default reads mirrors only", async () => {
    const reading = await readMasterData({ ...doc }, {});
    expect(reading.kind).toBe("unloadable");
  });
});

describe("classificationFindings", () => {
  it("tells listed, unlisted and non-code values apart", () => {
    expect(classificationFindings(product({ productClassification: "FROZEN_FISH" }), productType)).toEqual([
      { property: "productClassification", value: "FROZEN_FISH", status: "listed", typeDeclared: true },
    ]);
    expect(
      classificationFindings(product({ productClassification: "frozen_fish" }), productType)[0]?.status,
    ).toBe("unlisted");
    expect(classificationFindings(product({ productClassification: 3 }), productType)[0]?.status).toBe(
      "not-a-code",
    );
    expect(classificationFindings(product({ productClassification: "" }), productType)[0]?.status).toBe(
      "not-a-code",
    );
    expect(classificationFindings(product(), productType)).toEqual([]);
  });

  it("looks up each value of an array, and says whether the definition declares the property's type", () => {
    const found = classificationFindings(
      product({ productClassification: ["FISH_FILLET", "ECHINODERM", 4] }),
      {
        ...productType,
        properties: productType.properties.map((p) =>
          p.name === "productClassification" ? { ...p, schema: { "x-std-values": p.stdValues } } : p,
        ),
      },
    );
    expect(found).toEqual([
      { property: "productClassification", value: "FISH_FILLET", status: "listed", typeDeclared: false },
      { property: "productClassification", value: "ECHINODERM", status: "unlisted", typeDeclared: false },
      { property: "productClassification", value: 4, status: "not-a-code", typeDeclared: false },
    ]);
  });

  it("takes a type, a $ref, an enum or a composition as a declared type, and the vendor extensions as none", () => {
    expect(declaresType({ type: "string" })).toBe(true);
    expect(declaresType({ $ref: "#/components/schemas/Code" })).toBe(true);
    expect(declaresType({ anyOf: [{ type: "string" }, { type: "array" }] })).toBe(true);
    expect(declaresType({ "x-std-values": ["A"], "x-kde-name": "Product Form", description: "d" })).toBe(
      false,
    );
  });

  it("sees a typed string literal as the string it is, once brought to the schema shape", async () => {
    const doc = product({ productClassification: { "@value": "FROZEN_FISH", "@type": "xsd:string" } });
    (doc["@context"] as Record<string, unknown>) = { ...CONTEXT, xsd: "http://www.w3.org/2001/XMLSchema#" };
    const reading = await readMasterData(doc, read);
    if (reading.kind !== "read") throw new Error(reading.kind);
    const shape = await schemaShape(reading, "gs1:Product");
    expect(classificationFindings(shape, productType)[0]?.status).toBe("listed");
  });
});

describe("isUnderProperty", () => {
  it("tells the errors about a property or what it holds from the others", () => {
    expect(isUnderProperty("/productClassification must be string", "productClassification")).toBe(true);
    expect(isUnderProperty("/address/addressCountry must match pattern", "address")).toBe(true);
    expect(isUnderProperty("/productClassificationCode must be string", "productClassification")).toBe(false);
    expect(isUnderProperty("/ must have required property '@context'", "productClassification")).toBe(false);
    expect(isUnderProperty("/@type must match a schema in anyOf", "productClassification")).toBe(false);
    // JSON pointer escapes: ~ as ~0 and / as ~1.
    expect(isUnderProperty("/a~1b must be string", "a/b")).toBe(true);
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

  it("fails a number served as a classification in any spelling", async () => {
    const doc = {
      "@context": { gs1: "https://ref.gs1.org/voc/" },
      "@type": "gs1:Product",
      "gs1:productClassification": 3,
    };
    const reading = await readMasterData(doc, read);
    if (reading.kind !== "read") throw new Error(reading.kind);
    const shape = await schemaShape(reading, "gs1:Product");
    const problems = createPropertyChecker(definition)("gs1:Product", shape);
    expect(problems.map((p) => p.property)).toEqual(["productClassification"]);
  });
});
