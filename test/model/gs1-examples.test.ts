// The GS1 EPCIS 2.0 examples come in a URN edition (Example_9.6.*) and a Digital Link edition
// (WithDigitalLinkID/*). Reading them shows that the editions are not identical: 9.6.1 and 9.6.2 use a
// different GTIN in the Digital Link edition, 9.6.3 differs in its childEPCs only, 9.6.4 is the same. The checks
// below establish that correspondence from the files and then hold the oracle to it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canonicalId, digitalLinkToEpcUrn, epcUrnToDigitalLink } from "../../src/model/identifiers.ts";
import { runOracle } from "../../src/model/oracle.ts";
import { CLASS_LISTS, EPC_LIST_FIELDS, type EpcisEvent } from "../../src/model/types.ts";
import { sharedPath } from "./paths.ts";

const EDITIONS = [
  "9.6.1-ObjectEvent",
  "9.6.2-ObjectEvent",
  "9.6.3-AggregationEvent",
  "9.6.4-TransformationEvent",
];

function load(file: string): EpcisEvent[] {
  const doc = JSON.parse(readFileSync(sharedPath("epcis/examples/gs1/JSON", file), "utf8")) as {
    epcisBody: { eventList: EpcisEvent[] };
  };
  return doc.epcisBody.eventList;
}

const urnEdition = EDITIONS.map((name) => load(`Example_${name}.jsonld`));
const dlEdition = EDITIONS.map((name) => load(`WithDigitalLinkID/Example_${name}WithDigitalLink.jsonld`));

function epcsOf(e: EpcisEvent): string[] {
  return [...EPC_LIST_FIELDS.flatMap((f) => e[f] ?? []), ...(e.parentID === undefined ? [] : [e.parentID])];
}

function canonicalEpcs(e: EpcisEvent): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of EPC_LIST_FIELDS) if (e[f] !== undefined) out[f] = (e[f] ?? []).map(canonicalId);
  if (e.parentID !== undefined) out.parentID = [canonicalId(e.parentID)];
  return out;
}

function canonicalClasses(e: EpcisEvent): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of CLASS_LISTS)
    if (e[f] !== undefined) out[f] = (e[f] ?? []).map((q) => canonicalId(q.epcClass));
  return out;
}

// Every company prefix in these examples has seven digits.
const otherForm = (id: string): string | undefined =>
  id.startsWith("urn:") ? epcUrnToDigitalLink(id) : digitalLinkToEpcUrn(id, 7);

const allEvents = [...urnEdition.flat(), ...dlEdition.flat()];
const allEpcs = [...new Set(allEvents.flatMap(epcsOf))];

describe("GS1 examples in URN and Digital Link editions", () => {
  it("hold the same number of events in each pair of files", () => {
    expect(dlEdition.map((events) => events.length)).toEqual(urnEdition.map((events) => events.length));
  });

  it("agree on identifiers where the files agree: 9.6.4 entirely, 9.6.3 in parent and classes", () => {
    const [u3, u4] = [urnEdition[2]?.[0], urnEdition[3]?.[0]];
    const [d3, d4] = [dlEdition[2]?.[0], dlEdition[3]?.[0]];
    expect(u3 && d3 && u4 && d4).toBeTruthy();
    if (!(u3 && d3 && u4 && d4)) return;
    expect(canonicalEpcs(d4)).toEqual(canonicalEpcs(u4));
    expect(canonicalClasses(d4)).toEqual(canonicalClasses(u4));
    expect(canonicalClasses(d3)).toEqual(canonicalClasses(u3));
    expect(canonicalId(d3.parentID ?? "")).toBe(canonicalId(u3.parentID ?? ""));
    expect(canonicalEpcs(d3).childEPCs).not.toEqual(canonicalEpcs(u3).childEPCs);
    expect(canonicalEpcs(dlEdition[0]?.[0] ?? { type: "" })).not.toEqual(
      canonicalEpcs(urnEdition[0]?.[0] ?? { type: "" }),
    );
  });

  it("give the same MATCH_anyEPC answers whichever form the query value is written in", () => {
    expect(allEpcs.length).toBeGreaterThan(5);
    for (const epc of allEpcs) {
      const twin = otherForm(epc);
      expect(twin, epc).toBeDefined();
      const a = runOracle(allEvents, { MATCH_anyEPC: [epc] });
      const b = runOracle(allEvents, { MATCH_anyEPC: [twin ?? ""] });
      expect(b).toEqual(a);
      expect(a.length).toBeGreaterThan(0);
    }
  });

  it("give the same MATCH_anyEPC answers when every event's EPCs are rewritten in the other form", () => {
    const rewrite = (e: EpcisEvent): EpcisEvent => {
      const out: EpcisEvent = { ...e };
      for (const f of EPC_LIST_FIELDS)
        if (e[f] !== undefined) out[f] = (e[f] ?? []).map((x) => otherForm(x) ?? x);
      if (e.parentID !== undefined) out.parentID = otherForm(e.parentID) ?? e.parentID;
      return out;
    };
    const rewritten = allEvents.map(rewrite);
    expect(rewritten).not.toEqual(allEvents);
    for (const epc of allEpcs) {
      const ids = (events: EpcisEvent[]) => runOracle(events, { MATCH_anyEPC: [epc] }).map((e) => e.eventID);
      expect(ids(rewritten)).toEqual(ids(allEvents));
    }
  });

  it("select the corresponding events of 9.6.4 and the parent of 9.6.3 in both editions", () => {
    const editionIds = (events: EpcisEvent[][], epc: string) =>
      runOracle(events.flat(), { MATCH_anyEPC: [epc] }).map((e) => events.flat().indexOf(e));
    for (const epc of [...epcsOf(urnEdition[3]?.[0] ?? { type: "" }), urnEdition[2]?.[0]?.parentID ?? ""]) {
      expect(editionIds(dlEdition, epc)).toEqual(editionIds(urnEdition, epc));
    }
  });
});
