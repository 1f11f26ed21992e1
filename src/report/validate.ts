import { readFileSync } from "node:fs";
import path from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import { REPO_ROOT } from "../definition/locations.ts";
import { ownSchemaValidator } from "../definition/validators.ts";
import type { Report } from "../engine/types.ts";
import { countStatuses, STATUSES } from "./classes.ts";

const SCHEMA_URL = path.join(REPO_ROOT, "schemas", "report.schema.json");

let compiled: ValidateFunction | undefined;

/** Compiled once for all runs (the compiled code kept under node_modules/.cache); test/harness checks it strictly. */
function validator(): ValidateFunction {
  compiled ??= ownSchemaValidator("report", JSON.parse(readFileSync(SCHEMA_URL, "utf8")) as object);
  return compiled;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === "" ? "report" : error.instancePath;
  const params = error.params as Record<string, unknown>;
  let detail = "";
  if (typeof params["additionalProperty"] === "string") detail = ` (${params["additionalProperty"]})`;
  else if (Array.isArray(params["allowedValues"])) detail = ` (${params["allowedValues"].join(", ")})`;
  return `${where} ${error.message ?? "is invalid"}${detail}`;
}

// What the schema cannot say: the summary counts the requirements, and ids are unique (the HTML anchors on them).
function consistencyErrors(report: Report): string[] {
  const errors: string[] = [];
  const counted = countStatuses(report.requirements);
  for (const status of STATUSES) {
    if (report.summary[status] !== counted[status]) {
      errors.push(
        `/summary/${status} is ${report.summary[status]} but ${counted[status]} requirements have status ${status}`,
      );
    }
  }
  const seen = new Set<string>();
  for (const [index, r] of report.requirements.entries()) {
    if (seen.has(r.id)) errors.push(`/requirements/${index}/id repeats requirement id ${r.id}`);
    seen.add(r.id);
  }
  return errors;
}

/** Checks a parsed report.json against schemas/report.schema.json and the summary against its requirements. */
export function validateReport(r: unknown): { valid: boolean; errors: string[] } {
  const validate = validator();
  if (!validate(r)) return { valid: false, errors: (validate.errors ?? []).map(describe) };
  const errors = consistencyErrors(r as Report);
  return { valid: errors.length === 0, errors };
}
