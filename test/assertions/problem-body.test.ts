import { describe, expect, it } from "vitest";
import { problemBodyProblem } from "../../src/assertions/problem-body.ts";

const PROBLEM = "application/problem+json";

function answer(body: unknown, contentType = PROBLEM, status = 400) {
  return {
    status,
    headers: { "content-type": contentType },
    text: typeof body === "string" ? body : JSON.stringify(body),
  };
}

describe("problemBodyProblem", () => {
  it("accepts an RFC 7807 problem, with a charset parameter too", () => {
    const body = {
      type: "epcisException:QueryParameterException",
      title: "Invalid query parameter",
      status: 400,
    };
    expect(problemBodyProblem(answer(body))).toBeUndefined();
    expect(problemBodyProblem(answer(body, `${PROBLEM}; charset=utf-8`))).toBeUndefined();
  });

  it("accepts a problem without any of the optional members", () => {
    expect(problemBodyProblem(answer({}))).toBeUndefined();
  });

  it("refuses another media type", () => {
    const problem = problemBodyProblem(answer({ title: "bad" }, "application/json"));
    expect(problem?.reason).toContain("its media type is application/json");
    expect(problem?.evidence.actual).toEqual({ status: 400, contentType: "application/json" });
  });

  it("refuses a body that is not a JSON object", () => {
    expect(problemBodyProblem(answer("not json"))?.reason).toContain("not JSON");
    expect(problemBodyProblem(answer([1, 2]))?.reason).toContain("not a JSON object");
  });

  it("refuses members of the wrong type and a status that differs from the response's", () => {
    expect(problemBodyProblem(answer({ title: 7 }))?.reason).toContain('"title" member is 7');
    expect(problemBodyProblem(answer({ status: 500 }))?.reason).toContain("while the response status is 400");
  });
});
