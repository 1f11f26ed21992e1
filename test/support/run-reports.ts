// Reading back what `tracecheck run` wrote: the three reports, parsed, and the verdicts as a comparable list.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { type HTMLElement, parse as parseHtml } from "node-html-parser";
import type { Report } from "../../src/engine/types.ts";

export const REPORT_FILES = ["report.json", "junit.xml", "report.html"] as const;

export interface JunitCase {
  name: string;
  classname: string;
}

export interface WrittenReports {
  json: Report;
  /** The raw text of each file, by name. */
  text: Record<(typeof REPORT_FILES)[number], string>;
  junitCases: JunitCase[];
  html: HTMLElement;
}

export function reportsExist(dir: string): boolean {
  return REPORT_FILES.every((f) => existsSync(path.join(dir, f)));
}

export function readReports(dir: string): WrittenReports {
  const text = Object.fromEntries(
    REPORT_FILES.map((f) => [f, readFileSync(path.join(dir, f), "utf8")]),
  ) as WrittenReports["text"];
  const valid = XMLValidator.validate(text["junit.xml"]);
  if (valid !== true) throw new Error(`junit.xml is not well-formed XML: ${valid.err.msg}`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (name) => name === "testsuite" || name === "testcase",
  });
  const junit = parser.parse(text["junit.xml"]) as {
    testsuites: { testsuite?: { testcase?: JunitCase[] }[] };
  };
  return {
    json: JSON.parse(text["report.json"]) as Report,
    text,
    junitCases: (junit.testsuites.testsuite ?? []).flatMap((s) => s.testcase ?? []),
    html: parseHtml(text["report.html"]),
  };
}

/** "ID status" per requirement, in report order: what two runs are compared by. */
export function statusList(report: Report): string[] {
  return report.requirements.map((r) => `${r.id} ${r.status}`);
}
