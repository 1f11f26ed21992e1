import { describe, expect, it } from "vitest";
import { answerProblem, relationProblem } from "../../src/assertions/query-answer.ts";
import type { EpcisEvent } from "../../src/model/types.ts";

const SGTIN_URN = "urn:epc:id:sgtin:0614141.107346.2017";
// The same SGTIN as a Digital Link: GTIN 10614141073464, serial 2017.
const SGTIN_DL = "https://id.gs1.org/01/10614141073464/21/2017";
const OTHER = "urn:epc:id:sgtin:0614141.107346.2018";

function event(id: string, fields: Partial<EpcisEvent>): EpcisEvent {
  return { type: "ObjectEvent", eventID: id, eventTime: "2024-03-01T10:00:00Z", ...fields };
}

const inList = event("e1", { epcList: [SGTIN_URN], bizStep: "shipping" });
const asChild = event("e2", { type: "AggregationEvent", childEPCs: [SGTIN_DL], bizStep: "packing" });
const unrelated = event("e3", { epcList: [OTHER], bizStep: "shipping" });
const known = [inList, asChild, unrelated];

describe("answerProblem", () => {
  it("accepts the answer the oracle gives, whatever form the EPC is written in", () => {
    expect(
      answerProblem({ query: { MATCH_anyEPC: [SGTIN_DL] }, answered: [asChild, inList], known }),
    ).toBeUndefined();
  });

  it("names the expected events that are missing", () => {
    const problem = answerProblem({ query: { MATCH_anyEPC: [SGTIN_URN] }, answered: [inList], known });
    expect(problem?.evidence.missing).toEqual(["e2"]);
    expect(problem?.reason).toContain(`1 expected event(s) missing (e2 with childEPCs ${SGTIN_DL})`);
    expect(problem?.evidence.expected).toEqual({
      query: "MATCH_anyEPC=urn%3Aepc%3Aid%3Asgtin%3A0614141.107346.2017",
      events: 2,
    });
  });

  it("leaves to other checks the missing events it does not blame", () => {
    const blames = (e: EpcisEvent) => (e.epcList ?? []).includes(SGTIN_URN);
    expect(
      answerProblem({ query: { MATCH_anyEPC: [SGTIN_URN] }, answered: [inList], known, blames }),
    ).toBeUndefined();
    expect(
      answerProblem({ query: { MATCH_anyEPC: [SGTIN_URN] }, answered: [asChild], known, blames })?.evidence
        .missing,
    ).toEqual(["e1"]);
  });

  it("names answered events that do not meet the query", () => {
    const problem = answerProblem({
      query: { EQ_bizStep: ["shipping"] },
      answered: [inList, unrelated, asChild],
      known,
    });
    expect(problem?.evidence.extra).toEqual(["e2"]);
    expect(problem?.evidence.missing).toEqual([]);
  });

  it("accepts an unknown event that meets the query, since the known events may be partial", () => {
    const unseen = event("e4", { epcList: [SGTIN_URN] });
    expect(
      answerProblem({ query: { MATCH_anyEPC: [SGTIN_URN] }, answered: [inList, asChild, unseen], known }),
    ).toBeUndefined();
  });

  it("fails an event answered twice", () => {
    const problem = answerProblem({
      query: { EQ_bizStep: ["packing"] },
      answered: [asChild, asChild],
      known,
    });
    expect(problem?.reason).toContain("answered twice");
    expect(problem?.evidence.actual).toEqual({ events: 2, duplicated: ["e2"] });
  });

  it("records each missing and extra event's values in the fields the query reads, and no other", () => {
    const problem = answerProblem({
      query: { EQ_bizStep: ["urn:epcglobal:cbv:bizstep:shipping"], MATCH_anyEPC: [SGTIN_URN] },
      answered: [asChild],
      known,
    });
    expect(problem?.evidence.missing).toEqual(["e1"]);
    expect(problem?.evidence.extra).toEqual(["e2"]);
    expect(problem?.evidence.eventValues).toEqual({
      e1: { bizStep: "shipping", epcList: [SGTIN_URN] },
      e2: { bizStep: "packing", childEPCs: [SGTIN_DL] },
    });
    expect(problem?.reason).toContain("e2 with bizStep packing, childEPCs");
  });

  it("puts a failed time bound's events beside it with their times, in UTC too when written at an offset", () => {
    const at = event("t", { eventTime: "2024-03-01T12:00:00.5+02:00", bizStep: "shipping" });
    const problem = answerProblem({
      query: { GE_eventTime: "2024-03-01T10:00:00.500Z" },
      answered: [],
      known: [at],
    });
    expect(problem?.evidence.eventValues).toEqual({ t: { eventTime: "2024-03-01T12:00:00.5+02:00" } });
    expect(problem?.reason).toContain(
      "missing (t with eventTime 2024-03-01T12:00:00.5+02:00 (2024-03-01T10:00:00.5Z))",
    );
  });

  it("holds LT strict and GE inclusive across offsets", () => {
    const at = event("t", { eventTime: "2024-03-01T12:00:00.5+02:00" });
    const bound = "2024-03-01T10:00:00.500Z";
    expect(answerProblem({ query: { LT_eventTime: bound }, answered: [], known: [at] })).toBeUndefined();
    expect(
      answerProblem({ query: { LT_eventTime: bound }, answered: [at], known: [at] })?.evidence.extra,
    ).toEqual(["t"]);
    expect(
      answerProblem({ query: { GE_eventTime: bound }, answered: [], known: [at] })?.evidence.missing,
    ).toEqual(["t"]);
  });
});

describe("relationProblem", () => {
  it("accepts two equal sets in any order", () => {
    expect(relationProblem("A|B equals A ∪ B", [inList, asChild], [asChild, inList])).toBeUndefined();
  });

  it("names what is missing and what is extra, with the relation in the reason", () => {
    const problem = relationProblem("A|B equals A ∪ B", [inList, asChild], [asChild, unrelated]);
    expect(problem?.reason.startsWith("A|B equals A ∪ B does not hold")).toBe(true);
    expect(problem?.evidence.missing).toEqual(["e1"]);
    expect(problem?.evidence.extra).toEqual(["e3"]);
    expect(problem?.evidence.eventValues).toBeUndefined();
  });

  it("records the listed events' values in the fields of the query whose answer is compared, when given", () => {
    const problem = relationProblem("A|B equals A ∪ B", [inList, asChild], [asChild, unrelated], {
      EQ_bizStep: ["shipping", "packing"],
    });
    expect(problem?.evidence.eventValues).toEqual({
      e1: { bizStep: "shipping" },
      e3: { bizStep: "shipping" },
    });
    expect(problem?.reason).toContain("(e1 with bizStep shipping)");
  });

  it("writes a relation given as a function only when the relation fails", () => {
    let written = 0;
    const name = () => {
      written += 1;
      return "A|B for EQ_bizStep=a%7Cb";
    };
    expect(relationProblem(name, [inList, asChild], [asChild, inList])).toBeUndefined();
    expect(written).toBe(0);
    const problem = relationProblem(name, [inList, asChild], [asChild]);
    expect(problem?.reason.startsWith("A|B for EQ_bizStep=a%7Cb does not hold")).toBe(true);
    expect(written).toBe(1);
  });
});
