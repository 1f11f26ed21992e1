// The command runs the bundle the build makes (scripts/build.js) while it is current: the bundle must judge as the
// sources do, requirement for requirement, against a reference with faults of several classes, so that passes
// and failures are both compared.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { currentForm } from "../../bin/launch.js";
import type { Report } from "../../src/engine/types.ts";
import { REPO_ROOT, runCli, runNode, tempDir } from "../support/cli.ts";

const FAULTED = [
  ...["--runs", "3", "--events", "40", "--seed", "11", "--quiet"],
  "--faults",
  "lt-event-inclusive,auth-wrong-accepted,res-anchor-wrong,md-no-context,core-commission-action",
];

let work: Awaited<ReturnType<typeof tempDir>>;

async function verdicts(dir: string): Promise<Record<string, string>> {
  const report = JSON.parse(await readFile(path.join(dir, "report.json"), "utf8")) as Report;
  return Object.fromEntries(report.requirements.map((r) => [r.id, `${r.status} (${r.checks})`]));
}

beforeAll(async () => {
  // The tests' global setup has built the bundle (test/support/build.ts).
  work = await tempDir("bundle");
});

afterAll(async () => {
  await work?.remove();
});

test("the bundle judges a faulted reference as the sources do", async () => {
  expect(currentForm(REPO_ROOT)).toBe("bundle");
  const bundled = path.join(work.dir, "bundled");
  const sources = path.join(work.dir, "sources");
  const mainSource = path.join(REPO_ROOT, "src", "cli", "main.ts");
  const [cli, fromSources] = await Promise.all([
    runCli(["run", ...FAULTED, "--report-dir", bundled]),
    runNode([
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `const { main } = await import(${JSON.stringify(mainSource)});
       process.exitCode = await main(${JSON.stringify(["run", ...FAULTED, "--report-dir", sources])});`,
    ]),
  ]);
  expect(cli.code, cli.stderr).toBe(1);
  expect(fromSources.code, fromSources.stderr).toBe(1);
  const fromBundle = await verdicts(bundled);
  const failed = Object.entries(fromBundle)
    .filter(([, v]) => v.startsWith("fail"))
    .map(([id]) => id);
  expect(failed).toEqual(
    expect.arrayContaining(["EVT-TIME-LT-EVENT", "AUTH-WRONG", "RES-ANCHOR", "MD-JSONLD"]),
  );
  // Against tracecheck's own x-std-core-events, whose further columns the spec does not show, a warning.
  expect(fromBundle["CORE-SIGNATURE"]).toMatch(/^warn/);
  expect(Object.values(fromBundle).filter((v) => v.startsWith("pass")).length).toBeGreaterThan(
    failed.length * 4,
  );
  expect(fromBundle).toEqual(await verdicts(sources));
}, 300_000);

test("the bundle checks a definition it has not seen through the validator it imports on demand", async () => {
  // A text no run has checked yet: the OpenAPI validator, a package outside the bundle, is imported for it.
  const definition = path.join(work.dir, "definition.yaml");
  const ours = await readFile(path.join(REPO_ROOT, "schemas", "interface.openapi.yaml"), "utf8");
  await writeFile(definition, `${ours}\n# ${path.basename(work.dir)} ${Date.now()}\n`);
  const reports = path.join(work.dir, "definition");
  const cli = await runCli([
    ...["run", "--suite", "definition", "--definition", definition, "--quiet", "--report-dir", reports],
  ]);
  expect(cli.code, cli.stderr).toBe(0);
  expect((await verdicts(reports))["DEF-OPENAPI-31"]).toMatch(/^pass/);
}, 120_000);
