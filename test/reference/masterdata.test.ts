// Master data documents of the reference sender (spec 2.2), reached through the resolver's masterData links.
import { readFileSync } from "node:fs";
import path from "node:path";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { readMasterData, schemaShape } from "../../src/assertions/master-data.ts";
import { createValidators } from "../../src/definition/index.ts";
import { CANONICAL_DL_BASE, type Dataset } from "../../src/model/index.ts";
import { GS1_VOC_CONTEXT, MASTERDATA_FAULTS, variantDocument } from "../../src/reference/masterdata/index.ts";
import { VARIANT_CONTEXT_PATH } from "../../src/reference/masterdata/variant.ts";
import { linkTypeUri } from "../../src/reference/resolver/index.ts";
import { createContextLoader } from "../../src/target/jsonld/index.ts";
import { REPO_ROOT } from "../support/cli.ts";
import { observedEvent } from "../support/events.ts";
import { type ReferenceOptions, referenceForTests, withReference } from "../support/reference.ts";
import { registryEntries } from "../support/registry.ts";
import {
  GLN,
  GLN_EVENTS_ONLY,
  GTIN,
  loadedDocument,
  ORGANIZATION,
  PGLN,
  PLACE,
  PRODUCT,
  SSCC,
  withCheck,
} from "./sender-fixture.ts";

const GTIN_OTHER = withCheck("0950600013436");
const GLN_SOURCE = withCheck("950600000003");
const PGLN_DESTINATION = withCheck("950600099998");
const PGLN_OWNER = withCheck("950600099997");
const PGLN_PROVIDER = withCheck("950600099996");

// A classification outside the definition's x-std-values list: extensible lists are not enums (spec 2.2). It
// also arrives with a null context, which the sender replaces.
const PRODUCT_UNLISTED = {
  ...loadedDocument("gs1:Product", `/01/${GTIN_OTHER}`, {
    gtin: GTIN_OTHER,
    productName: "Sea cucumber",
    productClassification: "ECHINODERM",
  }),
  "@context": null,
};

const DATASET: Dataset = {
  events: [
    observedEvent("00000000-0000-4000-8000-000000000001", {
      bizStep: "shipping",
      epcList: [`${CANONICAL_DL_BASE}/00/${SSCC}`],
      bizLocation: { id: `${CANONICAL_DL_BASE}/414/${GLN_EVENTS_ONLY}` },
      sourceList: [
        {
          type: "location",
          source: `urn:epc:id:sgln:${GLN_SOURCE.slice(0, 7)}.${GLN_SOURCE.slice(7, 12)}.0`,
        },
      ],
      destinationList: [
        {
          type: "owning_party",
          destination: `urn:epc:id:pgln:${PGLN_DESTINATION.slice(0, 7)}.${PGLN_DESTINATION.slice(7, 12)}`,
        },
      ],
      "gdst:productOwner": `${CANONICAL_DL_BASE}/417/${PGLN_OWNER}`,
      "cbvmda:informationProvider": { "@id": `${CANONICAL_DL_BASE}/417/${PGLN_PROVIDER}` },
    }),
  ],
  masterData: [PRODUCT, PRODUCT_UNLISTED, PLACE, ORGANIZATION],
};

async function get(url: string) {
  const res = await request(url);
  const text = await res.body.text();
  const type = String(res.headers["content-type"]).split(";")[0];
  return { url, status: res.statusCode, type, json: () => JSON.parse(text) as Record<string, unknown> };
}

/** The document the sender makes up for a place (AI 414) or party (417) its events name without master data. */
function generatedDocument(type: "gs1:Place" | "gs1:Organization", ai: "414" | "417", gln: string) {
  return {
    "@context": GS1_VOC_CONTEXT,
    "@type": type,
    "@id": `${CANONICAL_DL_BASE}/${ai}/${gln}`,
    globalLocationNumber: gln,
  };
}

/** The master data document the link set of `dlPath` leads to. */
async function followMasterData(base: string, dlPath: string) {
  const linkset = (await get(`${base}${dlPath}?linkType=linkset`)).json() as {
    linkset: Record<string, { href: string }[]>[];
  };
  const href = linkset.linkset[0]?.[linkTypeUri("masterData")]?.[0]?.href;
  if (href === undefined) throw new Error(`${dlPath} offers no masterData link`);
  return get(href);
}

/** Runs `use` with the resolver base of a reference over DATASET started with `options` besides. */
function withResolver<T>(options: Partial<ReferenceOptions>, use: (base: string) => Promise<T>): Promise<T> {
  return withReference({ dataset: DATASET, ...options }, (reference) => use(reference.resolverBase));
}

const reference = referenceForTests({ dataset: DATASET });

describe("master data documents (spec 2.2)", () => {
  const cases: [string, Record<string, unknown>][] = [
    [`/01/${GTIN}`, PRODUCT],
    [`/414/${GLN}`, PLACE],
    [`/417/${PGLN}`, ORGANIZATION],
  ];
  for (const [dlPath, loaded] of cases) {
    it(`the masterData link of ${dlPath} answers its ${String(loaded["@type"])} as JSON-LD, as loaded`, async () => {
      const res = await followMasterData(reference().resolverBase, dlPath);
      expect(res.status).toBe(200);
      expect(res.type).toBe("application/ld+json");
      expect(res.json()).toEqual(loaded);
    });
  }

  it("gives a document loaded without @context the GS1 Web Vocabulary context", async () => {
    const doc = (await followMasterData(reference().resolverBase, `/01/${GTIN_OTHER}`)).json();
    expect(doc["@context"]).toEqual(GS1_VOC_CONTEXT);
    expect(GS1_VOC_CONTEXT["@vocab"]).toBe("https://gs1.org/voc/");
    expect(GS1_VOC_CONTEXT.gs1).toBe(GS1_VOC_CONTEXT["@vocab"]);
  });

  it("every document served validates against the definition's schema for its type", async () => {
    const { validateMasterData } = await createValidators({ network: false });
    const dlPaths = [
      `/01/${GTIN}`,
      `/01/${GTIN_OTHER}`,
      `/414/${GLN}`,
      `/414/${GLN_EVENTS_ONLY}`,
      `/417/${PGLN}`,
    ];
    for (const dlPath of dlPaths) {
      const doc = (await followMasterData(reference().resolverBase, dlPath)).json();
      const type = doc["@type"] as "gs1:Organization" | "gs1:Place" | "gs1:Product";
      expect(validateMasterData(type, doc), dlPath).toEqual({ valid: true, errors: [] });
    }
  });

  it("serves a classification value outside x-std-values unchanged", async () => {
    const definition = parseYaml(
      readFileSync(path.join(REPO_ROOT, "schemas/interface.openapi.yaml"), "utf8"),
    ) as {
      components: {
        schemas: { Product: { properties: { productClassification: { "x-std-values": string[] } } } };
      };
    };
    const listed = definition.components.schemas.Product.properties.productClassification["x-std-values"];
    expect(listed).not.toContain(PRODUCT_UNLISTED.productClassification);
    const doc = (await followMasterData(reference().resolverBase, `/01/${GTIN_OTHER}`)).json();
    expect(doc.productClassification).toBe(PRODUCT_UNLISTED.productClassification);
  });

  it("generates a gs1:Place for a GLN that only events name", async () => {
    const res = await followMasterData(reference().resolverBase, `/414/${GLN_EVENTS_ONLY}`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual(generatedDocument("gs1:Place", "414", GLN_EVENTS_ONLY));
  });

  it("generates master data for the places and parties of source and destination lists and party fields", async () => {
    const source = await followMasterData(reference().resolverBase, `/414/${GLN_SOURCE}`);
    expect(source.json()).toMatchObject({ "@type": "gs1:Place", globalLocationNumber: GLN_SOURCE });
    for (const pgln of [PGLN_DESTINATION, PGLN_OWNER, PGLN_PROVIDER]) {
      const res = await followMasterData(reference().resolverBase, `/417/${pgln}`);
      expect(res.status).toBe(200);
      expect(res.json()).toEqual(generatedDocument("gs1:Organization", "417", pgln));
    }
  });

  const refused: [string, number][] = [
    [`/masterdata/01/${withCheck("0950600099999")}`, 404],
    [`/masterdata/00/${SSCC}`, 404],
    [`/masterdata/gtin/${GTIN}`, 400],
    ["/masterdata/01/123", 400],
  ];
  for (const [url, status] of refused) {
    it(`${url} is ${status} problem+json`, async () => {
      const res = await get(`${reference().resolverBase}${url}`);
      expect(res.status).toBe(status);
      expect(res.type).toBe("application/problem+json");
      expect(res.json().status).toBe(status);
    });
  }
});

describe("master data faults: each changes the behaviour it names", () => {
  const observe: Record<string, (base: string) => Promise<boolean>> = {
    "md-no-context": async (base) => !("@context" in (await followMasterData(base, `/417/${PGLN}`)).json()),
    "md-wrong-type-organization": async (base) =>
      (await followMasterData(base, `/417/${PGLN}`)).json()["@type"] === "gs1:Place",
    "md-classification-not-string": async (base) =>
      typeof (await followMasterData(base, `/01/${GTIN}`)).json().productClassification === "number",
  };

  it("every master data fault has a test here, and names requirements of the registry, one of them MUST", () => {
    const levels = new Map(registryEntries().map((r) => [r.id, r.definitionLevel ?? r.level]));
    expect(MASTERDATA_FAULTS.map((f) => f.id).sort()).toEqual(Object.keys(observe).sort());
    for (const fault of MASTERDATA_FAULTS) {
      for (const id of fault.violates) expect(levels.has(id), `${fault.id} names ${id}`).toBe(true);
      // A fault of the definition's schemas only is a warning with the bundled definition, and fails only
      // against a definition the user passes: MUST at its definitionLevel.
      expect(
        fault.violates.some((id) => levels.get(id) === "MUST"),
        fault.id,
      ).toBe(true);
    }
  });

  for (const [fault, shows] of Object.entries(observe)) {
    it(`${fault}: the defect shows with the fault on and not without it`, async () => {
      expect(await withResolver({ faults: [fault] }, shows)).toBe(true);
      expect(await shows(reference().resolverBase)).toBe(false);
    });
  }

  it("md-wrong-type-organization leaves products and places typed as loaded", async () => {
    await withResolver({ faults: ["md-wrong-type-organization"] }, async (base) => {
      expect((await followMasterData(base, `/01/${GTIN}`)).json()["@type"]).toBe("gs1:Product");
      expect((await followMasterData(base, `/414/${GLN}`)).json()["@type"]).toBe("gs1:Place");
    });
  });

  it("md-classification-not-string gives distinct values distinct numbers and leaves places alone", async () => {
    await withResolver({ faults: ["md-classification-not-string"] }, async (base) => {
      const a = (await followMasterData(base, `/01/${GTIN}`)).json().productClassification;
      const b = (await followMasterData(base, `/01/${GTIN_OTHER}`)).json().productClassification;
      expect(a).not.toBe(b);
      expect((await followMasterData(base, `/414/${GLN}`)).json().locationClassification).toBe(
        "PROCESSING_PLANT",
      );
    });
  });
});

describe("the jsonld-variant configuration: the same master data written another legal way (spec 2.2)", () => {
  const dlPaths: [string, "gs1:Organization" | "gs1:Place" | "gs1:Product"][] = [
    [`/01/${GTIN}`, "gs1:Product"],
    [`/414/${GLN}`, "gs1:Place"],
    [`/417/${PGLN}`, "gs1:Organization"],
    [`/414/${GLN_EVENTS_ONLY}`, "gs1:Place"],
  ];

  it("serves an @graph with full IRIs, a gs1: prefix for https://gs1.org/voc/ and language-tagged names", async () => {
    await withResolver({ config: { jsonLdVariant: true } }, async (base) => {
      const answered = await followMasterData(base, `/417/${PGLN}`);
      const doc = answered.json();
      // The context is named by a URL the sender serves, relative to the document, not written into it.
      expect(doc["@context"]).toBe(VARIANT_CONTEXT_PATH);
      const context = await get(new URL(VARIANT_CONTEXT_PATH, answered.url).href);
      expect(context.type).toBe("application/ld+json");
      expect(context.json()).toEqual({
        "@context": { gs1: "https://gs1.org/voc/", xsd: "http://www.w3.org/2001/XMLSchema#" },
      });
      const graph = doc["@graph"] as Record<string, unknown>[];
      expect(graph[0]).toMatchObject({
        "@id": ORGANIZATION["@id"],
        "@type": ["https://ref.gs1.org/voc/Organization"],
        "https://ref.gs1.org/voc/organizationName": {
          "@value": ORGANIZATION.organizationName,
          "@language": "en",
        },
        "gs1:globalLocationNumber": PGLN,
      });
      expect(JSON.stringify(doc)).not.toContain('"@vocab"');
    });
  });

  it("every document reads, through a JSON-LD processor, as the graph the compact form states", async () => {
    // The variant's context is loaded from the sender, as a run's loader does (src/target/jsonld/run-loader.ts).
    const loader = createContextLoader({
      fetchContext: async (url) => ({ document: (await get(url)).json(), url }),
    });
    await withResolver({ config: { jsonLdVariant: true } }, async (base) => {
      for (const [dlPath, type] of dlPaths) {
        const answered = await followMasterData(base, dlPath);
        const variant = answered.json();
        const compact = (await followMasterData(reference().resolverBase, dlPath)).json();
        expect(variant, dlPath).not.toEqual(compact);
        const [a, b] = await Promise.all([
          readMasterData(variant, { loader, base: answered.url }),
          readMasterData(compact),
        ]);
        if (a.kind !== "read" || b.kind !== "read") throw new Error(`${dlPath} was not read as JSON-LD`);
        expect(a.types, dlPath).toEqual([type]);
        expect(await schemaShape(a, type), dlPath).toEqual(await schemaShape(b, type));
      }
    });
  });

  it("moves an address into a node of its own, and serves a document under a context of its own as loaded", () => {
    const withAddress = { ...PLACE, address: { "@type": "gs1:PostalAddress", addressCountry: "NO" } };
    const graph = (variantDocument(withAddress) as { "@graph": Record<string, unknown>[] })["@graph"];
    expect(graph[0]?.["gs1:address"]).toEqual({ "@id": graph[1]?.["@id"] });
    expect(graph[1]).toMatchObject({ "@type": "gs1:PostalAddress", "gs1:addressCountry": "NO" });
    const own = { ...PLACE, "@context": { "@vocab": "https://gs1.org/voc/", ex: "https://example.org/" } };
    expect(variantDocument(own)).toBe(own);
  });
});
