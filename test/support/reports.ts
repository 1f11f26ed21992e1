// Small report.json files for commands that read reports (diff, run --baseline), valid against the schema. The
// report itself is built by the report tests' builder, so there is one shape of test report to keep in step.
import { writeFileSync } from "node:fs";
import type { Report, Status } from "../../src/engine/types.ts";
import { report, requirement } from "../report/build-report.ts";

export function reportWith(statuses: Record<string, Status>): Report {
  return report(Object.entries(statuses).map(([id, status]) => requirement(id, status)));
}

export function writeReport(file: string, contents: Report): string {
  writeFileSync(file, JSON.stringify(contents, null, 2));
  return file;
}
