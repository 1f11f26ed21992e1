// Every pass carries the exchange that proves it (ARCHITECTURE.md "Evidence or it did not happen", CONTRACT.md): the
// harness is run against the reference in its default configuration and in the two that change what an answer looks
// like (`paged`: every answer paged; `refuse-broad`: broad queries refused with 413), and each pass of each report
// must carry the exchange its check recorded as the one that decides it (`pass(note, evidence)`), and rest on an
// answer rather than a refusal unless a refusal is the very proof.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Evidence, Report, RequirementResult } from "../../src/engine/types.ts";
import { runCli, tempDir } from "../support/cli.ts";
import { readReports } from "../support/run-reports.ts";

/** A whole run on a loaded machine; this only bounds a hang. */
const RUN = 300_000;
const CONFIGURATIONS = ["default", "paged", "refuse-broad"] as const;
type Configuration = (typeof CONFIGURATIONS)[number];

/**
 * The requirements whose pass may rest on a refusal alone, because the refusal is what they ask for: a missing or
 * wrong key (spec 5), a form the spec forbids or a value that is no dateTimeStamp (spec 4.1, 4.2), a repeated key
 * (spec 4.1 rule 2), and a query too broad to run (spec 7, 413 only).
 */
const REFUSAL_PROVES: Record<string, (status: number) => boolean> = {
  "AUTH-MISSING": (s) => s === 401 || s === 403,
  "AUTH-WRONG": (s) => s === 401 || s === 403,
  "AUTH-STATUS": (s) => s === 401 || s === 403,
  "AUTH-QUERY-STRING": (s) => s === 401 || s === 403,
  "EVT-TIME-FORMAT": (s) => s >= 400 && s < 500,
  "RES-NUMERIC-ONLY": (s) => s >= 400 && s < 500,
  "RES-AI-ORDER": (s) => s >= 400 && s < 500,
  "RES-AI-VALUE": (s) => s >= 400 && s < 500,
  "EVT-REPEAT-REFUSED": (s) => s >= 400 && s < 500,
  "EVT-REPEAT-PROBLEM": (s) => s === 400,
  "EVT-REPEAT-NOT-PIPE": (s) => s >= 400 && s < 500,
  "EVT-413-BROAD": (s) => s === 413,
  "EVT-UNFILTERED": (s) => s === 413,
};

/**
 * For the filter checks, the parameter the proof's query must carry: a proof is the check's own query, so that of
 * EVT-TIME-GE-EVENT asks GE_eventTime, never a query another check sent.
 */
const PROOF_ASKS: Record<string, RegExp> = {
  "EVT-TIME-LT-RECORD": /[?&]LT_recordTime=/,
  "EVT-TIME-GE-RECORD": /[?&]GE_recordTime=/,
  "EVT-TIME-LT-EVENT": /[?&]LT_eventTime=/,
  "EVT-TIME-GE-EVENT": /[?&]GE_eventTime=/,
  "EVT-TIME-PROBES": /[?&](LT|GE)_(record|event)Time=/,
  "EVT-TIME-FORMAT": /[?&](LT|GE)_(record|event)Time=/,
  "EVT-EPC-EPCLIST": /[?&]MATCH_anyEPC=/,
  "EVT-EPC-CHILDEPCS": /[?&]MATCH_anyEPC=/,
  "EVT-EPC-PARENTID": /[?&]MATCH_anyEPC=/,
  "EVT-EPC-INPUT": /[?&]MATCH_anyEPC=/,
  "EVT-EPC-OUTPUT": /[?&]MATCH_anyEPC=/,
  "EVT-EPC-FORMS": /[?&]MATCH_anyEPC=/,
  "EVT-CLASS-QUANTITY": /[?&]MATCH_anyEPCClass=/,
  "EVT-CLASS-CHILD": /[?&]MATCH_anyEPCClass=/,
  "EVT-CLASS-INPUT": /[?&]MATCH_anyEPCClass=/,
  "EVT-CLASS-OUTPUT": /[?&]MATCH_anyEPCClass=/,
  "EVT-CLASS-PATTERN": /[?&]MATCH_anyEPCClass=urn%3Aepc%3Aidpat%3A/,
  "EVT-CLASS-PATTERN-PREFIX": /[?&]MATCH_anyEPCClass=urn%3Aepc%3Aidpat%3A/,
  "EVT-CLASS-FORMS": /[?&]MATCH_anyEPCClass=/,
  "EVT-BIZSTEP-MATCH": /[?&]EQ_bizStep=/,
  "EVT-BIZSTEP-FORMS": /[?&]EQ_bizStep=/,
  "EVT-BIZSTEP-UNKNOWN": /[?&]EQ_bizStep=[^&]*tracecheck_unknown_step/,
  "EVT-TRANSFORMATION-ID": /[?&]EQ_transformationID=/,
  "EVT-BIZLOCATION": /[?&]EQ_bizLocation=/,
  "EVT-BIZLOCATION-FORMS": /[?&]EQ_bizLocation=/,
  "EVT-PIPE-OR": /=[^&]*%7C/,
};

let dir: string;
let remove: () => Promise<void>;
const reports = new Map<Configuration, Report>();

beforeAll(async () => {
  ({ dir, remove } = await tempDir("pass-proof"));
  // One at a time: the machine's cores are shared, and each run is about a second.
  for (const c of CONFIGURATIONS) {
    const reportDir = path.join(dir, c);
    const config = c === "default" ? [] : ["--reference-config", c];
    const r = await runCli(["run", "--seed", "1", "--quiet", ...config, "--report-dir", reportDir]);
    if (r.code !== 0)
      throw new Error(`the ${c} run exited ${r.code}:\n${r.stdout.slice(-3000)}\n${r.stderr}`);
    reports.set(c, readReports(reportDir).json);
  }
}, RUN);
afterAll(() => remove());

function passes(c: Configuration): RequirementResult[] {
  return reports.get(c)!.requirements.filter((q) => q.status === "pass");
}

/** The exchanges of a requirement's evidence: items with a request that got an answer. */
function exchanges(q: RequirementResult): (Evidence & Required<Pick<Evidence, "request" | "response">>)[] {
  return q.evidence.filter(
    (e): e is Evidence & Required<Pick<Evidence, "request" | "response">> =>
      e.request !== undefined && e.response !== undefined,
  );
}

describe.each(CONFIGURATIONS)("the reference in its %s configuration", (c) => {
  it("passes each requirement on an exchange its own check recorded", () => {
    const unproven = passes(c)
      .filter((q) => exchanges(q).length === 0)
      .map((q) => q.id);
    expect(passes(c).length).toBeGreaterThan(40);
    expect(unproven).toEqual([]);
  });

  it("passes on a refusal alone only where the refusal is the proof", () => {
    const onRefusals = passes(c).flatMap((q) => {
      const statuses = exchanges(q).map((e) => e.response.status);
      if (statuses.length === 0 || statuses.some((s) => s < 400)) return [];
      const proves = REFUSAL_PROVES[q.id];
      return proves !== undefined && statuses.every(proves) ? [] : [`${q.id} (${statuses.join(", ")})`];
    });
    expect(onRefusals).toEqual([]);
  });

  it("proves each filter requirement with a query of its own parameter", () => {
    const strays = passes(c).flatMap((q) => {
      const asks = PROOF_ASKS[q.id];
      const url = exchanges(q)[0]?.request.url;
      return asks === undefined || url === undefined || asks.test(url) ? [] : [`${q.id}: ${url}`];
    });
    expect(strays).toEqual([]);
  });

  it("shows the unfiltered query as the proof of EVT-UNFILTERED", () => {
    const unfiltered = passes(c).find((q) => q.id === "EVT-UNFILTERED");
    expect(unfiltered, "EVT-UNFILTERED passes").toBeDefined();
    const url = new URL(exchanges(unfiltered!)[0]!.request.url);
    expect(`${url.pathname}${url.search}`).toMatch(/\/events$/);
  });
});

describe("a combination of filters", () => {
  it("proves EVT-AND with an answered query of two parameters or more, under refuse-broad too", () => {
    for (const c of CONFIGURATIONS) {
      const and = passes(c).find((q) => q.id === "EVT-AND");
      expect(and, c).toBeDefined();
      const [proof] = exchanges(and!);
      expect(proof?.response.status, c).toBe(200);
      const keys = new Set(new URL(proof!.request.url).searchParams.keys());
      expect(keys.size, `${c}: ${proof!.request.url}`).toBeGreaterThanOrEqual(2);
    }
  });
});
