// No certification of an empty target: a sender holding no events, run without --dataset, would pass the classes
// that read events only on nothing. The run exits 2, says how to give it data, and passes nothing.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Report } from "../../src/engine/types.ts";
import { runCli, tempDir } from "../support/cli.ts";
import { type ServeProcess, startServe } from "../support/serve.ts";

const KEY = "empty-target-key-41";

let work: Awaited<ReturnType<typeof tempDir>>;
let serve: ServeProcess | undefined;

beforeAll(async () => {
  work = await tempDir("empty-target");
  const dataset = path.join(work.dir, "empty.json");
  await writeFile(
    dataset,
    JSON.stringify({
      "@context": ["https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld"],
      type: "EPCISDocument",
      schemaVersion: "2.0",
      creationDate: "2025-01-01T00:00:00Z",
      epcisBody: { eventList: [] },
    }),
  );
  serve = await startServe(["--dataset", dataset, "--api-key", KEY]);
}, 60_000);

afterAll(async () => {
  await serve?.stop();
  await work?.remove();
});

test("a target holding no events, run without --dataset, exits 2 saying how to load data", async () => {
  const reportDir = path.join(work.dir, "reports");
  const r = await runCli([
    "run",
    "--target",
    serve!.eventsBase,
    "--api-key",
    KEY,
    "--suite",
    "events,core-events",
    "--seed",
    "3",
    "--report-dir",
    reportDir,
  ]);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/the target holds no events, .* not certified/);
  expect(r.stderr).toContain("tracecheck fixtures");
  expect(r.stderr).toContain("--dataset");
  const report = JSON.parse(await readFile(path.join(reportDir, "report.json"), "utf8")) as Report;
  expect(report.verdict).toBe("incomplete");
  expect(report.summary.pass).toBe(0);
  expect(report.incompleteReason).toMatch(/holds no events/);
}, 120_000);
