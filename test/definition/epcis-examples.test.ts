import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createValidators, type Validators } from "../../src/definition/index.ts";
import { EPCIS_EXAMPLES, filesUnder } from "../support/examples.ts";

const GS1 = path.join(EPCIS_EXAMPLES, "gs1/JSON");
const INVALID = path.join(EPCIS_EXAMPLES, "openepcis/Capture/Invalid");

interface EpcisDoc {
  type?: string;
  epcisBody: { eventList?: unknown[]; queryResults?: { resultsBody?: { eventList?: unknown[] } } };
}

const readJson = (file: string): EpcisDoc => JSON.parse(readFileSync(file, "utf8"));

/**
 * Why each invalid capture document must be refused: the error each defect has to produce. Every event the
 * file's name calls invalid appears here, so a document refused for an incidental reason would fail.
 */
const SCHEMA_REJECTS: Record<string, string[]> = {
  "Combination_of_events_with_missing_mandatory_fields.json": [
    "/epcisBody/eventList/0 must have required property 'action'",
    "/epcisBody/eventList/1 must have required property 'action'",
    "/epcisBody/eventList/1 must have required property 'eventTimeZoneOffset'",
  ],
  "Combination_of_multiple_invalid_fields.json": [
    "/epcisBody/eventList/0/bizStep ",
    "/epcisBody/eventList/1/disposition ",
    "/epcisBody/eventList/2/sourceList/0/type ",
    "/epcisBody/eventList/3/ilmd ",
    "/epcisBody/eventList/4/eventTime ",
    "/epcisBody/eventList/4/action ",
  ],
  "Combination_of_non_standard_bizStep_and_disposition.json": [
    "/epcisBody/eventList/0/bizStep ",
    "/epcisBody/eventList/1/disposition ",
  ],
  "EPCISDocument_without_context.json": ["/ must have required property '@context'"],
  "ObjectEvent_with_ilmd_field_without_namespace.json": [
    "/epcisBody/eventList/0/ilmd property name must be valid",
  ],
  "ObjectEvent_with_invalid_action.json": [
    "/epcisBody/eventList/0/action must be equal to one of the allowed values",
  ],
  "ObjectEvent_with_invalid_certificationInfo.json": ["/epcisBody/eventList/0/certificationInfo "],
  "ObjectEvent_with_invalid_eventTime_format.json": [
    '/epcisBody/eventList/0/eventTime must match format "date-time"',
  ],
  "ObjectEvent_with_non_standard_bizStep.json": ["/epcisBody/eventList/0/bizStep "],
  "ObjectEvent_with_non_standard_bizStep_in_second_event.json": ["/epcisBody/eventList/1/bizStep "],
  "ObjectEvent_with_non_standard_disposition.json": ["/epcisBody/eventList/0/disposition "],
  "ObjectEvent_with_quantity_as_text.json": ["/epcisBody/eventList/0/quantityList/0/quantity must be number"],
  "ObjectEvent_with_unknown_field_in_quantityList.json": [
    "/epcisBody/eventList/0/quantityList/0 must NOT have additional properties (weight)",
  ],
  "ObjectEvent_without_action_and_eventTime.json": [
    "/epcisBody/eventList/0 must have required property 'eventTime'",
    "/epcisBody/eventList/0 must have required property 'action'",
  ],
  "ObjectEvent_without_identifier_list.json": [
    "/epcisBody/eventList/0 must have required property 'epcList'",
    "/epcisBody/eventList/0 must have required property 'quantityList'",
  ],
};

/**
 * Invalid documents the published schema cannot refuse, only a semantic check could, with the reason. Each of
 * the fifteen documents in the folder was checked against the schema: it refuses every one of them for the
 * defect its name announces, so no document needs a semantic check and this list is empty.
 */
const SEMANTIC_ONLY: Record<string, string> = {};

let validators: Validators;

beforeAll(async () => {
  validators = await createValidators({ network: false });
});

describe("the EPCIS 2.0 JSON schema against published examples (spec 2.1)", () => {
  const gs1 = filesUnder(GS1, ".jsonld");

  it("finds the GS1 examples", () => {
    expect(gs1.length).toBeGreaterThanOrEqual(40);
  });

  it.each(gs1.map((f) => [path.relative(GS1, f), f]))("accepts GS1 example %s", (_name, file) => {
    const doc = readJson(file);
    expect(validators.validateEpcisDocument(doc)).toEqual({ valid: true, errors: [] });
    const events = doc.epcisBody.eventList ?? doc.epcisBody.queryResults?.resultsBody?.eventList ?? [];
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(validators.validateEvent(event).errors).toEqual([]);
  });

  it("knows every invalid capture document, as refused by the schema or as semantic only", () => {
    const names = filesUnder(INVALID, ".json").map((f) => path.basename(f));
    expect(names.sort()).toEqual([...Object.keys(SCHEMA_REJECTS), ...Object.keys(SEMANTIC_ONLY)].sort());
  });

  it.each(Object.entries(SCHEMA_REJECTS))("refuses %s for the defect it carries", (name, expected) => {
    const result = validators.validateEpcisDocument(readJson(path.join(INVALID, name)));
    expect(result.valid).toBe(false);
    for (const fragment of expected) {
      expect(
        result.errors.some((e) => e.startsWith(fragment)),
        `${fragment} in ${result.errors.join(" | ")}`,
      ).toBe(true);
    }
  });

  it("refuses only the broken event of a document whose first event is sound", () => {
    const doc = readJson(path.join(INVALID, "ObjectEvent_with_non_standard_bizStep_in_second_event.json"));
    const [first, second] = doc.epcisBody.eventList ?? [];
    expect(validators.validateEvent(first).valid).toBe(true);
    expect(validators.validateEvent(second).valid).toBe(false);
  });

  it("refuses something that is not an EPCIS document", () => {
    const doc = readJson(path.join(INVALID, "ObjectEvent_with_quantity_as_text.json"));
    const event = doc.epcisBody.eventList?.[0];
    expect(event).toBeDefined();
    expect(validators.validateEpcisDocument(event)).toEqual({
      valid: false,
      errors: ["/type must be EPCISDocument or EPCISQueryDocument"],
    });
    expect(validators.validateEpcisDocument(null).valid).toBe(false);
  });
});
