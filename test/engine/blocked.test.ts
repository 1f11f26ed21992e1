// One defect, one failure: a check that cannot judge a case because another requirement failed records it as
// blocked (checks.blocked), and the run's verdicts decide whether the block stands: a skip naming the blocker where
// it failed, an error where it did not, so that a dependency named wrongly is never a silent pass.
import { describe, expect, it } from "vitest";
import { makeChecks } from "../../src/engine/suite.ts";
import type { Level, Requirement, Status } from "../../src/engine/types.ts";
import { aggregate, blockedReason, type CheckVerdict } from "../../src/engine/verdicts.ts";

function req(id: string, level: Level = "MUST"): Requirement {
  return {
    id,
    section: "4.2",
    level,
    class: "resolver",
    title: `title of ${id}`,
    rule: "a rule",
    spec: `the quote of ${id}.`,
  };
}

const NO_CHECK = "no check ran for this requirement";

function verdicts(
  record: (checks: ReturnType<typeof makeChecks>) => void,
  id = "RES-LINKTYPES",
): CheckVerdict[] {
  const sink: CheckVerdict[] = [];
  record(makeChecks(id, sink));
  return sink;
}

const anchorFailed: CheckVerdict = { id: "RES-ANCHOR", status: "fail", reason: "no entry about the lot" };

describe("checks.blocked", () => {
  it("records a skip that names its blocker and says why", () => {
    const [v] = verdicts((c) => c.blocked("RES-ANCHOR", "the lot's link set has no entry about it"));
    expect(v).toEqual({
      id: "RES-LINKTYPES",
      status: "skip",
      reason: "blocked by RES-ANCHOR, which failed: the lot's link set has no entry about it",
      why: "the lot's link set has no entry about it",
      blockedBy: "RES-ANCHOR",
    });
    expect(blockedReason("X-1", "why")).toBe("blocked by X-1, which failed: why");
  });

  it("records it for another requirement with for()", () => {
    const [v] = verdicts((c) => c.for("RES-CANONICAL-BASE").blocked("RES-ANCHOR", "why"));
    expect([v?.id, v?.blockedBy]).toEqual(["RES-CANONICAL-BASE", "RES-ANCHOR"]);
  });
});

describe("aggregate: a check blocked by any of several requirements", () => {
  const pagingFailed: CheckVerdict = { id: "EVT-PAGING", status: "fail", reason: "a page was lost" };
  const byEither = () =>
    verdicts(
      (c) => c.blocked(["EVT-EPC-EPCLIST", "EVT-PAGING"], "the lot's answer misses events"),
      "RES-EPCIS-LINK",
    );

  it("names the one that failed", () => {
    const r = aggregate(req("RES-EPCIS-LINK"), [pagingFailed, ...byEither()], NO_CHECK);
    expect([r.status, r.reason]).toEqual([
      "skip",
      "blocked by EVT-PAGING, which failed: the lot's answer misses events",
    ]);
  });

  it("is an error naming them all when none failed", () => {
    const passed: CheckVerdict = { id: "EVT-PAGING", status: "pass" };
    const r = aggregate(req("RES-EPCIS-LINK"), [passed, ...byEither()], NO_CHECK);
    expect([r.status, r.reason]).toEqual([
      "error",
      "blocked by EVT-EPC-EPCLIST or EVT-PAGING, none of which failed: the lot's answer misses events",
    ]);
  });
});

describe("checks.failUnlessBlocked: blocked where a blocker failed, else a failure of its own", () => {
  const evidence = { message: "the lot's answer misses 2 events" };
  const finding = () =>
    verdicts(
      (c) =>
        c.failUnlessBlocked(["EVT-EPC-EPCLIST", "EVT-PAGING"], "the epcis link answers too few", evidence),
      "RES-EPCIS-LINK",
    );

  it("is a skip naming the blocker that failed", () => {
    const failed: CheckVerdict = { id: "EVT-PAGING", status: "fail", reason: "a page was lost" };
    const r = aggregate(req("RES-EPCIS-LINK"), [failed, ...finding()], NO_CHECK);
    expect([r.status, r.reason]).toEqual([
      "skip",
      "blocked by EVT-PAGING, which failed: the epcis link answers too few",
    ]);
    expect(r.evidence).toEqual([]);
  });

  it("is the failure, with its evidence, where no blocker failed or none was checked", () => {
    const passed: CheckVerdict = { id: "EVT-PAGING", status: "pass" };
    for (const others of [[passed], []]) {
      const r = aggregate(req("RES-EPCIS-LINK"), [...others, ...finding()], NO_CHECK);
      expect([r.status, r.reason, r.evidence]).toEqual([
        "fail",
        "the epcis link answers too few",
        [evidence],
      ]);
    }
  });

  it("is undecided, as a failure is, where its answer was cut short", () => {
    const cut = {
      request: { method: "GET", url: "http://127.0.0.1:1/events", headers: {} },
      response: { status: 200, headers: {}, truncated: true, bodyExcerpt: "" },
    } as unknown as Parameters<ReturnType<typeof makeChecks>["fail"]>[1];
    const [v] = verdicts((c) => c.failUnlessBlocked("EVT-PAGING", "too few", cut));
    expect(v?.status).toBe("error");
  });
});

describe("aggregate: a blocked check", () => {
  it("is a skip naming the blocker when the blocker failed, and is not outweighed by passes", () => {
    const mine = verdicts((c) => {
      c.pass("the serial's link set offers epcis");
      c.blocked("RES-ANCHOR", "the lot's link set has no entry about it");
      c.pass("the SSCC's link set offers epcis");
    });
    const r = aggregate(req("RES-LINKTYPES"), [anchorFailed, ...mine], NO_CHECK);
    expect(r.status).toBe("skip");
    expect(r.reason).toBe("blocked by RES-ANCHOR, which failed: the lot's link set has no entry about it");
    expect(r.evidence).toEqual([]);
  });

  it("names its blocker in blockedBy, as CONTRACT.md promises, and only while the status is the blocked skip", () => {
    const blocked = verdicts((c) => c.blocked("RES-ANCHOR", "why"));
    const skipped = aggregate(req("RES-LINKTYPES"), [anchorFailed, ...blocked], NO_CHECK);
    expect([skipped.status, skipped.blockedBy]).toEqual(["skip", "RES-ANCHOR"]);
    const byEither = verdicts((c) => c.blocked(["EVT-PAGING", "RES-ANCHOR"], "why"));
    expect(aggregate(req("RES-LINKTYPES"), [anchorFailed, ...byEither], NO_CHECK).blockedBy).toBe(
      "RES-ANCHOR",
    );
    const own: CheckVerdict = { id: "RES-LINKTYPES", status: "fail", reason: "its own failure" };
    const failed = aggregate(req("RES-LINKTYPES"), [anchorFailed, ...blocked, own], NO_CHECK);
    expect(failed.status).toBe("fail");
    expect(failed).not.toHaveProperty("blockedBy");
    const notBorneOut = aggregate(req("RES-LINKTYPES"), blocked, NO_CHECK);
    expect(notBorneOut.status).toBe("error");
    expect(notBorneOut).not.toHaveProperty("blockedBy");
    const plain: CheckVerdict = { id: "RES-LINKTYPES", status: "skip", reason: "no link set offered one" };
    expect(aggregate(req("RES-LINKTYPES"), [plain], NO_CHECK)).not.toHaveProperty("blockedBy");
  });

  it("gives way to a failure, warning or error of the requirement's own", () => {
    for (const own of ["fail", "warn", "error"] as Status[]) {
      const mine: CheckVerdict[] = [
        ...verdicts((c) => c.blocked("RES-ANCHOR", "why")),
        { id: "RES-LINKTYPES", status: own, reason: `its own ${own}` },
      ];
      const r = aggregate(req("RES-LINKTYPES"), [anchorFailed, ...mine], NO_CHECK);
      expect([r.status, r.reason]).toEqual([own, `its own ${own}`]);
    }
  });

  it("names the block rather than a plain skip's reason, in either order", () => {
    const plain: CheckVerdict = { id: "RES-LINKTYPES", status: "skip", reason: "no link set offered one" };
    const blocked = verdicts((c) => c.blocked("RES-ANCHOR", "why"));
    for (const mine of [
      [plain, ...blocked],
      [...blocked, plain],
    ]) {
      const r = aggregate(req("RES-LINKTYPES"), [anchorFailed, ...mine], NO_CHECK);
      expect(r.reason).toBe("blocked by RES-ANCHOR, which failed: why");
    }
  });

  it("is an error when the blocker did not fail, so that a wrong dependency hides nothing", () => {
    const mine = verdicts((c) => {
      c.pass();
      c.blocked("RES-ANCHOR", "the lot's link set has no entry about it");
    });
    const anchorPassed: CheckVerdict = { id: "RES-ANCHOR", status: "pass" };
    const r = aggregate(req("RES-LINKTYPES"), [anchorPassed, ...mine], NO_CHECK);
    expect(r.status).toBe("error");
    expect(r.reason).toBe(
      "blocked by RES-ANCHOR, which did not fail: the lot's link set has no entry about it",
    );
  });

  it("is an error when the blocker was not checked in the run, or was skipped", () => {
    const mine = verdicts((c) => c.blocked("RES-ANCHOR", "why"));
    const unchecked = aggregate(req("RES-LINKTYPES"), mine, NO_CHECK);
    expect([unchecked.status, unchecked.reason]).toEqual([
      "error",
      "blocked by RES-ANCHOR, which did not fail (it was not checked in this run): why",
    ]);
    const skipped = aggregate(
      req("RES-LINKTYPES"),
      [{ id: "RES-ANCHOR", status: "skip", reason: "no link set" }, ...mine],
      NO_CHECK,
    );
    expect(skipped.status).toBe("error");
  });

  it("does not stand on a blocker that failed only as a SHOULD, whose failure is a warning", () => {
    const shouldFailed: CheckVerdict = { id: "RES-ANCHOR", status: "fail", reason: "no entry about the lot" };
    const levelOf = (id: string) => (id === "RES-ANCHOR" ? "SHOULD" : "MUST");
    const blocked = verdicts((c) => c.blocked("RES-ANCHOR", "why"));
    const r = aggregate(req("RES-LINKTYPES"), [shouldFailed, ...blocked], NO_CHECK, { levelOf });
    expect([r.status, r.reason]).toEqual([
      "error",
      "blocked by RES-ANCHOR, which only warned (not a MUST): why",
    ]);
    const finding = verdicts((c) => c.failUnlessBlocked(["RES-ANCHOR"], "its own finding", { message: "m" }));
    const own = aggregate(req("RES-LINKTYPES"), [shouldFailed, ...finding], NO_CHECK, { levelOf });
    expect([own.status, own.reason, own.evidence]).toEqual(["fail", "its own finding", [{ message: "m" }]]);
    // The same blocker at MUST: the block stands.
    const must = aggregate(req("RES-LINKTYPES"), [shouldFailed, ...blocked], NO_CHECK, {
      levelOf: () => "MUST",
    });
    expect(must.status).toBe("skip");
  });

  it("leaves the blocker's own verdict as it is: the root failure decides the run", () => {
    const mine = verdicts((c) => c.blocked("RES-ANCHOR", "why"));
    const anchor = aggregate(req("RES-ANCHOR"), [anchorFailed, ...mine], NO_CHECK);
    expect([anchor.status, anchor.reason]).toEqual(["fail", "no entry about the lot"]);
  });
});
