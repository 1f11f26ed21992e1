import { describe, expect, it } from "vitest";
import type { Evidence, Level, Requirement, Status } from "../../src/engine/types.ts";
import { aggregate, type CheckVerdict, effectiveLevel, statusAtLevel } from "../../src/engine/verdicts.ts";

function req(level: Level = "MUST", id = "EVT-AND"): Requirement {
  return {
    id,
    section: "4.1",
    level,
    class: "events",
    title: `title of ${id}`,
    rule: "a rule",
    spec: `the quote of ${id}.`,
  };
}

function check(status: Status, reason?: string, evidence?: Evidence, id = "EVT-AND"): CheckVerdict {
  const v: CheckVerdict = { id, status };
  if (reason !== undefined) v.reason = reason;
  if (evidence !== undefined) v.evidence = evidence;
  return v;
}

const NO_CHECK = "no check ran for this requirement";

describe("aggregate: the worst check decides", () => {
  const cases: [Status[], Status][] = [
    [["pass"], "pass"],
    [["pass", "pass", "pass"], "pass"],
    [["pass", "warn"], "warn"],
    [["warn", "pass"], "warn"],
    [["pass", "fail", "warn"], "fail"],
    [["pass", "error"], "error"],
    [["error", "fail"], "fail"],
    [["fail", "error"], "fail"],
    [["warn", "error", "pass"], "error"],
    [["skip", "warn"], "warn"],
    [["skip", "fail"], "fail"],
  ];
  it.each(cases)("%j at MUST gives %s", (statuses, expected) => {
    const r = aggregate(
      req(),
      statuses.map((s) => check(s)),
      NO_CHECK,
    );
    expect(r.status).toBe(expected);
    expect(r.checks).toBe(statuses.length);
  });

  it("leaves a requirement no check judged a skip, or an error where the run says it should have been judged", () => {
    const skipped = aggregate(req(), [check("pass", undefined, undefined, "EVT-OTHER")], NO_CHECK);
    expect([skipped.status, skipped.reason, skipped.checks]).toEqual(["skip", NO_CHECK, 0]);
    const missing = aggregate(req(), [], NO_CHECK, { noCheckStatus: "error" });
    expect([missing.status, missing.reason]).toEqual(["error", NO_CHECK]);
    // One check decides as ever, whatever the status of none would have been.
    expect(aggregate(req(), [check("pass")], NO_CHECK, { noCheckStatus: "error" }).status).toBe("pass");
  });

  it("takes the reason of the check that decided", () => {
    const r = aggregate(
      req(),
      [check("warn", "odd header"), check("fail", "an event is missing"), check("pass", "fine")],
      NO_CHECK,
    );
    expect(r.reason).toBe("an event is missing");
  });

  it("counts only the checks of its own requirement", () => {
    const r = aggregate(
      req("MUST", "EVT-AND"),
      [check("pass"), check("fail", "other", undefined, "EVT-PIPE-OR"), check("pass")],
      NO_CHECK,
    );
    expect(r.status).toBe("pass");
    expect(r.checks).toBe(2);
  });

  it("copies the requirement's identity into the result", () => {
    const requirement = req("SHOULD", "EVT-NO-MATCH");
    const r = aggregate(requirement, [check("pass", undefined, undefined, "EVT-NO-MATCH")], NO_CHECK);
    expect(r).toMatchObject({
      id: "EVT-NO-MATCH",
      level: "SHOULD",
      class: "events",
      section: "4.1",
      title: "title of EVT-NO-MATCH",
      spec: "the quote of EVT-NO-MATCH.",
    });
  });
});

describe("aggregate: levels", () => {
  it.each<[Level, Status]>([
    ["MUST", "fail"],
    ["SHOULD", "warn"],
    ["MAY", "warn"],
  ])("a failed check of a %s requirement is %s", (level, expected) => {
    const r = aggregate(req(level), [check("pass"), check("fail", "not as expected")], NO_CHECK);
    expect(r.status).toBe(expected);
    expect(r.reason).toBe("not as expected");
  });

  it("a SHOULD requirement still reports an error as error", () => {
    expect(aggregate(req("SHOULD"), [check("error", "timed out")], NO_CHECK).status).toBe("error");
  });

  it("a definitionLevel applies only when the user passed --definition", () => {
    const requirement: Requirement = { ...req("MUST", "DEF-KDE-NAME"), definitionLevel: "SHOULD" };
    const failed = [check("fail", "no x-kde-name", undefined, "DEF-KDE-NAME")];
    const own = aggregate(requirement, failed, NO_CHECK);
    expect(own).toMatchObject({ level: "MUST", status: "fail" });
    const theirs = aggregate(requirement, failed, NO_CHECK, { definitionGiven: true });
    expect(theirs).toMatchObject({ level: "SHOULD", status: "warn", reason: "no x-kde-name" });
    expect(effectiveLevel(requirement, false)).toBe("MUST");
    expect(effectiveLevel(requirement, true)).toBe("SHOULD");
  });

  it("a definitionLevel may also raise the level, and without one --definition changes nothing", () => {
    const raised: Requirement = { ...req("SHOULD"), definitionLevel: "MUST" };
    expect(aggregate(raised, [check("fail")], NO_CHECK, { definitionGiven: true }).status).toBe("fail");
    expect(aggregate(raised, [check("fail")], NO_CHECK).status).toBe("warn");
    expect(aggregate(req("SHOULD"), [check("fail")], NO_CHECK, { definitionGiven: true }).status).toBe(
      "warn",
    );
  });

  it("statusAtLevel changes only fail, and only below MUST", () => {
    const statuses: Status[] = ["pass", "fail", "warn", "skip", "error"];
    for (const s of statuses) {
      expect(statusAtLevel(s, "MUST")).toBe(s);
      expect(statusAtLevel(s, "SHOULD")).toBe(s === "fail" ? "warn" : s);
      expect(statusAtLevel(s, "MAY")).toBe(s === "fail" ? "warn" : s);
    }
  });
});

describe("aggregate: skips", () => {
  it("is skipped when every check skipped, with the first skip's reason", () => {
    const r = aggregate(req(), [check("skip", "no transformation events"), check("skip", "later")], NO_CHECK);
    expect(r.status).toBe("skip");
    expect(r.reason).toBe("no transformation events");
  });

  it("a pass keeps the note of its first check that wrote one", () => {
    const r = aggregate(
      req(),
      [check("pass"), check("pass", "9 of 9 cases held"), check("pass", "later")],
      NO_CHECK,
    );
    expect(r.status).toBe("pass");
    expect(r.reason).toBe("9 of 9 cases held");
  });

  it("a skipped check does not hide a pass, in either order", () => {
    for (const checks of [
      [check("skip", "nothing to draw"), check("pass")],
      [check("pass"), check("skip", "nothing to draw")],
    ]) {
      const r = aggregate(req(), checks, NO_CHECK);
      expect(r.status).toBe("pass");
      expect(r.reason).toBeUndefined();
    }
  });

  it("with no checks at all it is skipped with the reason given", () => {
    const r = aggregate(req(), [check("fail", "someone else's", undefined, "EVT-PIPE-OR")], NO_CHECK);
    expect(r.status).toBe("skip");
    expect(r.reason).toBe(NO_CHECK);
    expect(r.checks).toBe(0);
    expect(r.evidence).toEqual([]);
  });

  it("the reason for no checks is the caller's", () => {
    const reason = "class events not selected with --suite";
    expect(aggregate(req(), [], reason).reason).toBe(reason);
  });
});

describe("aggregate: evidence", () => {
  const ev = (message: string): Evidence => ({ message, curl: `curl '${message}'` });

  it("keeps the evidence of every check that did not pass", () => {
    const r = aggregate(
      req(),
      [
        check("pass", undefined, ev("passed")),
        check("warn", "w", ev("warned")),
        check("fail", "f", ev("failed")),
        check("error", "e", ev("errored")),
        check("skip", "s", ev("skipped")),
      ],
      NO_CHECK,
    );
    expect(r.evidence.map((e) => e.message)).toEqual(["warned", "failed", "errored"]);
  });

  it("keeps the evidence of a SHOULD failure turned warning", () => {
    const r = aggregate(req("SHOULD"), [check("fail", "f", ev("failed"))], NO_CHECK);
    expect(r.status).toBe("warn");
    expect(r.evidence).toEqual([ev("failed")]);
  });

  it("a passing requirement carries the exchange of its first pass that has one, and only that", () => {
    const r = aggregate(
      req(),
      [check("pass"), check("pass", undefined, ev("a")), check("pass", undefined, ev("b"))],
      NO_CHECK,
    );
    expect(r.evidence.map((e) => e.message)).toEqual(["a"]);
    expect(aggregate(req(), [check("pass")], NO_CHECK).evidence).toEqual([]);
  });

  it("a pass carries up to `proofs` exchanges when asked for more, in order", () => {
    const checks = [
      check("pass", undefined, ev("a")),
      check("pass"),
      check("pass", undefined, ev("b")),
      check("pass", undefined, ev("c")),
    ];
    const proofs = (n?: number) =>
      aggregate(req(), checks, NO_CHECK, n === undefined ? {} : { proofs: n }).evidence.map((e) => e.message);
    expect(proofs()).toEqual(["a"]);
    expect(proofs(2)).toEqual(["a", "b"]);
    expect(proofs(10)).toEqual(["a", "b", "c"]);
  });

  it("keeps at most twenty pieces of evidence, the first ones", () => {
    const checks = Array.from({ length: 30 }, (_, i) => check("fail", `f${i}`, ev(`e${i}`)));
    const r = aggregate(req(), checks, NO_CHECK);
    expect(r.evidence).toHaveLength(20);
    expect(r.evidence[0]?.message).toBe("e0");
    expect(r.evidence[19]?.message).toBe("e19");
    expect(r.checks).toBe(30);
  });
});
