import { describe, expect, it } from "vitest";
import { CANONICAL_DL_BASE, type EpcisEvent, gs1CheckDigit, PATH_FORMS } from "../../src/model/index.ts";
import { elementsOf, identifiersFromBaseline, sampleIdentifiers } from "../../src/target/identifiers.ts";

const withCheck = (body: string) => body + gs1CheckDigit(body);
const DL = CANONICAL_DL_BASE;

// Company prefix 9506000 (7 digits): GTIN 0 9506000 01343 c, SSCC 0 9506000 000000042 c, GLN 9506000 00001 c.
const GTIN = withCheck("0950600001343");
const SSCC = withCheck("09506000000000042");
const GLN = withCheck("950600000001");
const GLN_2 = withCheck("950600000002");
const PGLN = withCheck("950600099999");
const OTHER_PGLN = withCheck("950600088888");

function event(fields: Partial<EpcisEvent>): EpcisEvent {
  return { type: "ObjectEvent", eventTime: "2024-03-01T10:00:00Z", eventTimeZoneOffset: "+00:00", ...fields };
}

const EVENTS: EpcisEvent[] = [
  event({
    epcList: ["urn:epc:id:sgtin:9506000.001343.S%2F1"],
    bizLocation: { id: "urn:epc:id:sgln:9506000.00001.0" },
    "gdst:productOwner": "urn:epc:id:pgln:9506000.99999",
    "cbvmda:informationProvider": { "@id": `${DL}/417/${OTHER_PGLN}` },
  }),
  event({
    type: "AggregationEvent",
    parentID: "urn:epc:id:sscc:9506000.0000000042",
    childQuantityList: [{ epcClass: "urn:epc:class:lgtin:9506000.001343.L+7", quantity: 3 }],
    readPoint: { id: "urn:epc:id:sgln:9506000.00002.dock%2F4" },
  }),
  event({ epcList: ["urn:epc:id:sgtin:9506000.001343.S%2F1", "not an identifier"] }),
];

describe("identifiersFromBaseline", () => {
  it("finds each path form in the fields a receiver would read", () => {
    const found = identifiersFromBaseline({ events: EVENTS });
    expect(found["01/21"]).toEqual([`${DL}/01/${GTIN}/21/S%2F1`]);
    expect(found["01"]).toEqual([`${DL}/01/${GTIN}`]);
    expect(found["00"]).toEqual([`${DL}/00/${SSCC}`]);
    expect(found["01/10"]).toEqual([`${DL}/01/${GTIN}/10/L%2B7`]);
    expect(found["414"]).toEqual([`${DL}/414/${GLN}`, `${DL}/414/${GLN_2}`]);
    // PARTY_FIELDS reads the information provider first, then the product owner.
    expect(found["417"]).toEqual([`${DL}/417/${OTHER_PGLN}`, `${DL}/417/${PGLN}`]);
  });

  it("lists the setup values first and prefers --party over the events' parties", () => {
    const party = `https://resolver.example.com/417/${OTHER_PGLN}`;
    const found = identifiersFromBaseline({ events: EVENTS, party, gln: GLN_2 });
    expect(found["417"]).toEqual([`${DL}/417/${OTHER_PGLN}`]);
    expect(found["414"]).toEqual([`${DL}/414/${GLN_2}`, `${DL}/414/${GLN}`]);
  });

  it("accepts the GLN as a Digital Link URI and ignores values of the wrong form", () => {
    const found = identifiersFromBaseline({ events: [], gln: `${DL}/414/${GLN}`, party: `${DL}/01/${GTIN}` });
    expect(found["414"]).toEqual([`${DL}/414/${GLN}`]);
    expect(found["417"]).toEqual([]);
    expect(found["01"]).toEqual([]);
  });

  it("answers nothing for no events and no setup values", () => {
    const found = identifiersFromBaseline({ events: [] });
    for (const form of PATH_FORMS) expect(found[form]).toEqual([]);
  });

  it("takes identifiers already in Digital Link form on any host", () => {
    const found = identifiersFromBaseline({
      events: [event({ epcList: [`https://example.com/prefix/01/${GTIN}/21/77`] })],
    });
    expect(found["01/21"]).toEqual([`${DL}/01/${GTIN}/21/77`]);
  });
});

describe("sampleIdentifiers", () => {
  const ids = Array.from({ length: 20 }, (_, i) => `id-${i}`);

  it("keeps a short list whole", () => {
    expect(sampleIdentifiers(ids.slice(0, 3), 4, 1)).toEqual(ids.slice(0, 3));
  });

  it("keeps the first and draws the rest reproducibly from the seed", () => {
    const a = sampleIdentifiers(ids, 5, 42);
    expect(a).toHaveLength(5);
    expect(a[0]).toBe("id-0");
    expect(new Set(a).size).toBe(5);
    expect(a.every((id) => ids.includes(id))).toBe(true);
    expect(sampleIdentifiers(ids, 5, 42)).toEqual(a);
    const others = [1, 2, 3, 4, 5].map((seed) => sampleIdentifiers(ids, 5, seed).join());
    expect(others.some((o) => o !== a.join())).toBe(true);
  });

  it("draws nothing for a limit of zero", () => {
    expect(sampleIdentifiers(ids, 0, 1)).toEqual([]);
  });
});

describe("elementsOf", () => {
  it("reads an identifier in any spelling, and answers the same frozen list each time it is asked", () => {
    const urn = "urn:epc:id:sgtin:9506000.001343.S%2F1";
    const first = elementsOf(urn);
    expect(first).toEqual([
      { ai: "01", value: GTIN },
      { ai: "21", value: "S/1" },
    ]);
    expect(elementsOf(urn)).toBe(first);
    expect(elementsOf(`${DL}/01/${GTIN}/21/S%2F1`)).toEqual(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first?.every((e) => Object.isFrozen(e))).toBe(true);
    expect(() => (first as { ai: string; value: string }[]).push({ ai: "10", value: "x" })).toThrow(
      TypeError,
    );
  });

  it("answers undefined for what is no identifier of the six path forms' keys, every time", () => {
    expect(elementsOf("not an identifier")).toBeUndefined();
    expect(elementsOf("not an identifier")).toBeUndefined();
    const wrongCheck = (Number(GTIN.at(-1)) + 1) % 10;
    expect(elementsOf(`${DL}/01/${GTIN.slice(0, -1)}${wrongCheck}`)).toBeUndefined();
  });
});
