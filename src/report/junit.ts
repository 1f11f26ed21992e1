import type { Report, RequirementResult } from "../engine/types.ts";
import { countStatuses, groupByClass } from "./classes.ts";
import { evidenceListText } from "./evidence-text.ts";
import { escapeXmlAttribute as attr, escapeXmlText as text } from "./text.ts";

function counts(requirements: readonly RequirementResult[]): string {
  const c = countStatuses(requirements);
  return `tests="${requirements.length}" failures="${c.fail}" errors="${c.error}" skipped="${c.skip}"`;
}

/** The spec's words the verdict rests on, as the failure text and system-out give them. */
function specLine(r: RequirementResult): string {
  return r.spec === undefined ? "" : `spec ${r.section} (${r.level}): "${r.spec}"`;
}

function body(r: RequirementResult): string {
  const reason = r.reason ?? "";
  const details = [reason, specLine(r), evidenceListText(r.evidence)]
    .filter((part) => part !== "")
    .join("\n\n");
  switch (r.status) {
    case "pass":
      return "";
    case "fail":
      return `<failure message="${attr(reason || "failed")}" type="${attr(r.level)}">${text(details)}</failure>`;
    case "error":
      return `<error message="${attr(reason || "could not be checked")}" type="${attr(r.level)}">${text(details)}</error>`;
    case "skip":
      // A blocked skip names its blocker beside the reason, as a reader of the CI page looks for it.
      return r.blockedBy === undefined
        ? `<skipped message="${attr(reason)}"/>`
        : `<skipped message="${attr(reason)}">${text(`blocked by ${r.blockedBy}`)}</skipped>`;
    case "warn":
      // JUnit has no warning: a passing test case keeps CI green, and system-out keeps the evidence in view.
      return `<system-out>${text(details === "" ? "warn" : `warn: ${details}`)}</system-out>`;
  }
}

// Every testcase, passing ones included, names the spec's sentence it judged: a property as pytest's
// record_property writes it, which GitLab, Jenkins and the GitHub reporters read or ignore without harm.
function caseProperties(r: RequirementResult): string {
  if (r.spec === undefined) return "";
  const entries: [string, string][] = [
    ["spec", r.spec],
    ["section", r.section],
    ["level", r.level],
    ...(r.blockedBy === undefined ? [] : [["blockedBy", r.blockedBy] as [string, string]]),
  ];
  const lines = entries.map(
    ([name, value]) => `        <property name="${attr(name)}" value="${attr(value)}"/>`,
  );
  return `<properties>\n${lines.join("\n")}\n      </properties>`;
}

function testcase(r: RequirementResult): string {
  const open = `<testcase classname="${attr(`tracecheck.${r.class}`)}" name="${attr(`${r.id} ${r.title}`)}"`;
  const inner = [caseProperties(r), body(r)].filter((part) => part !== "");
  return inner.length === 0
    ? `    ${open}/>`
    : `    ${open}>\n${inner.map((part) => `      ${part}`).join("\n")}\n    </testcase>`;
}

function properties(report: Report): string {
  const entries: [string, string][] = [
    ["tracecheck.version", report.tool.version],
    ["target.events", report.target.events],
    ["target.resolver", report.target.resolver],
    ["seed", String(report.seed)],
    ["runs", String(report.runs)],
    ["startedAt", report.startedAt],
  ];
  const lines = entries.map(
    ([name, value]) => `      <property name="${attr(name)}" value="${attr(value)}"/>`,
  );
  return `    <properties>\n${lines.join("\n")}\n    </properties>`;
}

/** junit.xml: one testsuite per conformance class, one testcase per requirement (GitHub, GitLab, Jenkins). */
export function toJunit(report: Report): string {
  const seconds = (report.durationMs / 1000).toFixed(3);
  const suites = groupByClass(report.requirements).map(
    (group) =>
      `  <testsuite name="${attr(group.class)}" ${counts(group.requirements)}>\n${properties(report)}\n` +
      `${group.requirements.map(testcase).join("\n")}\n  </testsuite>`,
  );
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="tracecheck" ${counts(report.requirements)} time="${seconds}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}
