import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AskHop,
  alongWalk,
  type Hop,
  holdsAsWritten,
  hopKey,
  hopQuery,
  hopsBackFrom,
  isFirstEvent,
  selectedAsWritten,
  traceBack,
  traceProblem,
} from "../../src/assertions/trace-back.ts";
import { type EpcisEvent, type EventQuery, epcUrnToDigitalLink, runOracle } from "../../src/model/index.ts";

const VESSEL_ITEM = "urn:epc:id:sgtin:0614141.107346.2017";
const FILLET = "urn:epc:id:sgtin:0614141.107347.1";
const FILLET_LOT = "urn:epc:class:lgtin:0614141.107347.L1";
const PALLET = "urn:epc:id:sscc:0614141.1234567890";
const LATER_ITEM = "urn:epc:id:sgtin:0614141.107348.9";

// A chain as goods move: commission at the vessel, transformation into fillets, packing onto a pallet,
// shipping the pallet; and an unrelated event downstream that consumes the fillets.
const commission: EpcisEvent = {
  type: "ObjectEvent",
  eventID: "urn:uuid:commission",
  action: "ADD",
  bizStep: "commissioning",
  epcList: [VESSEL_ITEM],
};
const transformation: EpcisEvent = {
  type: "TransformationEvent",
  eventID: "urn:uuid:transformation",
  bizStep: "commissioning",
  inputEPCList: [VESSEL_ITEM],
  outputEPCList: [FILLET],
  outputQuantityList: [{ epcClass: FILLET_LOT, quantity: 10, uom: "KGM" }],
};
const packing: EpcisEvent = {
  type: "AggregationEvent",
  eventID: "urn:uuid:packing",
  action: "ADD",
  bizStep: "packing",
  parentID: PALLET,
  childEPCs: [FILLET],
  childQuantityList: [{ epcClass: FILLET_LOT, quantity: 10, uom: "KGM" }],
};
const shipping: EpcisEvent = {
  type: "ObjectEvent",
  eventID: "urn:uuid:shipping",
  action: "OBSERVE",
  bizStep: "shipping",
  epcList: [PALLET],
};
const downstream: EpcisEvent = {
  type: "TransformationEvent",
  eventID: "urn:uuid:downstream",
  bizStep: "commissioning",
  inputEPCList: [LATER_ITEM],
  outputEPCList: ["urn:epc:id:sgtin:0614141.107349.5"],
};
const EVENTS = [commission, transformation, packing, shipping, downstream];

const oracle =
  (events: readonly EpcisEvent[], drop?: (q: EventQuery, e: EpcisEvent) => boolean): AskHop =>
  async (hop) => ({
    kind: "events",
    events: runOracle(events, hopQuery(hop)).filter((e) => !drop?.(hopQuery(hop), e)),
  });

const start: Hop[] = [{ parameter: "MATCH_anyEPC", value: PALLET }];

describe("hopsBackFrom", () => {
  it("follows a transformation's inputs and not its outputs", () => {
    expect(hopsBackFrom(transformation)).toEqual([{ parameter: "MATCH_anyEPC", value: VESSEL_ITEM }]);
  });

  it("follows an aggregation's parent, children and child classes", () => {
    expect(hopsBackFrom(packing)).toEqual([
      { parameter: "MATCH_anyEPC", value: PALLET },
      { parameter: "MATCH_anyEPC", value: FILLET },
      { parameter: "MATCH_anyEPCClass", value: FILLET_LOT },
    ]);
  });
});

describe("isFirstEvent", () => {
  it("is true for a commissioning ADD and a transformation without inputs, false otherwise", () => {
    expect(isFirstEvent(commission)).toBe(true);
    expect(isFirstEvent({ ...transformation, inputEPCList: [] })).toBe(true);
    expect(isFirstEvent(transformation)).toBe(false);
    expect(isFirstEvent(shipping)).toBe(false);
    expect(isFirstEvent(packing)).toBe(false);
  });
});

describe("traceBack", () => {
  it("walks from a shipped pallet back to the commissioning of the transformation's input", async () => {
    const result = await traceBack(start, oracle(EVENTS), 50);
    expect([...result.reached.keys()].sort()).toEqual(
      ["urn:uuid:commission", "urn:uuid:packing", "urn:uuid:shipping", "urn:uuid:transformation"].sort(),
    );
    expect(result.firstEvents).toEqual(["urn:uuid:commission"]);
    expect(result.bounded).toBe(false);
    expect(result.failed).toBeUndefined();
  });

  it("asks each spelling of an identifier (URN, Digital Link) as the events write it, each once", async () => {
    const asked: string[] = [];
    const dl = epcUrnToDigitalLink(FILLET)!;
    const mixed = [...EVENTS, { ...shipping, eventID: "urn:uuid:dl-form", epcList: [PALLET, dl] }];
    const ask: AskHop = async (hop) => {
      asked.push(`${hop.parameter} ${hop.value}`);
      return oracle(mixed)(hop);
    };
    await traceBack(start, ask, 50);
    expect(asked.filter((a) => a.endsWith(` ${FILLET}`))).toHaveLength(1);
    expect(asked.filter((a) => a.endsWith(` ${dl}`))).toHaveLength(1);
    expect(hopKey({ parameter: "MATCH_anyEPC", value: FILLET })).not.toBe(
      hopKey({ parameter: "MATCH_anyEPC", value: dl }),
    );
  });

  it("stops at the bound and says so", async () => {
    const result = await traceBack(start, oracle(EVENTS), 1);
    expect(result.hops).toBe(1);
    expect(result.bounded).toBe(true);
    expect([...result.reached.keys()].sort()).toEqual(["urn:uuid:packing", "urn:uuid:shipping"]);
  });

  it("records the first hop that fails and stops", async () => {
    const failing: AskHop = async (hop) =>
      hop.value === FILLET
        ? { kind: "failed", reason: "refused with 413", evidence: { message: "413" } }
        : oracle(EVENTS)(hop);
    const result = await traceBack(start, failing, 50);
    expect(result.failed?.hop.value).toBe(FILLET);
    expect(result.failed?.reason).toBe("refused with 413");
  });

  it("gives the same walk whatever order each answer lists its events in", async () => {
    const expected = await traceBack(start, oracle(EVENTS), 50);
    await fc.assert(
      fc.asyncProperty(fc.nat(), async (seed) => {
        let state = seed;
        const shuffled: AskHop = async (hop) => {
          const events = runOracle(EVENTS, hopQuery(hop));
          for (let i = events.length - 1; i > 0; i--) {
            state = (state * 1103515245 + 12345) % 2147483648;
            const j = state % (i + 1);
            [events[i], events[j]] = [events[j]!, events[i]!];
          }
          return { kind: "events", events };
        };
        const result = await traceBack(start, shuffled, 50);
        expect([...result.reached.keys()].sort()).toEqual([...expected.reached.keys()].sort());
        expect(result.hops).toBe(expected.hops);
      }),
      { numRuns: 20 },
    );
  });
});

describe("traceProblem (FLOW-TRACEBACK)", () => {
  it("holds when the target's walk reaches what the oracle's reaches", async () => {
    const expected = await traceBack(start, oracle(EVENTS), 50);
    const actual = await traceBack(start, oracle(EVENTS), 50);
    expect(traceProblem(actual, expected)).toBeUndefined();
  });

  it("names the missing events when the target ignores transformation outputs, first events counted", async () => {
    const expected = await traceBack(start, oracle(EVENTS), 50);
    const onInputs = (q: EventQuery, e: EpcisEvent) =>
      (e.inputEPCList ?? []).includes(q.MATCH_anyEPC?.[0] ?? "");
    const ignoresOutputs = oracle(EVENTS, (q, e) => e.type === "TransformationEvent" && !onInputs(q, e));
    const actual = await traceBack(start, ignoresOutputs, 50);
    const problem = traceProblem(actual, expected);
    expect(problem?.missing).toEqual(
      expect.arrayContaining(["urn:uuid:transformation", "urn:uuid:commission"]),
    );
    expect(problem?.message).toContain("1 of them first events");
  });

  it("names the hop that was not answered, keeping its exchange evidence", async () => {
    const expected = await traceBack(start, oracle(EVENTS), 50);
    const actual = await traceBack(
      start,
      async () => ({ kind: "failed", reason: "answered 500", evidence: { curl: "curl -sS 'x'" } }),
      50,
    );
    const problem = traceProblem(actual, expected);
    expect(problem?.message).toContain(`MATCH_anyEPC=${PALLET} was not answered: answered 500`);
    expect(problem?.curl).toBe("curl -sS 'x'");
  });

  it("does not judge events the target answers beyond those the oracle's walk reaches", async () => {
    const expected = await traceBack(start, oracle(EVENTS.filter((e) => e !== commission)), 50);
    const actual = await traceBack(start, oracle(EVENTS), 50);
    expect(traceProblem(actual, expected)).toBeUndefined();
  });
});

describe("a hop refused with 413 (spec 7: inconclusive, not a failure)", () => {
  const refusing =
    (value: string, ask: AskHop): AskHop =>
    async (hop) =>
      hop.value === value ? { kind: "refused", evidence: { message: "413 Query Too Complex" } } : ask(hop);

  it("is recorded and the walk goes on without it", async () => {
    const result = await traceBack(start, refusing(FILLET, oracle(EVENTS)), 50);
    expect([...result.refused.values()].map((r) => r.hop.value)).toEqual([FILLET]);
    expect(result.failed).toBeUndefined();
    // The lot of the fillets still leads back through the transformation to the commissioning.
    expect(result.reached.has("urn:uuid:commission")).toBe(true);
  });

  it("no false positive: what lies only behind the refused hop is not expected of the target", async () => {
    const onlyByEpc = EVENTS.map((e) => (e === packing ? { ...packing, childQuantityList: [] } : e));
    const actual = await traceBack(start, refusing(FILLET, oracle(onlyByEpc)), 50);
    const plain = await traceBack(start, oracle(onlyByEpc), 50);
    expect(traceProblem(actual, plain)).toBeDefined();
    const expected = await traceBack(start, alongWalk(oracle(onlyByEpc), actual), 50);
    expect(expected.reached.has("urn:uuid:transformation")).toBe(false);
    expect(traceProblem(actual, expected)).toBeUndefined();
  });

  it("still fails a target that leaves out events of a hop it did answer", async () => {
    const dropsCommission = oracle(EVENTS, (_q, e) => e === commission);
    const actual = await traceBack(start, refusing(FILLET_LOT, dropsCommission), 50);
    const expected = await traceBack(start, alongWalk(oracle(EVENTS), actual), 50);
    expect(traceProblem(actual, expected)?.missing).toEqual(["urn:uuid:commission"]);
  });
});

describe("identifiers matched only as written (the spec states form equivalence for bizStep alone)", () => {
  const dlFillet = epcUrnToDigitalLink(FILLET)!;
  const dlVessel = epcUrnToDigitalLink(VESSEL_ITEM)!;
  // The same chain, the transformation and the commissioning writing their EPCs and classes as Digital Links.
  const mixed = EVENTS.map((e) => {
    if (e === transformation) {
      const outputQuantityList = [{ epcClass: epcUrnToDigitalLink(FILLET_LOT)!, quantity: 10, uom: "KGM" }];
      return { ...transformation, inputEPCList: [dlVessel], outputEPCList: [dlFillet], outputQuantityList };
    }
    if (e === commission) return { ...commission, epcList: [dlVessel] };
    return e;
  });
  /** A sender that selects an event only when it holds the value asked exactly as written. */
  const asWritten =
    (events: readonly EpcisEvent[]): AskHop =>
    async (hop) => ({ kind: "events", events: events.filter((e) => holdsAsWritten(e, hopQuery(hop))) });
  const asWrittenOracle =
    (events: readonly EpcisEvent[]): AskHop =>
    async (hop) => ({ kind: "events", events: selectedAsWritten(events, hopQuery(hop)) });

  it("holdsAsWritten compares EPCs, classes and the business location as strings", () => {
    expect(holdsAsWritten(packing, { MATCH_anyEPC: [FILLET] })).toBe(true);
    expect(holdsAsWritten(packing, { MATCH_anyEPC: [dlFillet] })).toBe(false);
    expect(holdsAsWritten(packing, { MATCH_anyEPCClass: [FILLET_LOT] })).toBe(true);
    expect(holdsAsWritten(packing, { MATCH_anyEPCClass: [epcUrnToDigitalLink(FILLET_LOT)!] })).toBe(false);
    const at = { ...shipping, bizLocation: { id: "urn:epc:id:sgln:0614141.00001.0" } };
    expect(holdsAsWritten(at, { EQ_bizLocation: ["urn:epc:id:sgln:0614141.00001.0"] })).toBe(true);
    expect(holdsAsWritten(at, { EQ_bizLocation: ["https://id.gs1.org/414/0614141000012"] })).toBe(false);
    expect(holdsAsWritten(at, {})).toBe(true);
  });

  it("selectedAsWritten keeps the oracle's answer to the events that hold the value as asked", () => {
    expect(runOracle(mixed, { MATCH_anyEPC: [FILLET] }).map((e) => e.eventID)).toContain(
      "urn:uuid:transformation",
    );
    expect(selectedAsWritten(mixed, { MATCH_anyEPC: [FILLET] }).map((e) => e.eventID)).toEqual([
      "urn:uuid:packing",
    ]);
  });

  it("no false failure: a sender matching as written walks where the oracle's walk expects it to", async () => {
    const actual = await traceBack(start, asWritten(mixed), 50);
    // Held to the form-equivalent oracle, the sender would be blamed for the form alone.
    const byForms = await traceBack(start, oracle(mixed), 50);
    expect(traceProblem(actual, byForms)?.missing).toEqual(
      expect.arrayContaining(["urn:uuid:transformation", "urn:uuid:commission"]),
    );
    const expected = await traceBack(start, asWrittenOracle(mixed), 50);
    expect(traceProblem(actual, expected)).toBeUndefined();
    // A sender that matches every spelling reaches at least as much.
    expect(traceProblem(await traceBack(start, oracle(mixed), 50), expected)).toBeUndefined();
  });

  it("still fails a sender that leaves out an event holding the value exactly as asked", async () => {
    const dropsPacking: AskHop = async (hop) => {
      const answer = await asWritten(EVENTS)(hop);
      return answer.kind === "events"
        ? { ...answer, events: answer.events.filter((e) => e !== packing) }
        : answer;
    };
    const actual = await traceBack(start, dropsPacking, 50);
    const expected = await traceBack(start, asWrittenOracle(EVENTS), 50);
    expect(traceProblem(actual, expected)?.missing).toEqual(expect.arrayContaining(["urn:uuid:packing"]));
  });
});

describe("a walk cut at its bound (spec 1 sets no depth or order of a trace-back)", () => {
  // A pallet written as a URN, packed from three items written as URNs, and received under its Digital Link with
  // three more items written as Digital Links. A sender that matches a URN and its Digital Link as one EPC (as
  // EVT-EPC-FORMS asks) answers the pallet's URN with the receiving too; the Digital Links it leads to sort before
  // the URNs, so a walk of five queries asks them and never the items' URNs.
  const pallet = "urn:epc:id:sscc:0614141.1234567890";
  const items = [1, 2, 3].map((i) => `urn:epc:id:sgtin:0614141.107346.A${i}`);
  const received = [1, 2, 3].map((i) => epcUrnToDigitalLink(`urn:epc:id:sgtin:0614141.107346.B${i}`)!);
  const commissionOf = (epc: string, i: number): EpcisEvent => ({
    type: "ObjectEvent",
    eventID: `urn:uuid:commission-${i}`,
    action: "ADD",
    bizStep: "commissioning",
    epcList: [epc],
  });
  const cut: EpcisEvent[] = [
    ...items.map(commissionOf),
    ...received.map((epc, i) => commissionOf(epc, i + 10)),
    { ...packing, parentID: pallet, childEPCs: items, childQuantityList: [] },
    { ...shipping, epcList: [pallet] },
    {
      ...shipping,
      eventID: "urn:uuid:receiving",
      bizStep: "receiving",
      epcList: [epcUrnToDigitalLink(pallet)!, ...received],
    },
  ];
  const bound = 5;
  const palletStart: Hop[] = [{ parameter: "MATCH_anyEPC", value: pallet }];
  const asWrittenOracle: AskHop = async (hop) => ({
    kind: "events",
    events: selectedAsWritten(cut, hopQuery(hop)),
  });

  it("no false failure: a sender answering every spelling is held only to the queries its walk made", async () => {
    const actual = await traceBack(palletStart, oracle(cut), bound);
    expect(actual.bounded).toBe(true);
    expect(actual.asked.has(hopKey({ parameter: "MATCH_anyEPC", value: items[0]! }))).toBe(false);
    // Held to the oracle's own walk, cut where the oracle's answers cut it, the sender is blamed for the items'
    // commissioning, which it was never asked about.
    const alone = await traceBack(palletStart, asWrittenOracle, bound);
    expect(traceProblem(actual, alone)?.missing).toEqual(expect.arrayContaining(["urn:uuid:commission-0"]));
    const expected = await traceBack(
      palletStart,
      alongWalk(asWrittenOracle, actual),
      Number.POSITIVE_INFINITY,
    );
    expect(traceProblem(actual, expected)).toBeUndefined();
  });

  it("still fails a sender that leaves out events of a query its cut walk made", async () => {
    const dropsCommission = oracle(cut, (_q, e) => e.eventID === "urn:uuid:commission-10");
    const actual = await traceBack(palletStart, dropsCommission, bound);
    expect(actual.bounded).toBe(true);
    expect(actual.asked.has(hopKey({ parameter: "MATCH_anyEPC", value: received[0]! }))).toBe(true);
    const expected = await traceBack(palletStart, alongWalk(oracle(cut), actual), Number.POSITIVE_INFINITY);
    expect(traceProblem(actual, expected)?.missing).toEqual(["urn:uuid:commission-10"]);
  });

  it("fails a sender whose walk was not cut wherever the oracle's whole walk fails it", async () => {
    const dropsPacking = oracle(EVENTS, (_q, e) => e === packing);
    const actual = await traceBack(start, dropsPacking, 50);
    expect(actual.bounded).toBe(false);
    const whole = await traceBack(start, oracle(EVENTS), 50);
    const expected = await traceBack(start, alongWalk(oracle(EVENTS), actual), Number.POSITIVE_INFINITY);
    expect(traceProblem(actual, whole)?.missing).toContain("urn:uuid:packing");
    // What lies only behind the missed packing is not counted again; the missed event itself is.
    expect(traceProblem(actual, expected)?.missing).toEqual(["urn:uuid:packing"]);
  });
});
