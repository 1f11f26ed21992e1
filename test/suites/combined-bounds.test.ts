// Combined filters are drawn with an event exactly at each bound (spec 4.1: GE keeps the event at its bound, LT
// does not): a sender whose GE-and-LT window keeps the event at its LT bound, while each bound alone is read right,
// fails EVT-AND, and the failure shows the event's eventTime beside the bound.
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Report } from "../../src/engine/types.ts";
import { generateDataset } from "../../src/generate/index.ts";
import {
  compareInstants,
  type EpcisEvent,
  type EventQuery,
  parseInstant,
  parseQueryString,
  runOracle,
} from "../../src/model/index.ts";
import { runCli, tempDir } from "../support/cli.ts";
import { type Repository, startRepository } from "../support/event-repository.ts";
import { readReports } from "../support/run-reports.ts";

/** A window on eventTime read as GE ≤ eventTime ≤ LT: the defect lives only where the two bounds meet. */
function windowKeepsLtBound(events: readonly EpcisEvent[], q: EventQuery): EpcisEvent[] {
  const { LT_eventTime: lt, ...rest } = q;
  if (lt === undefined || q.GE_eventTime === undefined) return runOracle(events, q);
  const bound = parseInstant(lt);
  return runOracle(events, rest).filter(
    (e) => e.eventTime !== undefined && compareInstants(parseInstant(e.eventTime), bound) <= 0,
  );
}

let out: { dir: string; remove(): Promise<void> };
let repository: Repository;
let report: Report;

beforeAll(async () => {
  out = await tempDir("combined-bounds");
  const { events } = generateDataset({ seed: 5, events: 120 });
  repository = await startRepository(events, { select: windowKeepsLtBound });
  const reportDir = path.join(out.dir, "report");
  const run = await runCli([
    "run",
    "--target",
    repository.origin,
    "--suite",
    "events",
    "--seed",
    "1",
    "--quiet",
    "--report-dir",
    reportDir,
  ]);
  if (run.code !== 1)
    throw new Error(`the run exited ${run.code}:\n${run.stdout.slice(-3000)}\n${run.stderr}`);
  report = readReports(reportDir).json;
}, 240_000);

afterAll(async () => {
  await repository?.close();
  await out?.remove();
});

test("a window that keeps the event at its LT bound fails EVT-AND alone, with that event's eventTime shown", () => {
  const status = (id: string) => report.requirements.find((r) => r.id === id)?.status;
  expect(status("EVT-AND")).toBe("fail");
  for (const id of ["EVT-TIME-LT-EVENT", "EVT-TIME-GE-EVENT"]) {
    expect(status(id), id).toBe("pass");
  }
  const [item] = report.requirements.find((r) => r.id === "EVT-AND")!.evidence;
  const lt = parseQueryString(new URL(item!.request!.url).search).query.LT_eventTime!;
  expect(item?.extra?.length).toBeGreaterThan(0);
  for (const id of item!.extra!) {
    const at = item!.eventValues?.[id]?.eventTime;
    expect(at, id).toBeDefined();
    expect(compareInstants(parseInstant(at!), parseInstant(lt)), `${id} at ${at}, LT ${lt}`).toBe(0);
  }
});
