import { describe, expect, it } from "vitest";
import {
  accessOf,
  headerCasingVerdict,
  missingKeyVerdict,
  type Probe,
  type ProbedEndpoint,
  publicWithKeyVerdict,
  publicWithoutKeyVerdict,
  queryStringKeyVerdict,
  refusalStatusVerdict,
  wrongKeyVerdict,
} from "../../src/assertions/auth.ts";

const is2xx = (s: number) => s >= 200 && s <= 299;

/** A probe answered with `status`, its evidence naming the request so that a test can tell which one it is. */
function answer(status: number, what: string): Probe {
  return {
    status,
    evidence: {
      request: { method: "GET", url: `http://127.0.0.1:9/events?${what}`, headers: {} },
      response: { status, headers: {}, bodyExcerpt: "", bodyBytes: 0, truncated: false },
    },
  };
}

function noAnswer(what: string): Probe {
  return {
    error: "connect ECONNREFUSED",
    evidence: { request: { method: "GET", url: `http://127.0.0.1:9/events?${what}`, headers: {} } },
  };
}

function endpoint(withKey: Probe, withoutKey: Probe): ProbedEndpoint {
  return { name: "GET /events", accepted: is2xx, withKey, withoutKey };
}

const guarded = endpoint(answer(200, "keyed"), answer(401, "bare"));
const open = endpoint(answer(200, "keyed"), answer(200, "bare"));

describe("accessOf", () => {
  it("takes a 429 for neither an answer nor a refusal: it says nothing of the key", () => {
    expect(accessOf(endpoint(answer(200, "keyed"), answer(429, "bare")))).toMatchObject({
      kind: "unjudged",
      broken: true,
    });
    expect(accessOf(endpoint(answer(429, "keyed"), answer(401, "bare")))).toMatchObject({
      kind: "unjudged",
      broken: true,
    });
    // A wrong key answered 429 by a guarded endpoint is neither refused nor let in: not a pass.
    expect(wrongKeyVerdict(guarded, answer(429, "wrong")).status).toBe("error");
    expect(refusalStatusVerdict(guarded, "with a wrong key", answer(429, "wrong"))).toBeUndefined();
  });

  it("reads guarded, open and unjudged from the two answers", () => {
    expect(accessOf(guarded)).toEqual({ kind: "guarded" });
    expect(accessOf(open)).toEqual({ kind: "open" });
    expect(accessOf(endpoint(answer(500, "keyed"), answer(401, "bare")))).toMatchObject({
      kind: "unjudged",
      broken: true,
    });
    expect(accessOf(endpoint(answer(200, "keyed"), answer(503, "bare")))).toMatchObject({
      kind: "unjudged",
      broken: true,
    });
    expect(accessOf(endpoint(noAnswer("keyed"), answer(401, "bare")))).toMatchObject({
      kind: "unjudged",
      broken: true,
    });
    // The valid key refused is a verdict of AUTH-HEADER; the other checks are not judged on it.
    expect(accessOf(endpoint(answer(401, "keyed"), answer(401, "bare")))).toMatchObject({
      kind: "unjudged",
      broken: false,
    });
  });

  it("takes 413 for answered where the endpoint says so (spec 7)", () => {
    const broad = {
      ...endpoint(answer(413, "keyed"), answer(413, "bare")),
      accepted: (s: number) => s === 413,
    };
    expect(accessOf(broad)).toEqual({ kind: "open" });
  });
});

describe("a target that answers 500 to everything passes nothing", () => {
  const broken = endpoint(answer(500, "keyed"), answer(500, "bare"));
  const verdicts = [
    missingKeyVerdict(broken),
    wrongKeyVerdict(broken, answer(500, "wrong")),
    publicWithKeyVerdict(broken),
    publicWithoutKeyVerdict(broken, answer(500, "bare")),
    headerCasingVerdict(broken, "x-api-key", answer(500, "casing")),
    queryStringKeyVerdict(broken, "api_key", answer(500, "query")),
  ];

  it("every check is an error that names what it was answered, with the exchange", () => {
    for (const v of verdicts) {
      expect(v.status).toBe("error");
      expect(v.reason).toMatch(/^not judged: .*answered 500/);
      expect(v.evidence?.response?.status).toBe(500);
    }
    expect(refusalStatusVerdict(broken, "without a key", broken.withoutKey)).toBeUndefined();
  });

  it("no answer at all is an error too", () => {
    const silent = endpoint(noAnswer("keyed"), noAnswer("bare"));
    expect(missingKeyVerdict(silent)).toMatchObject({ status: "error" });
    expect(missingKeyVerdict(silent).reason).toContain("got no answer (connect ECONNREFUSED)");
    expect(publicWithoutKeyVerdict(silent, noAnswer("bare")).status).toBe("error");
  });
});

describe("missingKeyVerdict (AUTH-MISSING)", () => {
  it("passes a refusal with the exchange that shows it", () => {
    const v = missingKeyVerdict(guarded);
    expect(v.status).toBe("pass");
    expect(v.evidence?.request?.url).toContain("bare");
    expect(v.evidence?.response?.status).toBe(401);
  });

  it("fails (a warning at SHOULD) an open GET /events, naming spec 5.6", () => {
    const v = missingKeyVerdict(open);
    expect(v.status).toBe("fail");
    expect(v.reason).toContain('spec 5.6: "Some cases need no authentication."');
    expect(v.evidence?.request?.url).toContain("bare");
  });

  it("skips, not errs, when the valid key itself was refused", () => {
    const refused = endpoint(answer(403, "keyed"), answer(403, "bare"));
    expect(missingKeyVerdict(refused)).toMatchObject({ status: "skip" });
  });
});

describe("wrongKeyVerdict (AUTH-WRONG)", () => {
  it("passes a wrong key refused where a missing one is", () => {
    const v = wrongKeyVerdict(guarded, answer(401, "wrong"));
    expect(v.status).toBe("pass");
    expect(v.evidence?.request?.url).toContain("wrong");
  });

  it("fails a wrong key answered where a missing one is refused, naming spec 5.5", () => {
    const v = wrongKeyVerdict(guarded, answer(200, "wrong"));
    expect(v.status).toBe("fail");
    expect(v.reason).toContain("asks for a key it does not check");
    expect(v.reason).toContain('spec 5.5: "The sender alone generates, manages and checks the keys."');
  });

  it("fails nothing where no key is needed, whether a wrong key is answered or refused", () => {
    const answered = wrongKeyVerdict(open, answer(200, "wrong"));
    const refused = wrongKeyVerdict(open, answer(401, "wrong"));
    expect(answered.status).toBe("skip");
    expect(refused.status).toBe("skip");
    expect(refused.reason).toContain("it refused one with 401");
    expect(answered.reason).toContain("spec 5.6");
  });

  it("errs when the wrong key got an answer that is neither", () => {
    expect(wrongKeyVerdict(guarded, answer(502, "wrong")).status).toBe("error");
    expect(wrongKeyVerdict(guarded, noAnswer("wrong")).status).toBe("error");
  });
});

describe("refusalStatusVerdict (AUTH-STATUS)", () => {
  it("judges only refusals, 401 and 403 passing", () => {
    expect(refusalStatusVerdict(guarded, "without a key", answer(401, "bare"))?.status).toBe("pass");
    expect(refusalStatusVerdict(guarded, "with a wrong key", answer(403, "wrong"))?.status).toBe("pass");
    const other = refusalStatusVerdict(guarded, "with a wrong key", answer(400, "wrong"));
    expect(other?.status).toBe("fail");
    expect(other?.reason).toContain("refused with 400, not 401 or 403");
    expect(refusalStatusVerdict(open, "with a wrong key", answer(200, "wrong"))).toBeUndefined();
    // An open endpoint that refuses a wrong key is judged on that refusal's status.
    expect(refusalStatusVerdict(open, "with a wrong key", answer(401, "wrong"))?.status).toBe("pass");
  });
});

describe("headerCasingVerdict (AUTH-HEADER) and queryStringKeyVerdict (AUTH-QUERY-STRING)", () => {
  it("passes an answered casing and fails a refused one", () => {
    expect(headerCasingVerdict(guarded, "x-api-key", answer(200, "casing")).status).toBe("pass");
    const refused = headerCasingVerdict(guarded, "X-API-KEY", answer(401, "casing"));
    expect(refused.status).toBe("fail");
    expect(refused.reason).toContain("in a header named X-API-KEY was refused with 401");
  });

  it("passes a refused query-string key and fails an answered one", () => {
    expect(queryStringKeyVerdict(guarded, "api_key", answer(401, "query")).status).toBe("pass");
    const taken = queryStringKeyVerdict(guarded, "api_key", answer(200, "query"));
    expect(taken.status).toBe("fail");
    expect(taken.reason).toContain("query parameter api_key");
  });
});

describe("AUTH-PUBLIC", () => {
  it("without a key: passes an answer, says a refusal means a key is needed", () => {
    expect(publicWithoutKeyVerdict(open, answer(200, "bare")).status).toBe("pass");
    const refused = publicWithoutKeyVerdict(open, answer(401, "bare"));
    expect(refused.status).toBe("fail");
    expect(refused.reason).toContain("--api-key");
  });

  it("with a key: passes an open GET /events and skips a guarded one", () => {
    expect(publicWithKeyVerdict(open)).toMatchObject({ status: "pass" });
    expect(publicWithKeyVerdict(guarded)).toMatchObject({ status: "skip" });
  });
});
