import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/engine/types.ts";
import { toJunit } from "../../src/report/index.ts";
import { everyStatus, report, requirement } from "./build-report.ts";

type XmlNode = { [name: string]: unknown };
type Suite = XmlNode & { testcase: XmlNode[] };

/** An attribute or child text of a parsed node, as a string (attribute values are not converted). */
function a(node: unknown, name: string): string | undefined {
  const value = (node as XmlNode | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

function parse(xml: string): { root: XmlNode; suites: Suite[] } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseAttributeValue: false,
    isArray: (name) => name === "testsuite" || name === "testcase",
  });
  const doc = parser.parse(xml) as { testsuites: XmlNode & { testsuite?: Suite[] } };
  return { root: doc.testsuites, suites: doc.testsuites.testsuite ?? [] };
}

function cases(xml: string): XmlNode[] {
  return parse(xml).suites.flatMap((s) => s.testcase);
}

function caseFor(r: Report, id: string): XmlNode {
  const found = cases(toJunit(r)).find((c) => a(c, "name")?.startsWith(`${id} `));
  expect(found, `testcase for ${id}`).toBeDefined();
  return found!;
}

describe("toJunit", () => {
  const r = everyStatus();
  const xml = toJunit(r);

  it("is well-formed XML with one testcase per requirement", () => {
    const all = cases(xml);
    expect(all).toHaveLength(r.requirements.length);
    expect(all.map((c) => a(c, "name")).sort()).toEqual(
      r.requirements.map((q) => `${q.id} ${q.title}`).sort(),
    );
  });

  it("has one testsuite per conformance class, with its counts", () => {
    const { root, suites } = parse(xml);
    expect(a(root, "name")).toBe("tracecheck");
    expect(suites.map((s) => a(s, "name"))).toEqual(["events", "resolver", "auth"]);
    for (const suite of suites) {
      const mine = r.requirements.filter((q) => q.class === a(suite, "name"));
      expect(a(suite, "tests")).toBe(String(mine.length));
      expect(a(suite, "failures")).toBe(String(mine.filter((q) => q.status === "fail").length));
      expect(a(suite, "errors")).toBe(String(mine.filter((q) => q.status === "error").length));
      expect(a(suite, "skipped")).toBe(String(mine.filter((q) => q.status === "skip").length));
      for (const c of suite.testcase) expect(a(c, "classname")).toBe(`tracecheck.${a(suite, "name")}`);
    }
  });

  it("totals on testsuites match the report summary, and a warning is no failure", () => {
    const { root } = parse(xml);
    expect(a(root, "tests")).toBe(String(r.requirements.length));
    expect(a(root, "failures")).toBe(String(r.summary.fail));
    expect(a(root, "errors")).toBe(String(r.summary.error));
    expect(a(root, "skipped")).toBe(String(r.summary.skip));
    const all = cases(xml);
    expect(all.filter((c) => c["failure"] !== undefined)).toHaveLength(r.summary.fail);
    expect(all.filter((c) => c["error"] !== undefined)).toHaveLength(r.summary.error);
    expect(all.filter((c) => c["skipped"] !== undefined)).toHaveLength(r.summary.skip);
  });

  it("puts the reason, level and evidence on a failure", () => {
    const failure = caseFor(r, "RES-NUMERIC-AI")["failure"];
    expect(a(failure, "message")).toBe("reason for RES-NUMERIC-AI");
    expect(a(failure, "type")).toBe("MUST");
    const text = a(failure, "#text") ?? "";
    expect(text).toContain("request: GET http://127.0.0.1:4000/events?EQ_bizStep=shipping%7Creceiving");
    expect(text).toContain("status: 200");
    expect(text).toContain("missing (1): urn:uuid:a");
    expect(text).toContain("extra (1): urn:uuid:c");
    expect(text).toContain('expected: {\n  "events": [');
    expect(text).toContain("curl: curl -H 'X-API-Key: $TRACECHECK_API_KEY'");
  });

  it("marks an error with <error>, a skip with its reason, and keeps a warning's evidence in system-out", () => {
    expect(a(caseFor(r, "EVT-SCHEMA")["error"], "message")).toBe("schema unavailable");
    expect(a(caseFor(r, "AUTH-HEADER")["skipped"], "message")).toBe("no --api-key given");
    const warn = caseFor(r, "EVT-413-BROAD");
    expect(warn["failure"]).toBeUndefined();
    expect(a(warn, "system-out")).toContain("reason for EVT-413-BROAD");
    expect(a(warn, "system-out")).toContain("missing (1): urn:uuid:a");
    expect(caseFor(r, "EVT-TIME-LT-STRICT")["system-out"]).toBeUndefined();
  });

  it("names the spec's quoted sentence in every testcase, passing ones included, and in a failure's text", () => {
    for (const q of r.requirements) {
      const props = (caseFor(r, q.id)["properties"] as XmlNode | undefined)?.["property"];
      const list = (Array.isArray(props) ? props : [props]) as XmlNode[];
      const byName = Object.fromEntries(list.map((p) => [a(p, "name"), a(p, "value")]));
      expect(byName, q.id).toEqual({ spec: q.spec, section: q.section, level: q.level });
    }
    expect(a(caseFor(r, "RES-NUMERIC-AI")["failure"], "#text")).toContain(
      `spec 4.1 (MUST): "The spec's sentence for RES-NUMERIC-AI."`,
    );
    expect(a(caseFor(r, "EVT-413-BROAD"), "system-out")).toContain(
      `spec 4.1 (SHOULD): "The spec's sentence for EVT-413-BROAD."`,
    );
    // A quote with markup in it (spec 5 writes <API_KEY>) survives as text.
    expect(toJunit(r)).toContain("whose value is &lt;API_KEY&gt;.");
  });

  it("names the blocker of a blocked skip in its skipped element and as a property", () => {
    const blocked = requirement("RES-LINKTYPES", "skip", {
      class: "resolver",
      reason: "blocked by RES-ANCHOR, which failed: the lot's link set has no entry about it",
      blockedBy: "RES-ANCHOR",
    });
    const r = report([requirement("RES-ANCHOR", "fail", { class: "resolver" }), blocked]);
    const skipped = caseFor(r, "RES-LINKTYPES")["skipped"];
    expect(a(skipped, "message")).toBe(blocked.reason);
    expect(a(skipped, "#text")).toBe("blocked by RES-ANCHOR");
    const props = (caseFor(r, "RES-LINKTYPES")["properties"] as XmlNode)["property"] as XmlNode[];
    expect(props.find((p) => a(p, "name") === "blockedBy")?.["value"]).toBe("RES-ANCHOR");
    // A plain skip keeps the bare element.
    expect(toJunit(everyStatus())).toContain('<skipped message="no --api-key given"/>');
  });

  it("leaves the spec out of a testcase of a report written before it carried one", () => {
    const old = requirement("EVT-OLD", "pass");
    delete old.spec;
    const xml = toJunit(report([old]));
    expect(xml).not.toContain("<properties>\n        <property");
    expect(cases(xml)[0]!["properties"]).toBeUndefined();
  });

  it("escapes markup and strips characters XML 1.0 forbids", () => {
    for (const ch of ["\u0000", "\u0007", "\u001b", "\uFFFE"]) expect(xml).not.toContain(ch);
    expect(xml).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(xml).not.toContain("<script>");
    expect(a(caseFor(r, "EVT-BIZSTEP-FORMS")["failure"], "message")).toContain(
      '<script>alert("x")</script> & ]]>',
    );
  });

  it("keeps a multi-line reason intact in the message attribute", () => {
    const multi = report([requirement("EVT-MULTI", "fail", { reason: "line one\nline two\ttabbed" })]);
    const attrValue = toJunit(multi).match(/<failure message="([^"]*)"/)?.[1];
    expect(attrValue).toBe("line one&#10;line two&#9;tabbed");
  });

  it("writes an empty but valid document for a report without requirements", () => {
    const { root, suites } = parse(toJunit(report([])));
    expect(a(root, "tests")).toBe("0");
    expect(suites).toHaveLength(0);
  });
});
