import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Report } from "../engine/types.ts";
import { toHtml } from "./html.ts";
import { toJunit } from "./junit.ts";
import { jsonText } from "./text.ts";
import { validateReport } from "./validate.ts";

/**
 * Writes report.json, junit.xml and report.html into dir, creating it. The JSON is checked against
 * schemas/report.schema.json first, as it will be read back, so that no file is written for a report that
 * breaks the contract.
 */
export async function writeReports(
  report: Report,
  dir: string,
): Promise<{ json: string; junit: string; html: string }> {
  const json = `${jsonText(report)}\n`;
  const check = validateReport(JSON.parse(json));
  if (!check.valid) {
    throw new Error(
      `The report does not match schemas/report.schema.json (${check.errors.slice(0, 3).join("; ")}); ` +
        "this is a tracecheck bug, please report it with the run's seed.",
    );
  }
  await mkdir(dir, { recursive: true });
  const paths = {
    json: path.join(dir, "report.json"),
    junit: path.join(dir, "junit.xml"),
    html: path.join(dir, "report.html"),
  };
  await writeFile(paths.json, json, "utf8");
  await writeFile(paths.junit, toJunit(report), "utf8");
  await writeFile(paths.html, toHtml(report), "utf8");
  return paths;
}
