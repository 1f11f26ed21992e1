import { beforeAll, describe, expect, it } from "vitest";
import { createValidators, loadDefinition, type Validators } from "../../src/definition/index.ts";

type Obj = Record<string, unknown>;
let v: Validators;

beforeAll(async () => {
  v = await createValidators({ network: false });
});

const context = { "@vocab": "https://gs1.org/voc/", gs1: "https://gs1.org/voc/" };

function linkset(entry: Obj = {}): { linkset: Obj[] } {
  return {
    linkset: [
      {
        anchor: "https://id.gs1.org/01/09506000134352/10/LOT1",
        itemDescription: "Atlantic cod, fresh",
        "https://ref.gs1.org/voc/defaultLink": [
          { href: "https://epcis.example.com/events?MATCH_anyEPCClass=x", title: "Events" },
        ],
        "https://ref.gs1.org/voc/epcis": [
          { href: "https://epcis.example.com/events?MATCH_anyEPCClass=x", title: "Events" },
        ],
        ...entry,
      },
    ],
  };
}

describe("validateLinkset (spec 2.3)", () => {
  it("accepts a link set with a string or a null itemDescription", () => {
    expect(v.validateLinkset(linkset()).errors).toEqual([]);
    expect(v.validateLinkset(linkset({ itemDescription: null })).valid).toBe(true);
  });

  it("refuses a linkset member that is not an array", () => {
    expect(v.validateLinkset({ linkset: linkset().linkset[0] }).errors).toEqual(["/linkset must be array"]);
  });

  it("refuses a link without title, an itemDescription that is a number, an anchor that is no URI", () => {
    const noTitle = linkset({
      "https://ref.gs1.org/voc/epcis": [{ href: "https://epcis.example.com/events" }],
    });
    expect(v.validateLinkset(noTitle).errors.join(" ")).toContain("title");
    expect(v.validateLinkset(linkset({ itemDescription: 42 })).errors.join(" ")).toContain("itemDescription");
    expect(v.validateLinkset(linkset({ anchor: "not a uri" })).errors.join(" ")).toContain("anchor");
  });

  it("refuses an entry without anchor and a body without linkset", () => {
    const { anchor: _dropped, ...entry } = linkset().linkset[0] ?? {};
    expect(v.validateLinkset({ linkset: [entry] }).valid).toBe(false);
    expect(v.validateLinkset({}).valid).toBe(false);
  });
});

describe("validateMasterData (spec 2.2)", () => {
  const product = {
    "@context": context,
    "@type": "gs1:Product",
    "@id": "https://id.gs1.org/01/09506000134352",
    gtin: "09506000134352",
    productName: "Atlantic cod fillet",
    productClassification: "FISH_FILLET",
  };
  const place = {
    "@context": context,
    type: "gs1:Place",
    id: "https://id.gs1.org/414/9506000134369",
    name: "Bergen landing site",
    globalLocationNumber: "9506000134369",
    locationClassification: "LANDING_SITE",
    address: { addressLocality: "Bergen", addressCountry: "NO" },
  };
  const organization = {
    "@context": "https://gs1.org/voc/",
    "@type": ["gs1:Organization"],
    "@id": "https://id.gs1.org/417/9506000134376",
    organizationName: "Nordic Seafood AS",
    globalLocationNumber: "9506000134376",
  };

  it("accepts a document of each type, in @-keyword or aliased form", () => {
    expect(v.validateMasterData("gs1:Product", product).errors).toEqual([]);
    expect(v.validateMasterData("gs1:Place", place).errors).toEqual([]);
    expect(v.validateMasterData("gs1:Organization", organization).errors).toEqual([]);
  });

  it("no false positive on a type that MD-JSONLD reads as the same: a www., ref. or http IRI, or a bare name", () => {
    for (const type of [
      "https://www.gs1.org/voc/Product",
      "http://gs1.org/voc/Product",
      "https://ref.gs1.org/voc/Product",
      "Product",
      ["Thing", "https://www.gs1.org/voc/Product"],
    ]) {
      expect(
        v.validateMasterData("gs1:Product", { ...product, "@type": type }).errors,
        JSON.stringify(type),
      ).toEqual([]);
    }
  });

  it("refuses another type or another vocabulary's type", () => {
    for (const type of [
      "gs1:Place",
      "https://schema.org/Product",
      "https://gs1.org/voc/Products",
      "gs1:Product ",
    ]) {
      expect(v.validateMasterData("gs1:Product", { ...product, "@type": type }).valid, type).toBe(false);
    }
  });

  it("accepts a classification outside the listed values, because the lists are extensible", async () => {
    const definition = await loadDefinition();
    const listed = definition.masterDataTypes.flatMap((t) => t.properties.flatMap((p) => p.stdValues ?? []));
    expect(listed).not.toContain("SEA_URCHIN_ROE");
    expect(
      v.validateMasterData("gs1:Product", { ...product, productClassification: "SEA_URCHIN_ROE" }).valid,
    ).toBe(true);
    expect(
      v.validateMasterData("gs1:Place", { ...place, locationClassification: "AUCTION_HALL" }).valid,
    ).toBe(true);
  });

  it("refuses a classification that is not a string", () => {
    expect(v.validateMasterData("gs1:Product", { ...product, productClassification: 7 }).errors).toContain(
      "/productClassification must be string",
    );
  });

  it("refuses a document without @context", () => {
    const { "@context": _dropped, ...rest } = product;
    expect(v.validateMasterData("gs1:Product", rest).errors).toContain(
      "/ must have required property '@context'",
    );
  });

  it("refuses a document of another type or without type", () => {
    expect(v.validateMasterData("gs1:Organization", { ...organization, "@type": "gs1:Place" }).valid).toBe(
      false,
    );
    const { "@type": _t, ...untyped } = organization;
    expect(v.validateMasterData("gs1:Organization", untyped).valid).toBe(false);
  });

  // Spec 2.2 names the types and the vocabulary; it requires no @id, so a document without one is valid.
  it("accepts a document without @id", () => {
    const { "@id": _i, ...anonymous } = organization;
    expect(v.validateMasterData("gs1:Organization", anonymous).valid).toBe(true);
  });

  it("refuses malformed identifiers and country codes", () => {
    expect(v.validateMasterData("gs1:Product", { ...product, gtin: "9506000134" }).valid).toBe(false);
    expect(v.validateMasterData("gs1:Place", { ...place, globalLocationNumber: "95060001343" }).valid).toBe(
      false,
    );
    expect(v.validateMasterData("gs1:Place", { ...place, address: { addressCountry: "NOR" } }).valid).toBe(
      false,
    );
  });
});

describe("createValidators", () => {
  it("takes a given EPCIS schema without resolving anything", async () => {
    const definition = await loadDefinition();
    const given = await createValidators({
      definition,
      epcisSchema: { $id: "urn:test:epcis", definitions: { "EPCIS-Document-Event": { required: ["type"] } } },
      siblingMirror: "/nonexistent",
      network: false,
    });
    expect(given.epcisSchemaSource).toBe("given");
    expect(given.validateEvent({}).valid).toBe(false);
    expect(given.validateEvent({ type: "ObjectEvent" }).valid).toBe(true);
  });

  it("reports where the EPCIS schema came from", () => {
    expect(["mirror", "cache", "sibling-mirror"]).toContain(v.epcisSchemaSource);
  });
});
