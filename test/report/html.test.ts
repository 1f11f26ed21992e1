import { parse } from "node-html-parser";
import { describe, expect, it } from "vitest";
import { diffReports, toHtml } from "../../src/report/index.ts";
import {
  AT_THE_BOUND,
  everyStatus,
  linkSetFailures,
  NOT_ANSWERED,
  report,
  requirement,
  timeFailure,
} from "./build-report.ts";

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
    const details = doc.querySelectorAll("details.requirement");
    expect(details.map((d) => d.id).sort()).toEqual(flagged.map((q) => `evidence-${q.id}`).sort());
    const one = doc.getElementById("evidence-RES-NUMERIC-AI")!;
    const text = one.text;
    expect(text).toContain("GET http://127.0.0.1:4000/events?EQ_bizStep=shipping%7Creceiving");
    expect(text).toContain("Response: 200");
    expect(text).toContain("urn:uuid:a");
    expect(text).toContain("urn:uuid:c");
    expect(text).toContain("$TRACECHECK_API_KEY");
    expect(text).toContain("Counterexample");
    // Expected and actual side by side, in words.
    const sides = one.querySelectorAll(".compare dl.facts").map((dl) => dl.text);
    expect(sides).toEqual(["eventsurn:uuid:a, urn:uuid:b", "eventsurn:uuid:b, urn:uuid:c"]);
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

describe("toHtml's verdict banner", () => {
  const bannerOf = (r: Parameters<typeof toHtml>[0]) => {
    const body = parse(toHtml(r)).querySelector("body")!;
    const first = body.childNodes.find((n) => n.nodeType === 1) as ReturnType<typeof parse>;
    return {
      first,
      word: body.querySelector("#verdict .word")!.text,
      text: body.querySelector("#verdict")!.text,
    };
  };

  it("opens the page with FAIL, the MUST failures and the warnings counted", () => {
    const { first, word, text } = bannerOf(everyStatus());
    expect(first.getAttribute("id")).toBe("verdict");
    expect(word).toBe("FAIL");
    expect(text).toContain("2 MUST requirements failed");
    expect(text).toContain("2 MUST failures");
    expect(text).toContain("1 warning");
    expect(text).toContain("exit 1");
  });

  it("says PASS with its warnings, INCOMPLETE with the reason, INTERRUPTED for a stopped run", () => {
    const passed = bannerOf(
      report([requirement("A", "pass"), requirement("B", "warn", { level: "SHOULD" })]),
    );
    expect(passed.word).toBe("PASS");
    expect(passed.text).toContain("0 MUST failures");
    expect(passed.text).toContain("1 warning");
    const reason = "the target http://127.0.0.1:9 is unreachable (ECONNREFUSED); check --target.";
    const incomplete = bannerOf(
      report([requirement("A", "error")], { verdict: "incomplete", exitCode: 2, incompleteReason: reason }),
    );
    expect(incomplete.word).toBe("INCOMPLETE");
    expect(incomplete.text).toContain(reason);
    const stopped = bannerOf(
      report([requirement("A", "pass")], {
        verdict: "incomplete",
        exitCode: 130,
        interrupted: true,
        incompleteReason: "interrupted by SIGINT before the run finished",
      }),
    );
    expect(stopped.word).toBe("INTERRUPTED");
    expect(stopped.text).toContain("interrupted by SIGINT");
  });

  it("shows what changed since the baseline, each id a link to its row, when the report records it", () => {
    const before = report([
      requirement("EVT-A", "pass"),
      requirement("EVT-B", "pass"),
      requirement("EVT-GONE", "pass"),
    ]);
    const now = report(
      [requirement("EVT-A", "fail"), requirement("EVT-B", "error"), requirement("EVT-NEW", "pass")],
      {
        verdict: "fail",
        exitCode: 1,
      },
    );
    now.changes = { baseline: "/old/report.json", ...diffReports(before, now) };
    const doc = parse(toHtml(now));
    const section = doc.getElementById("changes");
    expect(section?.text).toBe("Changes since the baseline");
    const rows = doc
      .querySelectorAll("table.changes tbody tr")
      .map((tr) => tr.querySelectorAll("td").map((td) => td.text));
    expect(rows).toEqual([
      ["newly failing", "EVT-A", "pass → fail"],
      ["changed", "EVT-B", "pass → error"],
      ["added", "EVT-NEW", "not in the baseline"],
      ["removed", "EVT-GONE", "not in this run"],
    ]);
    expect(doc.querySelector('table.changes a[href="#EVT-A"]')).not.toBeNull();
    expect(doc.querySelector("#verdict .because")?.text).toContain(
      "1 requirement regressed against the baseline",
    );
    expect(toHtml(report([requirement("EVT-A", "pass")]))).not.toContain('id="changes"');
  });

  it("links a blocked skip's blocker, in its reason, to the row of the requirement that failed", () => {
    const reason = "blocked by RES-ANCHOR, which failed: the lot's link set has no entry about it";
    const doc = parse(
      toHtml(
        report([
          requirement("RES-ANCHOR", "fail", { class: "resolver" }),
          requirement("RES-LINKTYPES", "skip", { class: "resolver", reason, blockedBy: "RES-ANCHOR" }),
        ]),
      ),
    );
    const cell = doc.getElementById("RES-LINKTYPES")!.querySelectorAll("td").at(-1)!;
    expect(cell.text).toBe(reason);
    expect(cell.querySelector("a.blocked-by")?.getAttribute("href")).toBe("#RES-ANCHOR");
    expect(doc.getElementById("RES-ANCHOR")?.tagName).toBe("TR");
  });

  it("folds requirements left undecided for one reason into one block that keeps their anchors", () => {
    const reason = "the target http://127.0.0.1:9 is unreachable; check --target.";
    const r = report(
      [
        requirement("EVT-A", "error", { reason, evidence: [] }),
        requirement("EVT-B", "error", { reason, evidence: [] }),
        requirement("EVT-C", "error", { reason: "schema unavailable", evidence: [] }),
      ],
      { verdict: "incomplete", exitCode: 2, incompleteReason: reason },
    );
    const doc = parse(toHtml(r));
    const blocks = doc.querySelectorAll("details.requirement");
    expect(blocks).toHaveLength(2);
    expect(blocks[0]!.querySelector("summary")!.text).toBe("error 2 requirements not decided");
    expect(blocks[0]!.querySelector("p.reason")!.text).toBe(reason);
    expect(doc.getElementById("evidence-EVT-A")!.tagName).toBe("LI");
    expect(doc.getElementById("evidence-EVT-C")!.tagName).toBe("DETAILS");
  });

  it("takes the verdict the run wrote over the one its requirements give", () => {
    // A harness error makes a run incomplete even when every MUST it decided passed.
    const r = report([requirement("A", "pass")], { verdict: "incomplete", exitCode: 2 });
    expect(bannerOf(r).word).toBe("INCOMPLETE");
  });
});

describe("toHtml's account of the run", () => {
  const r = report([requirement("EVT-A", "pass"), requirement("RES-B", "skip", { class: "resolver" })], {
    durationMs: 26_495,
    options: {
      suites: ["events"],
      modules: ["core", "seafood"],
      faults: ["lt-event-inclusive"],
      definition: { file: "/repo/schemas/interface.openapi.yaml", sha256: "ab".repeat(32), given: false },
      timeoutMs: 10_000,
      concurrency: 8,
      rate: 0,
      retryBudgetSeconds: 120,
    },
  });
  const doc = parse(toHtml(r));

  it("lists target, suites, modules, faults, definition and its sha-256, seed, runs, tool and seconds", () => {
    const meta = doc.querySelector("dl.meta")!.text;
    for (const fact of [
      "http://127.0.0.1:4000",
      "events",
      "not run: resolver, masterdata, auth, core-events, workflow, definition",
      "core, seafood",
      "lt-event-inclusive",
      "/repo/schemas/interface.openapi.yaml",
      "ab".repeat(32),
      "1234",
      "25",
      "tracecheck 0.1.0",
      "26.5 s",
    ]) {
      expect(meta).toContain(fact);
    }
  });

  it("folds the requirements of classes not chosen into one line", () => {
    const folded = doc.getElementById("not-selected")!;
    expect(folded.tagName).toBe("DETAILS");
    expect(folded.querySelector("summary")!.text).toBe(
      "1 requirement of resolver skipped: class not selected with --suite",
    );
    expect(folded.querySelector("tr#RES-B")).not.toBeNull();
    expect(doc.getElementById("EVT-A")!.closest("details")).toBeNull();
  });
});

describe("toHtml's evidence", () => {
  const html = toHtml(report([timeFailure(), linkSetFailures(20)]));
  const doc = parse(html);
  const time = doc.getElementById("evidence-EVT-TIME-LT-EVENT")!;

  it("lists each missing and extra event with the field the filter reads and the bound asked", () => {
    expect(time.querySelectorAll("table.events th").map((th) => th.text)).toEqual([
      "Event",
      "Why listed",
      "eventTime (LT_eventTime)",
    ]);
    const rows = time.querySelectorAll("table.events tbody tr").map((tr) => tr.text);
    const extra = rows.find((t) => t.includes(AT_THE_BOUND))!;
    expect(extra).toContain("extra");
    expect(extra).toContain("2021-07-09T07:28:46-09:30 (2021-07-09T16:58:46Z)");
    expect(extra).toContain("does not meet it");
    const missing = rows.find((t) => t.includes(NOT_ANSWERED))!;
    expect(missing).toContain("missing");
    expect(missing).toContain("records only its id");
    expect(time.querySelector("ul.asks")!.text).toBe(
      "LT_eventTime: eventTime strictly before 2021-07-09T16:58:46Z",
    );
  });

  it("shows a missing event's recorded time beside the bound, where the answer cannot hold it", () => {
    const recorded = timeFailure();
    recorded.evidence[0]!.eventValues = { [NOT_ANSWERED]: { eventTime: "2021-07-09T16:58:45.9Z" } };
    const block = parse(toHtml(report([recorded]))).getElementById("evidence-EVT-TIME-LT-EVENT")!;
    const rows = block.querySelectorAll("table.events tbody tr").map((tr) => tr.text);
    const missing = rows.find((t) => t.includes(NOT_ANSWERED))!;
    expect(missing).toContain("2021-07-09T16:58:45.9Z");
    expect(missing).toContain("meets it");
    expect(block.querySelector("p.unknown")).toBeNull();
  });

  it("says once that the evidence holds only ids, when no listed event's values are known", () => {
    const onlyIds = requirement("EVT-BIZSTEP-FORMS", "fail", {
      evidence: [
        {
          request: {
            method: "GET",
            url: "http://127.0.0.1:4000/events?EQ_bizStep=urn%3Aepcglobal%3Acbv%3Abizstep%3Ashipping",
            headers: {},
          },
          missing: ["urn:uuid:1", "urn:uuid:2"],
        },
      ],
    });
    const block = parse(toHtml(report([onlyIds]))).getElementById("evidence-EVT-BIZSTEP-FORMS")!;
    expect(block.querySelectorAll("table.events th").map((th) => th.text)).toEqual(["Event", "Why listed"]);
    expect(block.querySelectorAll("table.events tbody tr")).toHaveLength(2);
    expect(block.querySelector("p.unknown")!.text).toBe(
      "The evidence records only these events' ids, not their bizStep.",
    );
  });

  it("says the counterexample and the expected values in words, not as JSON", () => {
    const facts = time.querySelector("dl.facts")!.text;
    expect(facts).toContain("LT_eventTime=2021-07-09T16:58:46Z");
    expect(html).not.toContain("&quot;q&quot;");
    const expected = time.querySelectorAll(".compare dl.facts")[0]!.text;
    expect(expected).toBe("queryLT_eventTime=2021-07-09T16:58:46Zevents0");
  });

  it("keeps the curl line in view and the exchange collapsed, its body indented", () => {
    expect(time.querySelector(".curl pre")!.text).toContain("$TRACECHECK_API_KEY");
    const exchange = time.querySelector("details.exchange")!;
    expect(exchange.getAttribute("open")).toBeUndefined();
    expect(exchange.querySelector("pre.json")!.text).toContain('\n  "type": "EPCISQueryDocument"');
  });

  it("groups exchanges that differ only in identifiers, showing three and the differing one among them", () => {
    const links = doc.getElementById("evidence-RES-LINKSET-SHAPE")!;
    expect(links.querySelector(".group-note")!.text).toBe("20 link sets like this; 3 shown");
    const items = links.querySelectorAll(".item");
    expect(items).toHaveLength(3);
    expect(items.some((i) => i.text.includes("is not an array"))).toBe(true);
    const others = links.querySelector("details.more")!;
    expect(others.querySelector("summary")!.text).toBe("The other 17");
    expect(others.querySelectorAll("li")).toHaveLength(17);
  });

  it("has a print stylesheet that opens every collapsed block and hides the navigation", () => {
    const style = doc.querySelector("style")!.text;
    const print = style.slice(style.indexOf("@media print"));
    expect(print).toContain("details::details-content { content-visibility: visible; display: block; }");
    expect(print).toMatch(/nav\.toc[^{]*\{ display: none; \}/);
  });
});
