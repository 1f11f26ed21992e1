import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, describe, expect, it } from "vitest";
import { CONFORMANCE_CLASSES } from "../../src/report/classes.ts";
import { validateReport, writeReports } from "../../src/report/index.ts";
import { everyStatus, report, requirement } from "./build-report.ts";

const tmp = await mkdtemp(path.join(tmpdir(), "tracecheck-report-"));
afterAll(() => rm(tmp, { recursive: true, force: true }));

const schemaPath = path.resolve(import.meta.dirname, "../../schemas/report.schema.json");

function mutated(edit: (r: Record<string, unknown>) => void): unknown {
  const copy = JSON.parse(JSON.stringify(everyStatus())) as Record<string, unknown>;
  edit(copy);
  return copy;
}

describe("report.schema.json", () => {
  it("compiles under Ajv's strict mode, which a run's cached validator does not apply", async () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats.default(ajv);
    const schema = JSON.parse(await readFile(schemaPath, "utf8")) as object;
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it("accepts a report with every status and full evidence", () => {
    expect(validateReport(JSON.parse(JSON.stringify(everyStatus())))).toEqual({ valid: true, errors: [] });
  });

  it("accepts a report without the optional baseline, reasons and evidence members", () => {
    const minimal = report([requirement("EVT-ONE", "pass", { evidence: [{}] })]);
    delete minimal.baseline;
    expect(validateReport(JSON.parse(JSON.stringify(minimal))).valid).toBe(true);
  });

  it("takes each requirement's spec quote as a string, and a report from before it had one", () => {
    const r = JSON.parse(JSON.stringify(everyStatus())) as { requirements: Record<string, unknown>[] };
    expect(r.requirements.every((q) => typeof q["spec"] === "string")).toBe(true);
    expect(validateReport(r).valid).toBe(true);
    for (const q of r.requirements) delete q["spec"];
    expect(validateReport(r).valid).toBe(true);
    r.requirements[0]!["spec"] = 3;
    const wrong = validateReport(r);
    expect(wrong.valid).toBe(false);
    expect(wrong.errors.join("\n")).toContain("/requirements/0/spec");
  });

  it("takes blockedBy on a skip, and on no other status", () => {
    const blocked = requirement("RES-LINKTYPES", "skip", { blockedBy: "RES-ANCHOR" });
    const r = report([requirement("RES-ANCHOR", "fail"), blocked]);
    expect(validateReport(JSON.parse(JSON.stringify(r)))).toEqual({ valid: true, errors: [] });
    blocked.status = "fail";
    const wrong = report([requirement("RES-ANCHOR", "fail"), blocked]);
    expect(validateReport(JSON.parse(JSON.stringify(wrong))).valid).toBe(false);
  });

  it("takes the changes a --baseline run records, and names a status outside the five in them", () => {
    const changes = (to: string) => ({
      baseline: "/old/report.json",
      newlyFailing: [{ id: "A", from: "pass", to }],
      newlyPassing: [],
      changed: [],
      added: [],
      removed: [],
      regressed: true,
    });
    expect(validateReport(mutated((r) => (r["changes"] = changes("fail"))))).toEqual({
      valid: true,
      errors: [],
    });
    const wrong = validateReport(mutated((r) => (r["changes"] = changes("broken"))));
    expect(wrong.errors.join("\n")).toContain("/changes/newlyFailing/0/to");
  });

  it("rejects a report without a summary and names the member", () => {
    const result = validateReport(mutated((r) => delete r["summary"]));
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toContain("summary");
  });

  it("rejects a status outside the five verdicts", () => {
    const result = validateReport(
      mutated((r) => {
        (r["requirements"] as Record<string, unknown>[])[0]!["status"] = "passed";
      }),
    );
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toMatch(/\/requirements\/0\/status .*pass, fail, warn, skip, error/);
  });

  it.each([
    ["an unknown top-level member", (r: Record<string, unknown>) => (r["extra"] = 1)],
    ["a bad level", (r: Record<string, unknown>) => (first(r)["level"] = "MUST NOT")],
    ["a bad class", (r: Record<string, unknown>) => (first(r)["class"] = "shipping")],
    ["an unknown evidence member", (r: Record<string, unknown>) => (firstEvidence(r)["screenshot"] = "x")],
    [
      "a header that is not a string",
      (r: Record<string, unknown>) => (firstRequest(r)["headers"] = { a: 1 }),
    ],
    [
      "a tool that is not tracecheck",
      (r: Record<string, unknown>) => (r["tool"] = { name: "x", version: "1" }),
    ],
    ["a startedAt that is not a date-time", (r: Record<string, unknown>) => (r["startedAt"] = "yesterday")],
    ["a fractional seed", (r: Record<string, unknown>) => (r["seed"] = 1.5)],
    [
      "a summary that miscounts",
      (r: Record<string, unknown>) => ((r["summary"] as { pass: number }).pass += 1),
    ],
    ["a repeated requirement id", (r: Record<string, unknown>) => (first(r)["id"] = second(r)["id"])],
    [
      "a recorded change to a status outside the five",
      (r: Record<string, unknown>) =>
        (r["changes"] = {
          baseline: "/old/report.json",
          newlyFailing: [{ id: "A", from: "pass", to: "broken" }],
          newlyPassing: [],
          changed: [],
          added: [],
          removed: [],
          regressed: true,
        }),
    ],
  ])("rejects %s", (_name, edit) => {
    const result = validateReport(mutated(edit));
    expect(result.valid).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
  });

  it("lists the same classes, statuses and levels as the Report types", async () => {
    const schema = JSON.parse(await readFile(schemaPath, "utf8")) as {
      $defs: Record<string, { enum: string[] }>;
    };
    expect(schema.$defs["status"]!.enum).toEqual(["pass", "fail", "warn", "skip", "error"]);
    expect(schema.$defs["level"]!.enum).toEqual(["MUST", "SHOULD", "MAY"]);
    expect(schema.$defs["conformanceClass"]!.enum).toEqual(CONFORMANCE_CLASSES);
  });
});

function first(r: Record<string, unknown>): Record<string, unknown> {
  return (r["requirements"] as Record<string, unknown>[])[0]!;
}
function second(r: Record<string, unknown>): Record<string, unknown> {
  return (r["requirements"] as Record<string, unknown>[])[1]!;
}
function firstEvidence(r: Record<string, unknown>): Record<string, unknown> {
  const failing = (r["requirements"] as { status: string; evidence: Record<string, unknown>[] }[]).find(
    (x) => x.status === "fail",
  );
  return failing!.evidence[0]!;
}
function firstRequest(r: Record<string, unknown>): Record<string, unknown> {
  return firstEvidence(r)["request"] as Record<string, unknown>;
}

describe("writeReports", () => {
  it("creates the directory and writes three files, report.json valid, pretty, newline-terminated", async () => {
    const dir = path.join(tmp, "nested", "run");
    const paths = await writeReports(everyStatus(), dir);
    expect(paths).toEqual({
      json: path.join(dir, "report.json"),
      junit: path.join(dir, "junit.xml"),
      html: path.join(dir, "report.html"),
    });
    for (const file of Object.values(paths)) expect((await stat(file)).size).toBeGreaterThan(0);
    const text = await readFile(paths.json, "utf8");
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).toContain('\n  "tool": {');
    const parsed: unknown = JSON.parse(text);
    expect(validateReport(parsed)).toEqual({ valid: true, errors: [] });
    expect(parsed).toEqual(JSON.parse(JSON.stringify(everyStatus())));
  });

  it("writes a bigint in evidence as its decimal digits", async () => {
    const r = report([
      requirement("EVT-INSTANT", "fail", { evidence: [{ counterexample: { epochSeconds: 10n ** 20n } }] }),
    ]);
    const paths = await writeReports(r, path.join(tmp, "bigint"));
    const parsed = JSON.parse(await readFile(paths.json, "utf8")) as typeof r;
    expect(parsed.requirements[0]!.evidence[0]!.counterexample).toEqual({
      epochSeconds: "100000000000000000000",
    });
  });

  it("refuses a report that breaks the schema and writes nothing", async () => {
    const dir = path.join(tmp, "refused");
    const bad = { ...everyStatus(), summary: { pass: 99, fail: 0, warn: 0, skip: 0, error: 0 } };
    await expect(writeReports(bad, dir)).rejects.toThrow(/schemas\/report\.schema\.json/);
    await expect(stat(dir)).rejects.toThrow();
  });
});
