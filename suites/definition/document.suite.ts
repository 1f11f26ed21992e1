// Spec 9 and 2.1: the interface definition is OpenAPI 3.1, and the success response of GET /events references
// the published EPCIS 2.0 JSON schema by its URL rather than restating it. Judged for a definition the user gives
// with --definition; without one the checks are skipped with the reason.
import {
  openApiProblem,
  readDefinition,
  resolveSchema,
  SchemaUnavailableError,
} from "../../src/definition/index.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { excerpt, notJudgedReason, readRunDefinition, valueAt } from "./support/read.ts";

const EVENTS_SUCCESS = "/paths/~1events/get/responses/200";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The published EPCIS 2.0 schema defines the query document and the event types the interface serves. */
function epcisSchemaProblem(schema: unknown): string | undefined {
  const definitions = isRecord(schema) ? schema.definitions : undefined;
  if (!isRecord(definitions)) return "it has no definitions, so it is not the EPCIS 2.0 JSON schema";
  const needed = ["epcisQueryDocument", "ObjectEvent", "AggregationEvent", "TransformationEvent"];
  const absent = needed.filter((name) => !(name in definitions));
  return absent.length === 0
    ? undefined
    : `it does not define ${absent.join(", ")}, so it is not the EPCIS 2.0 JSON schema`;
}

requirementTest("DEF-OPENAPI-31", "The definition is OpenAPI 3.1", async (checks, ctx) => {
  const notJudged = notJudgedReason(ctx);
  if (notJudged !== undefined) return checks.skip(notJudged);
  const read = await readRunDefinition(ctx);
  if (!read.ok) {
    checks.fail(`the definition is not OpenAPI 3.1: ${read.problem}`, { message: read.problem });
    return;
  }
  const problem = await openApiProblem(read.raw);
  if (problem !== undefined) {
    const openapi = isRecord(read.raw) ? read.raw.openapi : undefined;
    checks.fail(`${ctx.definitionFile} is not a valid OpenAPI 3.1 document: ${problem}`, {
      message: problem,
      expected: "openapi: 3.1.x, valid against the OpenAPI 3.1 schema",
      actual: { openapi: openapi ?? "absent" },
    });
    return;
  }
  checks.pass(
    `${ctx.definitionFile} is valid OpenAPI ${String((read.raw as Record<string, unknown>).openapi)}`,
  );
});

requirementTest(
  "DEF-EPCIS-SCHEMA-REF",
  "The events response references the published EPCIS schema",
  async (checks, ctx) => {
    const notJudged = notJudgedReason(ctx);
    if (notJudged !== undefined) return checks.skip(notJudged);
    const read = await readRunDefinition(ctx);
    if (!read.ok || !isRecord(read.raw)) {
      checks.fail(`the definition cannot be read: ${read.ok ? "it is not an object" : read.problem}`, {
        message: read.ok ? "not an object" : read.problem,
      });
      return;
    }
    const url = readDefinition(read.raw, ctx.definitionFile).epcisSchemaUrl;
    if (url === undefined || !/^https?:\/\//i.test(url)) {
      checks.fail(
        "the success response of GET /events does not reference the EPCIS 2.0 JSON schema by URL; write $ref: <published schema URL> instead of restating it",
        {
          message: `${ctx.definitionFile}#${EVENTS_SUCCESS}`,
          expected: { content: { "application/ld+json": { schema: { $ref: "https://ref.gs1.org/…" } } } },
          actual: excerpt(valueAt(read.raw, EVENTS_SUCCESS)) ?? "absent",
        },
      );
      return;
    }
    const document = url.split("#")[0] ?? url;
    let schema: unknown;
    try {
      const opts: Parameters<typeof resolveSchema>[1] = {};
      if (ctx.schemaMirror !== undefined) opts.mirror = ctx.schemaMirror;
      schema = (await resolveSchema(document, opts)).schema;
    } catch (err) {
      if (err instanceof SchemaUnavailableError) {
        checks.error(`schema unavailable: ${err.message}`, { message: err.message, expected: url });
        return;
      }
      throw err;
    }
    const problem = epcisSchemaProblem(schema);
    if (problem !== undefined) {
      checks.fail(`the schema GET /events references, ${url}, is not the published one: ${problem}`, {
        message: problem,
        expected: "the published EPCIS 2.0 JSON schema",
        actual: url,
      });
      return;
    }
    checks.pass(`GET /events references ${url}`);
  },
);
