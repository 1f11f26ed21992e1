// One defect, one failure, as the resolver and workflow classes apply it: which requirements of the run explain
// what a check of a link or of the exchange found wrong, and how the finding is recorded (blocked by those the run
// checks, which the aggregation keeps only where one of them failed; a failure where the run checks none).
import { describe, expect, it } from "vitest";
import {
  answerExplainedBy,
  atTargetEvents,
  classOfRequirement,
  failUnlessExplained,
  judgedInRun,
  selectsIdentifierAlone,
} from "../../src/assertions/blockers.ts";
import type { RunContext } from "../../src/engine/context.ts";
import { loadRegistry } from "../../src/engine/registry.ts";
import { makeChecks } from "../../src/engine/suite.ts";
import type { Requirement } from "../../src/engine/types.ts";
import { aggregate, type CheckVerdict } from "../../src/engine/verdicts.ts";
import { canonicalId, type EpcisEvent } from "../../src/model/index.ts";
import { walkExplainedBy } from "../../suites/workflow/support/walk.ts";

const SSCC_URN = "urn:epc:id:sscc:5613104.0000000042";
const SSCC = canonicalId(SSCC_URN);
const LOT_URN = "urn:epc:class:lgtin:5613104.004000.L9";
const GTIN_PATTERN = "urn:epc:idpat:sgtin:5613104.004000.*";
const PLANT = canonicalId("urn:epc:id:sgln:5613104.00001.0");

function event(n: number, fields: Partial<EpcisEvent>): EpcisEvent {
  return { type: "ObjectEvent", eventID: `urn:uuid:00000000-0000-4000-8000-00000000000${n}`, ...fields };
}

const IN_EPC_LIST = event(1, { action: "OBSERVE", epcList: [SSCC_URN] });
const AS_PARENT = event(2, { type: "AggregationEvent", action: "ADD", parentID: SSCC_URN, childEPCs: [] });
const IN_QUANTITIES = event(3, { action: "OBSERVE", quantityList: [{ epcClass: LOT_URN, quantity: 2 }] });

const EPC_FILTERS = [
  "EVT-EPC-EPCLIST",
  "EVT-EPC-CHILDEPCS",
  "EVT-EPC-PARENTID",
  "EVT-EPC-INPUT",
  "EVT-EPC-OUTPUT",
];

describe("the class of a requirement, by its id", () => {
  it("is the class the registry gives every requirement", async () => {
    const registry = await loadRegistry();
    for (const r of registry.requirements) expect(classOfRequirement(r.id), r.id).toBe(r.class);
  });

  it("counts a requirement as checked only where its class is selected and a proving run's --only names it", () => {
    const ctx = { classes: ["events", "workflow"] } as Pick<RunContext, "classes" | "onlyRequirements">;
    expect(judgedInRun(ctx, "EVT-EPC-EPCLIST")).toBe(true);
    expect(judgedInRun(ctx, "RES-EPCIS-LINK")).toBe(false);
    const only = { ...ctx, onlyRequirements: ["FLOW-TRACEBACK"] };
    expect(judgedInRun(only, "EVT-EPC-EPCLIST")).toBe(false);
    expect(judgedInRun(only, "FLOW-TRACEBACK")).toBe(true);
  });
});

describe("answerExplainedBy: the requirements of GET /events a wrong answer may be the failure of", () => {
  it("names the filter of the fields where the lacking events hold the EPC asked, and paging", () => {
    const query = { MATCH_anyEPC: [SSCC_URN] };
    expect(answerExplainedBy(query, [IN_EPC_LIST])).toEqual(["EVT-EPC-EPCLIST", "EVT-PAGING"]);
    expect(answerExplainedBy(query, [IN_EPC_LIST, AS_PARENT])).toEqual([
      "EVT-EPC-EPCLIST",
      "EVT-EPC-PARENTID",
      "EVT-PAGING",
    ]);
  });

  it("names every field of the parameter where no lacking event tells which (events answered that should not be)", () => {
    expect(answerExplainedBy({ MATCH_anyEPC: [SSCC_URN] })).toEqual([...EPC_FILTERS, "EVT-PAGING"]);
    // An event holding it only in another spelling tells nothing either.
    expect(answerExplainedBy({ MATCH_anyEPC: [SSCC] }, [IN_EPC_LIST])).toEqual([
      ...EPC_FILTERS,
      "EVT-PAGING",
    ]);
  });

  it("names a class pattern's requirement with the list that holds a class it covers", () => {
    expect(answerExplainedBy({ MATCH_anyEPCClass: [GTIN_PATTERN] }, [IN_QUANTITIES])).toEqual([
      "EVT-CLASS-QUANTITY",
      "EVT-CLASS-PATTERN",
      "EVT-PAGING",
      // The pattern's "*" is a character EVT-ENCODING holds to percent-encoding.
      "EVT-ENCODING",
    ]);
    expect(answerExplainedBy({ MATCH_anyEPCClass: [LOT_URN] }, [IN_QUANTITIES])).toEqual([
      "EVT-CLASS-QUANTITY",
      "EVT-PAGING",
    ]);
  });

  it("names the location filter, combination, pipe and encoding where the query has them", () => {
    expect(answerExplainedBy({ EQ_bizLocation: [PLANT] })).toEqual(["EVT-BIZLOCATION", "EVT-PAGING"]);
    expect(
      answerExplainedBy({ EQ_bizLocation: [PLANT, SSCC], GE_eventTime: "2024-01-01T00:00:00Z" }),
    ).toEqual(["EVT-BIZLOCATION", "EVT-TIME-GE-EVENT", "EVT-PIPE-OR", "EVT-AND", "EVT-PAGING"]);
    expect(answerExplainedBy({ MATCH_anyEPC: ["urn:epc:id:sgtin:5613104.004000.A%2FB"] }, [])).toContain(
      "EVT-ENCODING",
    );
  });
});

describe("what a wrong answer is the query interface's", () => {
  it("is a query for the identifier alone, in any spelling", () => {
    expect(selectsIdentifierAlone({ MATCH_anyEPC: [SSCC_URN] }, SSCC)).toBe(true);
    expect(selectsIdentifierAlone({ MATCH_anyEPC: [SSCC] }, SSCC_URN)).toBe(true);
    // A query the link narrows otherwise, or one for another identifier, answers for the link.
    expect(selectsIdentifierAlone({ MATCH_anyEPC: [SSCC], GE_eventTime: "2024-01-01T00:00:00Z" }, SSCC)).toBe(
      false,
    );
    expect(selectsIdentifierAlone({ MATCH_anyEPC: [SSCC, PLANT] }, SSCC)).toBe(false);
    expect(selectsIdentifierAlone({}, SSCC)).toBe(false);
  });

  it("is asked at the target's own GET /events, not at another path or origin", () => {
    const ctx = { eventsBase: "http://127.0.0.1:8080/epcis" } as RunContext;
    expect(atTargetEvents(ctx, "http://127.0.0.1:8080/epcis/events?MATCH_anyEPC=x")).toBe(true);
    expect(atTargetEvents(ctx, "http://127.0.0.1:8080/epcis/events/")).toBe(true);
    expect(atTargetEvents(ctx, "http://127.0.0.1:8080/epcis/event?MATCH_anyEPC=x")).toBe(false);
    expect(atTargetEvents(ctx, "http://other.example/epcis/events")).toBe(false);
  });
});

describe("failUnlessExplained: blocked by the requirements the run checks, else a failure", () => {
  const requirement = (id: string): Requirement =>
    ({ id, level: "MUST", class: "workflow", section: "1", title: id, spec: "" }) as Requirement;
  const ctx = (classes: RunContext["classes"]) => ({ classes }) as RunContext;
  const record = (c: RunContext): CheckVerdict[] => {
    const sink: CheckVerdict[] = [];
    failUnlessExplained(makeChecks("FLOW-PRODUCT", sink), c, ["RES-PATH-SSCC", "EVT-PAGING"], "no link set");
    return sink;
  };

  it("is a skip naming the one that failed, where the run checks it", () => {
    const pathFailed: CheckVerdict = { id: "RES-PATH-SSCC", status: "fail", reason: "404" };
    const r = aggregate(
      requirement("FLOW-PRODUCT"),
      [pathFailed, ...record(ctx(["resolver", "workflow"]))],
      "",
    );
    expect([r.status, r.reason]).toEqual(["skip", "blocked by RES-PATH-SSCC, which failed: no link set"]);
  });

  it("names only the requirements the run checks, and fails as it would alone where none of them failed", () => {
    const sink = record(ctx(["resolver", "workflow"]));
    expect(sink[0]?.blockedBy).toEqual(["RES-PATH-SSCC"]);
    // The path's own check may have drawn other identifiers: the defect this one met is still failed, here.
    const passed: CheckVerdict = { id: "RES-PATH-SSCC", status: "pass" };
    const r = aggregate(requirement("FLOW-PRODUCT"), [passed, ...sink], "");
    expect([r.status, r.reason]).toEqual(["fail", "no link set"]);
  });

  it("fails as it would alone where the run checks none of them", () => {
    const sink = record(ctx(["workflow"]));
    expect(sink).toEqual([{ id: "FLOW-PRODUCT", status: "fail", reason: "no link set" }]);
  });
});

describe("walkExplainedBy: what a trace-back that fell short is traced back to", () => {
  const hop = { parameter: "MATCH_anyEPC" as const, value: SSCC_URN };
  const events = [IN_EPC_LIST, AS_PARENT, IN_QUANTITIES];

  it("names the filter of a hop answered without events its query selects as written", () => {
    const asked = [{ hop, answer: { kind: "events" as const, events: [IN_EPC_LIST] } }];
    expect(walkExplainedBy(asked, events)).toEqual(["EVT-EPC-PARENTID", "EVT-PAGING"]);
  });

  it("names nothing where every hop was answered right, and what explains a hop not answered", () => {
    const right = [{ hop, answer: { kind: "events" as const, events: [IN_EPC_LIST, AS_PARENT] } }];
    expect(walkExplainedBy(right, events)).toEqual([]);
    const broken = [
      ...right,
      {
        hop: { parameter: "MATCH_anyEPCClass" as const, value: LOT_URN },
        answer: { kind: "failed" as const, reason: "pages go round", evidence: {} },
        failedBy: ["EVT-PAGING"],
      },
    ];
    expect(walkExplainedBy(broken, events)).toEqual(["EVT-PAGING"]);
  });
});
