import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { queryDocumentProblem } from "../../src/assertions/query-document.ts";
import { createValidators, REPO_ROOT, type Validators } from "../../src/definition/index.ts";

const SHARED = path.resolve(REPO_ROOT, "../shared/epcis");

function read(relative: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(SHARED, relative), "utf8")) as Record<string, unknown>;
}

let validators: Validators;

beforeAll(async () => {
  validators = await createValidators({ epcisSchema: read("schema/epcis-json-schema-2.0.1.json") });
});

describe("queryDocumentProblem", () => {
  it("accepts a published EPCISQueryDocument example", () => {
    expect(
      queryDocumentProblem(read("examples/openepcis/Query/queryDocument.json"), validators),
    ).toBeUndefined();
  });

  it("accepts an empty event list", () => {
    const doc = read("examples/openepcis/Query/queryDocument.json");
    const body = doc.epcisBody as { queryResults: { resultsBody: { eventList: unknown[] } } };
    body.queryResults.resultsBody.eventList = [];
    expect(queryDocumentProblem(doc, validators)).toBeUndefined();
  });

  it("refuses a document the published schema refuses, listing the schema errors", () => {
    const problem = queryDocumentProblem(
      read("examples/openepcis/Query/Invalid/QueryDocument_with_invalid_action.json"),
      validators,
    );
    expect(problem?.reason).toMatch(/schema error/);
    const actual = problem?.evidence.actual as { schemaErrors: string[] } | undefined;
    expect(actual?.schemaErrors.length).toBeGreaterThan(0);
  });

  it("refuses a document without @context", () => {
    const { "@context": _context, ...withoutContext } = read("examples/openepcis/Query/queryDocument.json");
    expect(queryDocumentProblem(withoutContext, validators)?.reason).toMatch(/schema error/);
  });

  it("refuses an EPCISDocument, a body without an event list and a body that is no object", () => {
    const capture = read("examples/openepcis/Capture/Documents/ObjectEvent.json");
    expect(queryDocumentProblem(capture, validators)?.reason).toContain('its type is "EPCISDocument"');
    const noList = { type: "EPCISQueryDocument", epcisBody: { queryResults: {} } };
    expect(queryDocumentProblem(noList, validators)?.reason).toContain(
      "no epcisBody.queryResults.resultsBody.eventList",
    );
    expect(queryDocumentProblem([], validators)?.reason).toContain("not a JSON object");
  });
});
