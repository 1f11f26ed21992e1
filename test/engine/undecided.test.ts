// A failure must rest on an answer the sender gave: a request without an answer, or one refused with 429 after the
// run's retry budget, leaves its check undecided (error), never failed.
import { describe, expect, test } from "vitest";
import { makeChecks, undecidedBy } from "../../src/engine/suite.ts";
import type { Evidence } from "../../src/engine/types.ts";
import type { CheckVerdict } from "../../src/engine/verdicts.ts";

const request = { method: "GET", url: "http://127.0.0.1:1/events", headers: {} };

function answered(status: number, headers: Record<string, string> = {}): Evidence {
  return {
    request,
    response: { status, headers, bodyExcerpt: "", bodyBytes: 0, truncated: false },
    curl: "curl …",
  };
}

describe("undecidedBy", () => {
  test("an exchange without an answer, a 429 and a 503 with Retry-After decide nothing", () => {
    expect(undecidedBy({ request, curl: "curl …" })).toMatch(/no answer/);
    expect(undecidedBy(answered(429))).toMatch(/429/);
    expect(undecidedBy(answered(503, { "retry-after": "5" }))).toMatch(/503/);
  });

  test("any other answer, and evidence that is not an exchange, stand", () => {
    for (const status of [200, 400, 404, 413, 500, 503])
      expect(undecidedBy(answered(status))).toBeUndefined();
    expect(undecidedBy({ message: "the sets differ", missing: ["a"] })).toBeUndefined();
    expect(undecidedBy(undefined)).toBeUndefined();
  });
});

describe("undecidedBy with the target's origins", () => {
  const target = ["http://127.0.0.1:1"];
  test("no answer from the target, or a cut-short answer, decides nothing", () => {
    expect(undecidedBy({ request, curl: "curl …" }, target)).toMatch(/no answer/);
    const cut = answered(200);
    if (cut.response) cut.response.truncated = true;
    expect(undecidedBy(cut, target)).toMatch(/cut short/);
  });
  test("a refusal of a request the harness sent without the key, off the target's origins, decides nothing", () => {
    const away = { ...request, url: "http://127.0.0.1:2/masterdata/1" };
    for (const status of [401, 403]) {
      const withheld = { ...answered(status), request: away, keyWithheld: true };
      expect(undecidedBy(withheld, target)).toMatch(/without the key.*--allow-origin/);
      expect(undecidedBy({ ...withheld, keyWithheld: false }, target)).toBeUndefined();
    }
    expect(undecidedBy({ ...answered(404), request: away, keyWithheld: true }, target)).toBeUndefined();
  });
  test("no answer from another origin a link led to is the sender's doing and stands", () => {
    const elsewhere = { request: { ...request, url: "http://127.0.0.1:2/masterdata/1" }, curl: "curl …" };
    expect(undecidedBy(elsewhere, target)).toBeUndefined();
  });
});

describe("makeChecks", () => {
  test("turns a failure or a warning on an undecided exchange into an error that keeps the reason", () => {
    const sink: CheckVerdict[] = [];
    const checks = makeChecks("EVT-AND", sink);
    checks.fail("answered 429", answered(429));
    checks.warn("no answer", { request, curl: "curl …" });
    expect(sink.map((v) => v.status)).toEqual(["error", "error"]);
    expect(sink[0]?.reason).toBe(
      "not decided: the target kept answering 429 Too Many Requests (answered 429)",
    );
    expect(sink[0]?.evidence?.response?.status).toBe(429);
  });

  test("keeps a failure on a real answer a failure", () => {
    const sink: CheckVerdict[] = [];
    makeChecks("EVT-AND", sink).fail("extra events", answered(200));
    makeChecks("EVT-AND", sink).fail("refused", answered(400));
    expect(sink.map((v) => v.status)).toEqual(["fail", "fail"]);
  });
});
