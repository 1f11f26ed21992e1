// A failure shows the values that decide it beside the rule: against reference faults that break a time bound,
// bizStep matching, EPC matching and AND, each listed missing or extra event carries its eventTime, bizStep or EPCs
// in report.json (Evidence.eventValues, valid against schemas/report.schema.json), and report.html and junit.xml
// show them beside the bound or value asked.
import path from "node:path";
import { parse } from "node-html-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Evidence, RequirementResult } from "../../src/engine/types.ts";
import {
  bizStepsEqual,
  compareInstants,
  type EventQuery,
  idsEqual,
  matchesQuery,
  parseInstant,
  parseQueryString,
} from "../../src/model/index.ts";
import { validateReport } from "../../src/report/index.ts";
import { runCli, tempDir } from "../support/cli.ts";
import { readReports, type WrittenReports } from "../support/run-reports.ts";

/** A run of the events class on a loaded machine; this only bounds a hang. */
const RUN = 300_000;
const FAULTS = {
  "ge-event-exclusive": "EVT-TIME-GE-EVENT",
  "bizstep-ignored": "EVT-BIZSTEP-MATCH",
  "epc-ignores-parentid": "EVT-EPC-PARENTID",
  "and-as-or": "EVT-AND",
} as const;
type Fault = keyof typeof FAULTS;

let dir: string;
let remove: () => Promise<void>;
const runs = new Map<Fault, WrittenReports>();

beforeAll(async () => {
  ({ dir, remove } = await tempDir("failure-values"));
  for (const fault of Object.keys(FAULTS) as Fault[]) {
    const reportDir = path.join(dir, fault);
    const r = await runCli([
      "run",
      "--suite",
      "events",
      "--seed",
      "1",
      "--quiet",
      "--faults",
      fault,
      "--report-dir",
      reportDir,
    ]);
    if (r.code !== 1) throw new Error(`the run with ${fault} exited ${r.code}:\n${r.stderr}`);
    runs.set(fault, readReports(reportDir));
  }
}, RUN);
afterAll(() => remove());

function failure(fault: Fault): { requirement: RequirementResult; item: Evidence } {
  const requirement = runs.get(fault)!.json.requirements.find((q) => q.id === FAULTS[fault])!;
  expect(requirement.status, fault).toBe("fail");
  const item = requirement.evidence.find((e) => (e.missing?.length ?? 0) + (e.extra?.length ?? 0) > 0);
  expect(item, `${fault}: an item listing events`).toBeDefined();
  return { requirement, item: item! };
}

/** The listed ids, each with the values its evidence records of it; an id without values fails the test. */
function listed(item: Evidence): { id: string; side: "missing" | "extra" }[] {
  const ids = [
    ...(item.missing ?? []).map((id) => ({ id, side: "missing" as const })),
    ...(item.extra ?? []).map((id) => ({ id, side: "extra" as const })),
  ];
  for (const { id } of ids) expect(item.eventValues?.[id], id).toBeDefined();
  return ids;
}

function asked(item: Evidence) {
  return parseQueryString(new URL(item.request!.url).search).query;
}

describe("the values that decide a failure", () => {
  it("are valid against the report schema in every faulted run", () => {
    for (const [fault, run] of runs) expect(validateReport(run.json).errors, fault).toEqual([]);
  });

  it("give a time failure each missing event's eventTime, at the bound it was dropped at", () => {
    const { item } = failure("ge-event-exclusive");
    const bound = parseInstant(asked(item).GE_eventTime!);
    for (const { id, side } of listed(item)) {
      expect(side).toBe("missing");
      const at = item.eventValues![id]!.eventTime!;
      expect(compareInstants(parseInstant(at), bound), `${id} at ${at}`).toBe(0);
      expect(item.eventValues![id]).toEqual({ eventTime: at });
    }
  });

  it("give a bizStep failure each extra event's bizStep, none of them the step asked", () => {
    const { item } = failure("bizstep-ignored");
    const [step] = asked(item).EQ_bizStep!;
    for (const { id, side } of listed(item)) {
      expect(side).toBe("extra");
      const written = item.eventValues![id]!.bizStep;
      expect(written === undefined || !bizStepsEqual(written, step!), `${id}: ${written}`).toBe(true);
    }
  });

  it("give an EPC failure each missing event's EPCs, its parentID the EPC asked", () => {
    const { item } = failure("epc-ignores-parentid");
    const [epc] = asked(item).MATCH_anyEPC!;
    for (const { id } of listed(item)) {
      const parent = item.eventValues![id]!.parentID;
      expect(parent !== undefined && idsEqual(parent, epc!), `${id}: ${parent}`).toBe(true);
    }
  });

  it("give a failed AND each listed event's values in every field its query reads, enough to decide it", () => {
    const { item } = failure("and-as-or");
    const query = asked(item);
    const parameters = Object.keys(query) as (keyof EventQuery)[];
    for (const { id, side } of listed(item)) {
      // Answered as OR: the event meets one parameter, and its recorded values show that it does not meet all.
      expect(side).toBe("extra");
      const { more: _more, ...values } = item.eventValues![id]!;
      const event = { type: "ObjectEvent", ...values };
      expect(matchesQuery(event, query), id).toBe(false);
      expect(
        parameters.some((p) => matchesQuery(event, { [p]: query[p] } as EventQuery)),
        id,
      ).toBe(true);
    }
  });

  it("are shown in report.html beside what the query asks, never as ids alone", () => {
    for (const fault of Object.keys(FAULTS) as Fault[]) {
      const block = runs.get(fault)!.html.getElementById(`evidence-${FAULTS[fault]}`)!;
      expect(block.querySelector("table.events"), fault).not.toBeNull();
      expect(block.querySelectorAll("td.unknown"), fault).toHaveLength(0);
      expect(block.querySelector("p.unknown"), fault).toBeNull();
    }
    const time = runs.get("ge-event-exclusive")!.html.getElementById("evidence-EVT-TIME-GE-EVENT")!;
    const row = time.querySelector("table.events tbody tr")!.text;
    expect(row).toContain("meets it");
    expect(row).toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it("are in junit.xml's failure text, one line per event with the rule it meets or breaks", () => {
    const junit = parse(runs.get("bizstep-ignored")!.text["junit.xml"]).text;
    expect(junit).toMatch(/ {2}extra \S+: bizStep \S+, which does not meet EQ_bizStep \(bizStep equal to /);
    const time = parse(runs.get("ge-event-exclusive")!.text["junit.xml"]).text;
    expect(time).toMatch(
      / {2}missing \S+: eventTime \S+.*, which meets GE_eventTime \(eventTime at or after /,
    );
  });

  it("are named beside each listed event in the reason the console prints", () => {
    const reason = runs
      .get("ge-event-exclusive")!
      .json.requirements.find((q) => q.id === "EVT-TIME-GE-EVENT")!.reason;
    expect(reason).toMatch(/missing \(\S+ with eventTime \d{4}-/);
  });
});
