import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { CORE_EVENTS, type Definition, loadDefinition } from "../../src/definition/index.ts";
import { canonicalBizStep } from "../../src/model/bizstep.ts";
import { specTable } from "./spec-tables.ts";

let definition: Definition;
type Obj = Record<string, unknown>;
const at = (node: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((n, k) => (n && typeof n === "object" ? (n as Obj)[k] : undefined), node);

beforeAll(async () => {
  definition = await loadDefinition();
});

describe("GET /events (spec 4.1, 7)", () => {
  const rows = specTable("4.1 GET /events", "Parameter");

  it("declares exactly the nine parameters of the spec's table, each of the kind its value type says", () => {
    expect(rows).toHaveLength(9);
    const expected = rows.map(([name, valueType]) => ({
      name,
      kind: /date-time/.test(valueType ?? "") ? "time" : /list/.test(valueType ?? "") ? "list" : "unknown",
    }));
    expect(definition.queryParameters.map(({ name, kind }) => ({ name, kind }))).toEqual(expected);
  });

  it("carries the spec's effect sentence as each parameter's description", () => {
    for (const [name, , effect] of rows) {
      const declared = definition.queryParameters.find((p) => p.name === name);
      const firstSentence = (effect ?? "").split(". ")[0] ?? "";
      expect(declared?.description.replace(/\s+/g, " ")).toContain(firstSentence.replace(/\.$/, ""));
    }
  });

  it("makes the time bounds date-times and the five lists pipeDelimited with explode false, never style", () => {
    const params = at(definition.raw, "components", "parameters") as Record<string, Obj>;
    for (const p of definition.queryParameters) {
      const raw = params[p.name] as Obj;
      expect(raw.style).toBeUndefined();
      expect(raw.explode).toBeUndefined();
      if (p.kind === "time") {
        expect(at(raw, "schema", "format")).toBe("date-time");
        expect(p.style).toBeUndefined();
      } else {
        expect(at(raw, "schema", "type")).toBe("array");
        expect(at(raw, "schema", "items", "type")).toBe("string");
        expect(p).toMatchObject({ style: "pipeDelimited", explode: false });
      }
    }
    expect(definition.queryParameters.filter((p) => p.kind === "list").map((p) => p.name)).toEqual([
      "MATCH_anyEPC",
      "MATCH_anyEPCClass",
      "EQ_bizStep",
      "EQ_transformationID",
      "EQ_bizLocation",
    ]);
  });

  it("references the published EPCIS JSON schema by URL for the 200 body", () => {
    const schema = at(
      definition.raw,
      "paths",
      "/events",
      "get",
      "responses",
      "200",
      "content",
      "application/ld+json",
      "schema",
    );
    expect(schema).toEqual({ $ref: "https://ref.gs1.org/standards/epcis/2.0.1/epcis-json-schema.json" });
    expect(definition.epcisSchemaUrl).toBe(
      "https://ref.gs1.org/standards/epcis/2.0.1/epcis-json-schema.json",
    );
  });

  it("declares 413 Query Too Complex with a problem+json body", () => {
    const errors = specTable("7. Errors", "Status");
    expect(errors.map((r) => r[0])).toContain("413");
    const response = at(definition.raw, "paths", "/events", "get", "responses", "413") as Obj;
    expect(String(response.description)).toContain("Query Too Complex");
    const schema = at(response, "content", "application/problem+json", "schema") as Obj;
    expect(schema.$ref).toBe("#/components/schemas/Problem");
    expect(Object.keys(at(definition.raw, "components", "schemas", "Problem", "properties") as Obj)).toEqual(
      expect.arrayContaining(["type", "title", "status", "detail"]),
    );
  });
});

describe("authentication (spec 5)", () => {
  it("declares the X-API-Key header scheme and applies it globally", () => {
    const schemes = at(definition.raw, "components", "securitySchemes") as Record<string, Obj>;
    const [name, scheme] = Object.entries(schemes).find(([, s]) => s.type === "apiKey") ?? [];
    expect(scheme).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(definition.raw.security).toEqual([{ [String(name)]: [] }]);
    expect(at(definition.raw, "paths", "/events", "get", "security")).toBeUndefined();
  });
});

describe("the Digital Link resolver (spec 4.2)", () => {
  const rows = specTable("4.2 Digital Link resolver", "Method and path");
  const ais = specTable("4.2 Digital Link resolver", "Application identifier").map((r) => r[0]);

  it("declares the six paths of the spec's table with their numeric AIs", () => {
    const templates = rows.map((r) => (r[0] ?? "").replace(/^GET /, ""));
    expect(templates).toHaveLength(6);
    expect(definition.resolverPaths.map((p) => p.template)).toEqual(templates);
    for (const p of definition.resolverPaths) {
      expect(p.ais).toEqual([...p.template.matchAll(/\/(\d+)\//g)].map((m) => m[1]));
      for (const ai of p.ais) expect(ais).toContain(ai);
    }
  });

  it("lists on each path the link types the spec's table names for it", () => {
    for (const [method, returns] of rows) {
      const template = (method ?? "").replace(/^GET /, "");
      const named = [...new Set((returns ?? "").match(/gs1:(epcis|masterData)/g))].sort();
      const declared = definition.resolverPaths.find((p) => p.template === template);
      expect([...(declared?.linkTypes ?? [])].sort(), template).toEqual(named);
    }
  });

  it("constrains the identifiers: SSCC 18 digits, GLN and PGLN 13, GTIN 8/12/13/14", () => {
    const params = at(definition.raw, "components", "parameters") as Record<string, Obj>;
    const pattern = (name: string) => new RegExp(String(at(params[name], "schema", "pattern")));
    expect(pattern("sscc").test("3".repeat(18))).toBe(true);
    expect(pattern("sscc").test("3".repeat(17))).toBe(false);
    for (const name of ["gln", "pgln"]) {
      expect(pattern(name).test("1".repeat(13))).toBe(true);
      expect(pattern(name).test("1".repeat(14))).toBe(false);
    }
    for (let n = 6; n <= 15; n++)
      expect(pattern("gtin").test("9".repeat(n))).toBe([8, 12, 13, 14].includes(n));
    expect(pattern("gtin").test("0950600013435a")).toBe(false);
  });

  it("offers the linkType query parameter and answers application/linkset+json on every path", () => {
    for (const { template } of definition.resolverPaths) {
      const op = at(definition.raw, "paths", template, "get") as Obj;
      const refs = (op.parameters as Obj[]).map((p) => p.$ref);
      expect(refs).toContain("#/components/parameters/linkType");
      expect(at(op, "responses", "200", "content", "application/linkset+json", "schema")).toEqual({
        $ref: "#/components/schemas/Linkset",
      });
    }
  });

  it("describes the link set of spec 2.3", () => {
    const fields = specTable("2.3 Link set", "Field").map((r) => r[0]);
    const entry = at(definition.linksetSchema, "$defs", "LinksetEntry", "properties") as Obj;
    expect(Object.keys(entry).sort()).toEqual([...fields].sort());
    expect(at(entry, "anchor")).toMatchObject({ type: "string", format: "uri" });
    expect(at(entry, "itemDescription", "type")).toEqual(["string", "null"]);
    for (const linkType of fields.filter((f) => f?.startsWith("https://"))) {
      expect(at(entry, String(linkType))).toMatchObject({ type: "array", items: { $ref: "#/$defs/Link" } });
    }
    const link = at(definition.linksetSchema, "$defs", "Link") as Obj;
    expect(link.required).toEqual(["href", "title"]);
    expect(link.properties).toEqual({ href: { type: "string", format: "uri" }, title: { type: "string" } });
    expect(at(definition.linksetSchema, "$defs", "Linkset", "properties", "linkset", "type")).toBe("array");
    expect(at(definition.linksetSchema, "$defs", "Linkset", "required")).toEqual(["linkset"]);
  });
});

describe("master data (spec 2.2)", () => {
  it("declares gs1:Organization, gs1:Place and gs1:Product, each marked with x-master-data-type", () => {
    expect(definition.masterDataTypes.map((t) => t.type)).toEqual([
      "gs1:Organization",
      "gs1:Place",
      "gs1:Product",
    ]);
    for (const t of definition.masterDataTypes) {
      expect(at(definition.raw, "components", "schemas", t.schemaName, "x-master-data-type")).toBe(t.type);
    }
  });

  it("gives every property an x-kde-name", () => {
    for (const t of definition.masterDataTypes) {
      expect(t.properties.length).toBeGreaterThan(3);
      for (const p of t.properties) expect(p.kdeName, `${t.type}.${p.name}`).toMatch(/\S/);
    }
  });

  it("has the JSON-LD keywords and the usual properties of each type", () => {
    const names = (type: string) =>
      definition.masterDataTypes.find((t) => t.type === type)?.properties.map((p) => p.name);
    const jsonLd = ["@context", "@type", "@id"];
    expect(names("gs1:Organization")).toEqual(
      expect.arrayContaining([...jsonLd, "organizationName", "globalLocationNumber", "address"]),
    );
    expect(names("gs1:Place")).toEqual(
      expect.arrayContaining([
        ...jsonLd,
        "name",
        "globalLocationNumber",
        "address",
        "locationClassification",
      ]),
    );
    expect(names("gs1:Product")).toEqual(
      expect.arrayContaining([...jsonLd, "gtin", "productName", "productClassification", "brandName"]),
    );
  });

  it("lists the classification values in x-std-values and never as an enum", () => {
    const rows = specTable("2.2 Master data", "Property");
    const owners: Record<string, string> = {};
    for (const [property, , notes] of rows)
      owners[String(property)] = /gs1:(\w+)/.exec(notes ?? "")?.[0] ?? "";
    expect(Object.keys(owners).sort()).toEqual(["locationClassification", "productClassification"]);
    for (const [property, type] of Object.entries(owners)) {
      const p = definition.masterDataTypes
        .find((t) => t.type === type)
        ?.properties.find((q) => q.name === property);
      expect(p?.isEnum).toBe(false);
      expect(p?.schema.enum).toBeUndefined();
      expect(p?.stdValues?.length).toBeGreaterThan(3);
      expect(new Set(p?.stdValues).size).toBe(p?.stdValues?.length);
    }
  });

  it("names locationClassification with the attribute tables' name for it", () => {
    const place = definition.masterDataTypes.find((t) => t.type === "gs1:Place");
    expect(place?.properties.find((p) => p.name === "locationClassification")?.kdeName).toBe("name");
  });
});

describe("the seven core events (spec 6)", () => {
  const rows = specTable("6. Events", "Event");

  it("declares the events of the spec's table with its event types and actions", () => {
    const fromSpec = rows.map(([name, eventType, action]) => ({
      name,
      eventType,
      action: /^none/.test(action ?? "") ? null : action,
    }));
    expect(definition.coreEvents.map(({ name, eventType, action }) => ({ name, eventType, action }))).toEqual(
      fromSpec,
    );
  });

  it("fixes bizStep and disposition as the definition's table does, leaving Decommission and Receiving open", () => {
    const fixed = definition.coreEvents.map((e) => [e.name, e.bizStep, e.disposition]);
    expect(fixed).toEqual([
      ["Commission", "commissioning", "active"],
      ["Decommission", "decommissioning", null],
      ["Aggregation", "packing", "active"],
      ["Disaggregation", "unpacking", "inactive"],
      ["Shipping", "shipping", "in_transit"],
      ["Receiving", "receiving", null],
      ["Transformation", "commissioning", "active"],
    ]);
    expect(definition.coreEvents).toEqual(CORE_EVENTS);
    const open = definition.coreEvents.filter((e) => e.disposition === null).map((e) => e.name);
    expect(open).toEqual(["Decommission", "Receiving"]);
    for (const e of definition.coreEvents) expect(canonicalBizStep(e.bizStep)).toBe(e.bizStep);
  });

  it("explains every null at the field it stands in", () => {
    const raw = definition.raw["x-std-core-events"] as Obj[];
    for (const entry of raw) {
      for (const field of ["action", "disposition"]) {
        if (entry[field] === null) expect(at(entry, "notes", field), `${entry.name}.${field}`).toMatch(/\S/);
      }
    }
  });
});

describe("the commodity modules (spec 1)", () => {
  it("lists core, seafood, wildcatch and aquaculture with their schema files", async () => {
    expect(definition.modules.map((m) => m.name)).toEqual(["core", "seafood", "wildcatch", "aquaculture"]);
    for (const m of definition.modules) {
      expect(m.schemaFile.endsWith(`schemas/modules/${m.name}.schema.json`)).toBe(true);
      const schema = JSON.parse(await readFile(m.schemaFile, "utf8")) as Obj;
      expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    }
  });
});
