// Every identifier a generated event names can be resolved to master data (spec 2.2, 4.2): a gs1:Product per
// GTIN, a gs1:Place per GLN of a readPoint or bizLocation, a gs1:Organization per party.
import { describe, expect, it } from "vitest";
import { generateDataset, senderOf } from "../../src/generate/index.ts";
import { NON_STANDARD_CLASSIFICATIONS } from "../../src/generate/vocabulary.ts";
import type { Dataset, EpcisEvent } from "../../src/model/index.ts";
import {
  CANONICAL_DL_BASE,
  CLASS_LISTS,
  canonicalId,
  EPC_LIST_FIELDS,
  formatDigitalLink,
  gtinOf,
  isDigitalLink,
  parseDigitalLink,
} from "../../src/model/index.ts";
import { definitionSchemaValidator, readDefinition } from "./support.ts";

function keyDl(ai: string, value: string): string {
  return formatDigitalLink(CANONICAL_DL_BASE, [{ ai, value }]);
}

/** The master data @id each event needs, by the type of document that must carry it. */
function needed(events: readonly EpcisEvent[]): Map<string, string> {
  const out = new Map<string, string>();
  const product = (id: string): void => {
    const gtin = gtinOf(id);
    expect(gtin, `no GTIN in ${id}`).toBeDefined();
    out.set(keyDl("01", gtin as string), "gs1:Product");
  };
  for (const e of events) {
    for (const f of EPC_LIST_FIELDS) {
      for (const epc of e[f] ?? []) if (!canonicalId(epc).includes("/00/")) product(epc);
    }
    for (const f of CLASS_LISTS) for (const q of e[f] ?? []) product(q.epcClass);
    for (const where of [e.readPoint, e.bizLocation]) {
      if (where === undefined) continue;
      const dl = canonicalId(where.id);
      expect(isDigitalLink(dl), `${where.id} is no GS1 location`).toBe(true);
      const gln = parseDigitalLink(dl).elements.find((x) => x.ai === "414")?.value as string;
      out.set(keyDl("414", gln), "gs1:Place");
    }
    for (const party of [e["gdst:productOwner"], e["cbvmda:informationProvider"]]) {
      const dl = canonicalId(party as string);
      expect(dl).toMatch(/^https:\/\/id\.gs1\.org\/417\/\d{13}$/);
      out.set(dl, "gs1:Organization");
    }
  }
  return out;
}

type SchemaProperties = Record<string, { properties: Record<string, { "x-std-values"?: string[] }> }>;

function stdValues(schema: string, property: string): string[] {
  const components = readDefinition()["components"] as { schemas: SchemaProperties };
  return components.schemas[schema]?.properties[property]?.["x-std-values"] ?? [];
}

describe("master data of generated datasets", () => {
  const validators = {
    "gs1:Organization": definitionSchemaValidator("Organization"),
    "gs1:Place": definitionSchemaValidator("Place"),
    "gs1:Product": definitionSchemaValidator("Product"),
  } as Record<string, (d: unknown) => string[]>;
  const datasets: [string, Dataset][] = [
    ["seed 1", generateDataset({ seed: 1, events: 300 })],
    ["seed 8, URN only", generateDataset({ seed: 8, events: 300, epcForm: "urn" })],
    ["seed 9, aquaculture only", generateDataset({ seed: 9, events: 150, modules: ["aquaculture"] })],
  ];

  for (const [label, ds] of datasets) {
    it(`${label}: every product, place and party named by an event has its document`, () => {
      const have = new Map(ds.masterData.map((d) => [d["@id"], d["@type"]]));
      const missing = [...needed(ds.events)].filter(([id, type]) => have.get(id) !== type);
      expect(missing).toEqual([]);
    });

    it(`${label}: master data documents are unique and validate against the definition's schemas`, () => {
      const ids = ds.masterData.map((d) => d["@id"]);
      expect(new Set(ids).size).toBe(ids.length);
      for (const d of ds.masterData) expect(validators[d["@type"]]?.(d), d["@id"]).toEqual([]);
    });

    it(`${label}: the sender is the first Organization, with its PGLN`, () => {
      const first = ds.masterData.find((d) => d["@type"] === "gs1:Organization");
      const sender = senderOf(ds);
      expect(sender.partyDl).toBe(first?.["@id"]);
      expect(sender.partyDl).toBe(keyDl("417", sender.gln));
    });
  }

  it("classifications come from the definition's x-std-values lists, plus exactly one value outside each", () => {
    const ds = generateDataset({ seed: 1, events: 600 });
    const places = stdValues("Place", "locationClassification");
    const products = stdValues("Product", "productClassification");
    expect(places.length).toBeGreaterThan(0);
    expect(products.length).toBeGreaterThan(0);
    const outside = new Set<string>();
    for (const d of ds.masterData) {
      const value = d["locationClassification"] ?? d["productClassification"];
      if (value === undefined) continue;
      const list = d["@type"] === "gs1:Place" ? places : products;
      if (!list.includes(value as string)) outside.add(value as string);
    }
    expect([...outside].sort()).toEqual([...NON_STANDARD_CLASSIFICATIONS].sort());
  });

  it("senderOf explains a dataset without an Organization", () => {
    expect(() => senderOf({ events: [], masterData: [] })).toThrow(/no gs1:Organization/);
  });

  it("a dataset of zero events still names its sender", () => {
    const ds = generateDataset({ seed: 3, events: 0 });
    expect(ds.events).toEqual([]);
    expect(senderOf(ds).gln).toMatch(/^\d{13}$/);
  });
});
