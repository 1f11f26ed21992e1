import { parse } from "node-html-parser";
import { describe, expect, it } from "vitest";
import { toHtml } from "../../../src/harness/report/index.ts";
import { everyStatus, report, requirement } from "./build-report.ts";

describe("toHtml", () => {
  const r = everyStatus();
  const html = toHtml(r);
  const doc = parse(html);

  it("gives every requirement a row whose element id is the requirement id", () => {
    for (const q of r.requirements) {
      const row = doc.getElementById(q.id);
      expect(row, q.id).not.toBeNull();
      expect(row!.tagName).toBe("TR");
      expect(row!.text).toContain(q.title);
      expect(row!.text).toContain(q.status);
      expect(row!.text).toContain(q.level);
    }
  });

  it("quotes the spec's sentence under each requirement's title, and again over its evidence", () => {
    for (const q of r.requirements) {
      const quote = doc.getElementById(q.id)!.querySelector("blockquote.spec");
      expect(quote?.text, q.id).toBe(q.spec);
    }
    expect(doc.getElementById("evidence-RES-NUMERIC-AI")!.querySelector("blockquote.spec")?.text).toBe(
      "The spec's sentence for RES-NUMERIC-AI.",
    );
    expect(html).toContain("whose value is &lt;API_KEY&gt;.");
    const old = requirement("EVT-OLD", "fail");
    delete old.spec;
    expect(parse(toHtml(report([old]))).querySelectorAll("blockquote.spec")).toHaveLength(0);
  });

  it("groups the rows by conformance class in class order", () => {
    const groups = doc.querySelectorAll("th.group").map((th) => th.text);
    expect(groups).toEqual(["events", "resolver", "auth"]);
    const resolverBody = doc.getElementById("class-resolver")!.closest("tbody")!;
    const ids = resolverBody.querySelectorAll("tr[id]").map((tr) => tr.id);
    expect(ids).toEqual(["RES-LINKSET", "RES-NUMERIC-AI"]);
  });

  it("shows target, date, version, seed, runs, baseline note and summary", () => {
    const meta = doc.querySelector("dl.meta")!.text;
    for (const fact of [
      r.target.events,
      r.target.resolver,
      r.startedAt,
      r.tool.version,
      String(r.seed),
      String(r.runs),
      "loaded from fixtures",
    ]) {
      expect(meta).toContain(fact);
    }
    const cells = doc.querySelectorAll("table.summary td").map((td) => td.text);
    expect(cells).toEqual(
      [r.summary.pass, r.summary.fail, r.summary.warn, r.summary.skip, r.summary.error].map(String),
    );
  });

  it("puts the evidence of every fail, warn and error in a details element, and none for pass or skip", () => {
    const flagged = r.requirements.filter((q) => ["fail", "warn", "error"].includes(q.status));
    const details = doc.querySelectorAll("details");
    expect(details.map((d) => d.id).sort()).toEqual(flagged.map((q) => `evidence-${q.id}`).sort());
    const one = doc.getElementById("evidence-RES-NUMERIC-AI")!;
    const text = one.text;
    expect(text).toContain("GET http://127.0.0.1:4000/events?EQ_bizStep=shipping%7Creceiving");
    expect(text).toContain("Response: 200");
    expect(text).toContain("urn:uuid:a");
    expect(text).toContain("urn:uuid:c");
    expect(text).toContain("$TRACECHECK_API_KEY");
    expect(text).toContain("Counterexample");
    expect(one.querySelectorAll(".compare pre")).toHaveLength(2);
  });

  it("escapes markup from evidence and reasons", () => {
    expect(html).not.toContain("<script");
    expect(doc.querySelectorAll("script")).toHaveLength(0);
    expect(doc.querySelectorAll("img")).toHaveLength(0);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(doc.getElementById("EVT-BIZSTEP-FORMS")!.text).toContain("<script>alert");
  });

  it("links to nothing outside the file and needs no script", () => {
    for (const el of doc.querySelectorAll("*")) {
      for (const attr of ["src", "href", "action", "srcset", "data"]) {
        const value = el.getAttribute(attr);
        if (value !== undefined) expect(value, `${el.tagName} ${attr}`).not.toMatch(/^\s*(https?:)?\/\//i);
      }
    }
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?\s*https?:/i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(doc.querySelector("style")).not.toBeNull();
  });

  it("escapes a requirement id used as an element id", () => {
    const odd = parse(toHtml(report([requirement('EVT-"quoted"<id>', "fail")])));
    const ids = odd.querySelectorAll("tr[id]").map((tr) => tr.getAttribute("id"));
    expect(ids).toEqual(['EVT-"quoted"<id>']);
  });

  it("says so when no requirement was checked", () => {
    expect(parse(toHtml(report([]))).text).toContain("No requirement was checked.");
  });
});
