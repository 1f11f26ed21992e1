// The core-events and workflow classes judged through the command, against the reference: which events are core
// events rests on x-std-core-events (spec 6 does not show its further columns), so a mismatch is a warning against
// tracecheck's own rows and a failure against a definition the user gives, wherever that definition puts the
// extension; events outside the seven fail nothing; a setup party and location reachable with gs1:epcis alone
// pass (spec 4.2).
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEFAULT_DEFINITION_FILE } from "../../src/definition/index.ts";
import { runForReport, tempDir, verdictIn } from "../support/cli.ts";

// Runs of one or two classes; the bound only catches a hang on a loaded machine.
const RUN = 300_000;

let dir: string;
let remove: () => Promise<void>;
let vendorDefinition: string;

beforeAll(async () => {
  ({ dir, remove } = await tempDir("core-events-runs"));
  // A vendor's definition that writes x-std-core-events its own way: under info, as rows keyed by the event's
  // name, with the columns named as spec 6's table names them. Its module schemas are named by absolute paths, so
  // that the file can live elsewhere.
  const raw = parse(await readFile(DEFAULT_DEFINITION_FILE, "utf8")) as Record<string, unknown>;
  const rows = raw["x-std-core-events"] as Record<string, unknown>[];
  delete raw["x-std-core-events"];
  (raw.info as Record<string, unknown>)["x-std-core-events"] = Object.fromEntries(
    rows.map(({ name, eventType, action, bizStep, disposition }) => [
      name,
      {
        "Event type": eventType,
        Action: action ?? "none",
        "Business step": bizStep,
        Disposition: disposition,
      },
    ]),
  );
  const modules = raw["x-modules"] as { schema: string }[];
  for (const m of modules) m.schema = path.resolve(path.dirname(DEFAULT_DEFINITION_FILE), m.schema);
  vendorDefinition = path.join(dir, "vendor.openapi.json");
  await writeFile(vendorDefinition, JSON.stringify(raw));
}, RUN);
afterAll(() => remove());

type Run = Awaited<ReturnType<typeof runForReport>>;

function run(label: string, args: readonly string[]): Promise<Run> {
  return runForReport(dir, label, ["--seed", "2", "--quiet", ...args]);
}

const verdict = (r: Run, id: string) => verdictIn(r.report, id);

describe("CORE-SIGNATURE: which events are core events is the definition's to say", () => {
  it(
    "a Commission with the wrong action fails at MUST against the vendor's x-std-core-events, wherever it sits",
    async () => {
      const r = await run("fault-vendor", [
        "--suite",
        "core-events,definition",
        "--faults",
        "core-commission-action",
        "--definition",
        vendorDefinition,
      ]);
      expect(r.code, r.stderr).toBe(1);
      expect(verdict(r, "DEF-CORE-EVENTS")).toMatchObject({ status: "pass" });
      const signature = verdict(r, "CORE-SIGNATURE");
      expect(signature).toMatchObject({ status: "fail", level: "MUST" });
      expect(signature.reason).toContain("is a Commission (ObjectEvent at bizStep");
      expect(signature.reason).toContain("with action OBSERVE where spec 6 fixes ADD");
      expect(signature.reason).toContain(`the rows of x-std-core-events in ${vendorDefinition}`);
      expect(signature.evidence[0]?.request?.url).toMatch(/\/events\?/);
    },
    RUN,
  );

  it(
    "the same mismatch is a warning against tracecheck's own rows, which the spec does not show",
    async () => {
      const r = await run("fault-own", ["--suite", "core-events", "--faults", "core-commission-action"]);
      expect(r.code, r.stderr).toBe(0);
      const signature = verdict(r, "CORE-SIGNATURE");
      expect(signature).toMatchObject({ status: "warn", level: "SHOULD" });
      expect(signature.reason).toContain("tracecheck's own x-std-core-events");
    },
    RUN,
  );

  it(
    "events outside the seven fail nothing, with the vendor's definition too: CORE-TYPE reports them",
    async () => {
      const r = await run("outside-core", [
        "--suite",
        "core-events",
        "--reference-config",
        "outside-core",
        "--definition",
        vendorDefinition,
      ]);
      expect(r.code, r.stderr).toBe(0);
      for (const id of ["CORE-SIGNATURE", "CORE-COLUMNS", "CORE-MODULE-CORE"]) {
        const passed = verdict(r, id);
        expect(passed, id).toMatchObject({ status: "pass", level: "MUST" });
        // The pass carries the GET /events answer that serves an event it judged.
        expect(passed.evidence[0]?.request?.url, id).toMatch(
          /\/events\?(MATCH_anyEPC|MATCH_anyEPCClass|EQ_)/,
        );
        expect(passed.evidence[0]?.response?.status, id).toBe(200);
      }
      const type = verdict(r, "CORE-TYPE");
      expect(type).toMatchObject({ status: "warn", level: "SHOULD" });
      expect(type.reason).toMatch(/^3 of \d+ events match none of the seven core event signatures/);
      expect(type.reason).toContain("(AggregationEvent, bizStep receiving) matches none");
    },
    RUN,
  );
});

describe("FLOW-SETUP: a party and location reachable with gs1:masterData or gs1:epcis (spec 4.2)", () => {
  it(
    "passes where the setup party and GLN offer gs1:epcis alone, with the link set that shows it",
    async () => {
      const r = await run("epcis-only", ["--suite", "workflow", "--reference-config", "parties-epcis-only"]);
      expect(r.code, r.stderr).toBe(0);
      const setup = verdict(r, "FLOW-SETUP");
      expect(setup.status).toBe("pass");
      expect(setup.evidence[0]?.message).toMatch(/offers gs1:epcis \(.*\/events.*\) and no gs1:masterData/);
      expect(setup.evidence[0]?.request?.url).toMatch(/\/(417|414)\/\d{13}\?linkType=linkset$/);
    },
    RUN,
  );

  it(
    "fails where an offered masterData link leads to wrong data, and where the party reaches nothing",
    async () => {
      const wrong = await run("wrong-type", [
        "--suite",
        "workflow",
        "--faults",
        "md-wrong-type-organization",
      ]);
      expect(wrong.code, wrong.stderr).toBe(1);
      expect(verdict(wrong, "FLOW-SETUP")).toMatchObject({ status: "fail", level: "MUST" });
      expect(verdict(wrong, "FLOW-SETUP").reason).toMatch(/^setup: the party .* leads to wrong master data/);
      const unknown = await run("no-pgln", ["--suite", "workflow", "--faults", "res-no-pgln"]);
      expect(unknown.code, unknown.stderr).toBe(1);
      expect(verdict(unknown, "FLOW-SETUP").reason).toMatch(
        /^setup: the party .* is not reachable at the sender's resolver/,
      );
    },
    RUN,
  );

  it(
    "passes with the master data document where the link set offers it",
    async () => {
      const r = await run("master-data", ["--suite", "workflow"]);
      expect(r.code, r.stderr).toBe(0);
      const setup = verdict(r, "FLOW-SETUP");
      expect(setup.status).toBe("pass");
      expect(setup.evidence[0]?.message).toMatch(/leads to its gs1:(Organization|Place)$/);
      expect(setup.evidence[0]?.request?.url).toMatch(/\/masterdata\/(417|414)\//);
    },
    RUN,
  );
});
