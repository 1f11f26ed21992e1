// The resolver class run whole against the embedded reference, at default effort: every pass proves itself with
// the exchange it judged; one defect fails once, what it takes away from other checks is skipped as blocked; and a
// defect confined to one product is found, since every product the events name is covered.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report, RequirementResult } from "../../src/engine/types.ts";
import { runCli, tempDir } from "../support/cli.ts";

let work: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  work = await tempDir("resolver-runs");
});

afterAll(async () => {
  await work?.remove();
});

async function run(
  seed: number,
  faults?: string,
  suites = "resolver",
): Promise<{ code: number | null; report: Report }> {
  const reportDir = path.join(work.dir, `${faults ?? "clean"}-${seed}`);
  const args = ["run", "--seed", String(seed), "--quiet", "--suite", suites, "--report-dir", reportDir];
  const r = await runCli(faults === undefined ? args : [...args, "--faults", faults]);
  const report = JSON.parse(await readFile(path.join(reportDir, "report.json"), "utf8")) as Report;
  return { code: r.code, report };
}

function byId(report: Report): Map<string, RequirementResult> {
  return new Map(report.requirements.map((r) => [r.id, r]));
}

describe("the resolver class against the reference", () => {
  it("passes every requirement with the exchange of its own that decided it", async () => {
    const { code, report } = await run(1);
    expect(code).toBe(0);
    const resolver = report.requirements.filter((r) => r.class === "resolver");
    expect(resolver.length).toBeGreaterThanOrEqual(17);
    for (const r of resolver) {
      expect(r.status, r.id).toBe("pass");
      expect(r.evidence, r.id).toHaveLength(1);
      expect(r.evidence[0]?.request?.url, r.id).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      expect(r.evidence[0]?.response?.status, r.id).toBeGreaterThan(0);
    }
  }, 60_000);

  for (const seed of [1, 2]) {
    it(`fails a lot link set anchored at its GTIN, relative, at RES-ANCHOR and the shape rule only (seed ${seed})`, async () => {
      const { code, report } = await run(seed, "res-lot-anchor-gtin");
      expect(code).toBe(1);
      const results = byId(report);
      const failed = report.requirements.filter((r) => r.status === "fail").map((r) => r.id);
      expect(failed.sort()).toEqual(["RES-ANCHOR", "RES-LINKSET-SHAPE"]);
      for (const id of ["RES-LINKTYPES", "RES-CANONICAL-BASE"]) {
        const r = results.get(id);
        expect(r?.status, id).toBe("skip");
        expect(r?.reason, id).toMatch(/^blocked by RES-ANCHOR, which failed: .*\/10\//);
      }
      expect(report.requirements.filter((r) => r.status === "error")).toEqual([]);
    }, 60_000);
  }

  it("still hands the masterdata class the documents of link sets whose anchors fail", async () => {
    const { code, report } = await run(1, "res-anchor-wrong,md-no-context", "resolver,masterdata");
    expect(code).toBe(1);
    const results = byId(report);
    expect(results.get("RES-ANCHOR")?.status).toBe("fail");
    expect(results.get("MD-JSONLD")?.status).toBe("fail");
    expect(results.get("RES-MASTERDATA-LINK")?.reason).toMatch(/^blocked by RES-ANCHOR, which failed/);
  }, 60_000);

  for (const [fault, id] of [
    ["res-last-product-lots", "RES-EPCIS-LINK"],
    ["res-last-product-masterdata", "RES-MASTERDATA-LINK"],
  ] as const) {
    it(`finds ${fault}, a defect of one product, at default effort (${id})`, async () => {
      const { code, report } = await run(3, fault);
      expect(code).toBe(1);
      expect(byId(report).get(id)?.status).toBe("fail");
    }, 60_000);
  }
});
