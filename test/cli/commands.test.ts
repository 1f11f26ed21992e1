// faults, fixtures, serve and diff as a user calls them (CONTRACT.md).
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createValidators } from "../../src/definition/index.ts";
import { loadRegistry, type Registry } from "../../src/engine/registry.ts";
import { validateReport } from "../../src/report/index.ts";
import { REPO_ROOT, runCli, tempDir } from "../support/cli.ts";
import { reportWith, writeReport } from "../support/reports.ts";
import { type ServeProcess, startServe } from "../support/serve.ts";

let dir: string;
let remove: () => Promise<void>;
let registry: Registry;
const serving: ServeProcess[] = [];

beforeAll(async () => {
  ({ dir, remove } = await tempDir("commands"));
  registry = await loadRegistry();
});
afterAll(async () => {
  await Promise.all(serving.map((s) => s.stop()));
  await remove();
});

describe("tracecheck faults --json", () => {
  it("prints the catalogue: at least 40 faults, unique ids, each violating requirements of the registry", async () => {
    const { code, stdout } = await runCli(["faults", "--json"]);
    expect(code).toBe(0);
    const faults = JSON.parse(stdout) as { id: string; description: string; violates: string[] }[];
    expect(Array.isArray(faults)).toBe(true);
    expect(faults.length).toBeGreaterThanOrEqual(40);
    expect(new Set(faults.map((f) => f.id)).size).toBe(faults.length);
    for (const f of faults) {
      expect(Object.keys(f).sort()).toEqual(["description", "id", "violates"]);
      expect(f.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(f.description.trim().length).toBeGreaterThan(10);
      expect(f.violates.length, f.id).toBeGreaterThan(0);
      const unknown = f.violates.filter((id) => !registry.byId.has(id));
      expect(unknown, `${f.id} violates ids missing from the registry`).toEqual([]);
    }
  });

  it("without --json prints one line per fault", async () => {
    const [plain, json] = await Promise.all([runCli(["faults"]), runCli(["faults", "--json"])]);
    expect(plain.code).toBe(0);
    const faults = JSON.parse(json.stdout) as { id: string }[];
    const lines = plain.stdout.trim().split("\n");
    expect(lines).toHaveLength(faults.length);
    expect(lines.map((l) => l.split(" ")[0])).toEqual(faults.map((f) => f.id));
  });
});

describe("tracecheck fixtures", () => {
  it("--seed 3 --events 50 --out FILE writes an EPCISDocument with 50 events and their master data", async () => {
    const out = path.join(dir, "fixture.jsonld");
    const { code, stdout } = await runCli(["fixtures", "--seed", "3", "--events", "50", "--out", out]);
    expect(code).toBe(0);
    expect(stdout).toContain(out);
    const doc = JSON.parse(readFileSync(out, "utf8")) as {
      type: string;
      "@context": unknown;
      schemaVersion: string;
      epcisBody: { eventList: unknown[] };
    } & Record<string, unknown>;
    expect(doc.type).toBe("EPCISDocument");
    expect(doc.schemaVersion).toBe("2.0");
    expect(doc.epcisBody.eventList).toHaveLength(50);
    const validators = await createValidators({
      mirror: path.resolve(REPO_ROOT, "../shared/epcis/mirror"),
      network: false,
    });
    expect(validators.validateEpcisDocument(doc).errors).toEqual([]);
    const masterData = Object.values(doc).find(
      (v): v is { "@type": string }[] => Array.isArray(v) && v.some((d) => typeof d?.["@type"] === "string"),
    );
    const types = new Set(masterData?.map((d) => d["@type"]));
    expect([...types].sort()).toEqual(["gs1:Organization", "gs1:Place", "gs1:Product"]);
  });

  it("the same seed writes the same bytes, another seed other events", async () => {
    const files = ["a", "b", "c"].map((n) => path.join(dir, `${n}.jsonld`));
    const results = await Promise.all(
      files.map((f, i) => runCli(["fixtures", "--seed", i === 2 ? "4" : "3", "--events", "20", "--out", f])),
    );
    for (const r of results) expect(r.code).toBe(0);
    const [a, b, c] = files.map((f) => readFileSync(f, "utf8"));
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });
});

describe("tracecheck serve", () => {
  it("prints its listening line, answers with the key and refuses without it, and stops on SIGTERM with 0", async () => {
    const serve = await startServe(["--seed", "1", "--events", "50", "--api-key", "K-serve-test"]);
    serving.push(serve);
    expect(serve.output().stdout).toMatch(
      /^listening http:\/\/127\.0\.0\.1:\d+ http:\/\/127\.0\.0\.1:\d+\n$/,
    );
    const withKey = await fetch(`${serve.eventsBase}/events`, { headers: { "X-API-Key": "K-serve-test" } });
    expect(withKey.status).toBe(200);
    const body = (await withKey.json()) as {
      epcisBody?: { queryResults?: { resultsBody?: { eventList?: unknown[] } } };
    };
    expect(body.epcisBody?.queryResults?.resultsBody?.eventList).toHaveLength(50);
    const without = await fetch(`${serve.eventsBase}/events`);
    expect(without.status).toBe(401);
    await without.arrayBuffer();
    const wrong = await fetch(`${serve.eventsBase}/events`, { headers: { "X-API-Key": "not-the-key" } });
    expect(wrong.status).toBe(401);
    await wrong.arrayBuffer();
    // Exit 0 on the signal: the process, and with it the port, is gone (a request to the port now could reach
    // another process that has since been given it).
    expect(await serve.stop()).toBe(0);
  });

  it("--resolver-port puts the resolver on a second origin", async () => {
    const serve = await startServe(["--seed", "2", "--events", "10", "--resolver-port", "0"]);
    serving.push(serve);
    expect(new URL(serve.resolverBase).origin).not.toBe(new URL(serve.eventsBase).origin);
    const events = await fetch(`${serve.eventsBase}/events`);
    expect(events.status).toBe(200);
    await events.arrayBuffer();
    expect(await serve.stop()).toBe(0);
  });

  it("refuses an unknown fault before listening", async () => {
    const { code, stdout, stderr } = await runCli(["serve", "--faults", "no-such-fault"]);
    expect(code).toBe(2);
    expect(stdout).not.toContain("listening");
    expect(stderr).toMatch(/^tracecheck: [^\n]*no-such-fault[^\n]*\.\n$/);
  });
});

describe("tracecheck diff", () => {
  const base = {
    "EVT-AND": "pass",
    "EVT-PIPE-OR": "pass",
    "EVT-PAGING": "fail",
    "EVT-ENCODING": "warn",
  } as const;

  function files(
    name: string,
    older: Parameters<typeof reportWith>[0],
    newer: Parameters<typeof reportWith>[0],
  ) {
    const a = writeReport(path.join(dir, `${name}-old.json`), reportWith(older));
    const b = writeReport(path.join(dir, `${name}-new.json`), reportWith(newer));
    for (const f of [a, b]) expect(validateReport(JSON.parse(readFileSync(f, "utf8"))).errors).toEqual([]);
    return [a, b];
  }

  it("exits 1 and names the requirement when one regressed", async () => {
    const [a, b] = files("regressed", base, { ...base, "EVT-PIPE-OR": "fail" });
    const { code, stdout } = await runCli(["diff", a!, b!]);
    expect(code).toBe(1);
    expect(stdout).toContain("EVT-PIPE-OR");
  });

  it("exits 0 when a pass became an error: undecided is not regressed, and it is listed as changed", async () => {
    const [a, b] = files("errored", base, { ...base, "EVT-AND": "error" });
    const { code, stdout } = await runCli(["diff", a!, b!]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/changed \(1\)\n {2}EVT-AND +pass -> error/);
    expect(stdout).toContain("no regression");
  });

  it("exits 0 when something improved and nothing regressed", async () => {
    const [a, b] = files("improved", base, { ...base, "EVT-PAGING": "pass" });
    const { code, stdout } = await runCli(["diff", a!, b!]);
    expect(code).toBe(0);
    expect(stdout).toContain("EVT-PAGING");
  });

  it("exits 0 for two runs with the same verdicts", async () => {
    const [a, b] = files("same", base, base);
    expect((await runCli(["diff", a!, b!])).code).toBe(0);
  });

  it("exits 2 with a sentence when a report cannot be read", async () => {
    const [a] = files("unreadable", base, base);
    const missing = path.join(dir, "missing-report.json");
    const { code, stderr } = await runCli(["diff", a!, missing]);
    expect(code).toBe(2);
    expect(stderr).toContain(missing);
  });
});
