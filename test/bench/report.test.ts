import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeMachine, machineLine } from "../../bench/machine.ts";
import { type BenchReport, writeBenchReport } from "../../bench/report.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe("writeBenchReport", () => {
  it("writes the machine, the date and the rows as JSON, creating the folder", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "bench-report-"));
    dirs.push(dir);
    const file = path.join(dir, "reports", "bench.json");
    const report: BenchReport = {
      machine: describeMachine(),
      date: "2026-01-01T00:00:00.000Z",
      benchmarks: ["oracle"],
      rows: [{ what: "oracle", measure: "one query", value: 3, unit: "ms", target: "< 20 ms", met: true }],
      errors: [],
    };
    await writeBenchReport(file, report);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(report);
  });
});

describe("describeMachine", () => {
  it("names the operating system, the processors, the memory and the Node version", () => {
    const m = describeMachine();
    expect(m.cpus.count).toBeGreaterThan(0);
    expect(m.memoryGiB).toBeGreaterThan(0);
    expect(m.node).toBe(process.version);
    expect(m.os).toContain(os.arch());
  });

  it("says whether NODE_EXTRA_CA_CERTS is set, which every Node process reads as it starts", () => {
    const before = process.env.NODE_EXTRA_CA_CERTS;
    try {
      process.env.NODE_EXTRA_CA_CERTS = "/etc/ssl/certs/bundle.pem";
      expect(describeMachine().extraCaCerts).toBe(true);
      expect(machineLine(describeMachine())).toContain("NODE_EXTRA_CA_CERTS set");
      delete process.env.NODE_EXTRA_CA_CERTS;
      expect(describeMachine().extraCaCerts).toBe(false);
      expect(machineLine(describeMachine())).not.toContain("NODE_EXTRA_CA_CERTS");
    } finally {
      if (before === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = before;
    }
  });
});
