// Small report.json files for commands that read reports (diff, run --baseline), valid against the schema.
import { writeFileSync } from "node:fs";
import type { Report, RequirementResult, Status } from "../../src/engine/types.ts";

export function reportWith(statuses: Record<string, Status>): Report {
  const requirements: RequirementResult[] = Object.entries(statuses).map(([id, status]) => {
    const r: RequirementResult = {
      id,
      level: "MUST",
      class: "events",
      section: "4.1",
      title: `title of ${id}`,
      status,
      checks: status === "skip" ? 0 : 1,
      evidence: [],
    };
    if (status !== "pass") r.reason = `${status} for the test`;
    return r;
  });
  const summary = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
  for (const r of requirements) summary[r.status] += 1;
  return {
    tool: { name: "tracecheck", version: "0.0.0" },
    target: { events: "http://127.0.0.1:1", resolver: "http://127.0.0.1:1" },
    seed: 1,
    runs: 1,
    startedAt: "2024-01-01T00:00:00.000Z",
    durationMs: 1,
    summary,
    requirements,
  };
}

export function writeReport(file: string, report: Report): string {
  writeFileSync(file, JSON.stringify(report, null, 2));
  return file;
}
