import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { coreEventsBeyondTheSeven, masterDataNotJudged } from "../../src/definition/check-extensions.ts";
import {
  CORE_EVENTS,
  checkExtensions,
  DEFAULT_DEFINITION_FILE,
  type ExtensionProblem,
  readDefinition,
} from "../../src/definition/index.ts";

type Obj = Record<string, unknown>;
let original: Obj;

beforeAll(async () => {
  original = parse(await readFile(DEFAULT_DEFINITION_FILE, "utf8"));
});

/** The object at `keys` under `root`; a test that walks a wrong path fails here instead of mutating nothing. */
function node(root: unknown, ...keys: string[]): Obj {
  let current = root;
  for (const key of keys) current = (current as Obj)[key];
  if (typeof current !== "object" || current === null) throw new Error(`no object at ${keys.join("/")}`);
  return current as Obj;
}

function list(root: unknown, ...keys: string[]): Obj[] {
  const parent = node(root, ...keys.slice(0, -1));
  const value = parent[keys[keys.length - 1] ?? ""];
  if (!Array.isArray(value)) throw new Error(`no list at ${keys.join("/")}`);
  return value as Obj[];
}

/** checkExtensions on a copy changed by `mutate`. */
function problemsAfter(mutate: (doc: Obj) => void): ExtensionProblem[] {
  const copy = structuredClone(original);
  mutate(copy);
  return checkExtensions(copy);
}

const coreEvent = (doc: Obj, name: string): Obj => {
  const found = list(doc, "x-std-core-events").find((e) => e.name === name);
  if (!found) throw new Error(`no core event ${name}`);
  return found;
};
const schemaOf = (doc: Obj, name: string) => node(doc, "components", "schemas", name);
const propertyOf = (doc: Obj, schema: string, property: string) =>
  node(doc, "components", "schemas", schema, "properties", property);
const parameterOf = (doc: Obj, name: string) => node(doc, "components", "parameters", name);
const eventsOperation = (doc: Obj) => node(doc, "paths", "/events", "get");

/** A problem of `family` at `path`, whose message contains `words` when they are given. */
function problemAt(family: string, path: string, words?: string): unknown {
  const message = words === undefined ? {} : { message: expect.stringContaining(words) };
  return expect.objectContaining({ family, path, ...message });
}

describe("checkExtensions (spec 9: the four extension families)", () => {
  it("finds no problem in our own definition", () => {
    expect(checkExtensions(original)).toEqual([]);
  });

  it("refuses a classification declared as an enum", () => {
    const problems = problemsAfter((d) => {
      const p = propertyOf(d, "Product", "productClassification");
      p.enum = [...(p["x-std-values"] as string[])];
    });
    expect(problems).toEqual([
      problemAt("std-values", "/components/schemas/Product/properties/productClassification"),
    ]);
  });

  it("refuses a classification whose values are only an enum", () => {
    const problems = problemsAfter((d) => {
      const p = propertyOf(d, "Place", "locationClassification");
      p.enum = p["x-std-values"];
      delete p["x-std-values"];
    });
    expect(problems.map((p) => p.family)).toEqual(["std-values", "std-values"]);
    expect(problems.every((p) => p.path.endsWith("/locationClassification"))).toBe(true);
  });

  it("refuses a master data property without x-kde-name, nested ones included", () => {
    const top = problemsAfter((d) => {
      delete propertyOf(d, "Organization", "organizationName")["x-kde-name"];
    });
    expect(top).toEqual([
      {
        family: "kde-name",
        path: "/components/schemas/Organization/properties/organizationName",
        message: expect.stringContaining("organizationName"),
      },
    ]);
    const nested = problemsAfter((d) => {
      delete propertyOf(d, "PostalAddress", "postalCode")["x-kde-name"];
    });
    expect(nested).toEqual([
      problemAt("kde-name", "/components/schemas/PostalAddress/properties/postalCode"),
    ]);
  });

  it("asks no x-kde-name of @context, @type, @id and their aliases, nor of what a @context schema declares", () => {
    const problems = problemsAfter((d) => {
      for (const name of ["Organization", "Place", "Product"]) {
        for (const keyword of ["@context", "@type", "type", "@id", "id"]) {
          delete propertyOf(d, name, keyword)["x-kde-name"];
        }
      }
      node(d, "components", "schemas", "JsonLdContext").properties = {
        "@vocab": { type: "string" },
        gs1: {},
      };
    });
    expect(problems).toEqual([]);
  });

  /** Our definition with the Organization schema named TradingPartyRecord and unmarked: found by nothing of ours. */
  const organizationRenamed = () => {
    const copy = structuredClone(original);
    const schemas = node(copy, "components", "schemas");
    schemas.TradingPartyRecord = schemas.Organization;
    delete schemas.Organization;
    delete schemaOf(copy, "TradingPartyRecord")["x-master-data-type"];
    return copy;
  };

  it("does not fail a type whose schema it cannot find, and says it was not judged", () => {
    // Spec 2.2 shows neither where the schemas sit nor their names: not finding one is the harness's ignorance.
    const renamed = organizationRenamed();
    expect(checkExtensions(renamed)).toEqual([]);
    expect(masterDataNotJudged(renamed, "kde-name")).toEqual({
      types: ["gs1:Organization"],
      none: false,
      note: expect.stringMatching(
        /^no schema for gs1:Organization was found .*so its x-kde-name was not checked$/,
      ),
    });
    // Organization has no classification list, so DEF-STD-VALUES judged all it reads.
    expect(masterDataNotJudged(renamed, "std-values")).toBeUndefined();
    expect(masterDataNotJudged(original, "kde-name")).toBeUndefined();
    expect(masterDataNotJudged(original, "core-events")).toBeUndefined();
  });

  it("finds none where no schema is marked or named after its type, and no path leads to one", () => {
    const copy = structuredClone(original);
    const schemas = node(copy, "components", "schemas");
    for (const name of ["Organization", "Place", "Product"]) {
      schemas[`${name}Record`] = schemas[name];
      delete schemas[name];
      delete schemaOf(copy, `${name}Record`)["x-master-data-type"];
    }
    expect(checkExtensions(copy)).toEqual([]);
    expect(masterDataNotJudged(copy, "kde-name")).toMatchObject({ none: true });
    expect(masterDataNotJudged(copy, "std-values")).toMatchObject({
      types: ["gs1:Place", "gs1:Product"],
      none: true,
    });
  });

  it("follows the definition's own master data path to a schema of any name, and judges it", () => {
    const copy = organizationRenamed();
    delete propertyOf(copy, "TradingPartyRecord", "organizationName")["x-kde-name"];
    const linkset = { $ref: "#/components/schemas/Linkset" };
    const record = { $ref: "#/components/schemas/TradingPartyRecord" };
    node(copy, "paths")["/masterdata/417/{pgln}"] = {
      get: {
        responses: {
          "200": {
            content: {
              "application/linkset+json": { schema: linkset },
              "application/ld+json": { schema: { oneOf: [linkset, record] } },
            },
          },
        },
      },
    };
    expect(masterDataNotJudged(copy, "kde-name")).toBeUndefined();
    expect(checkExtensions(copy)).toEqual([
      problemAt("kde-name", "/components/schemas/TradingPartyRecord/properties/organizationName"),
    ]);
  });

  it("finds the master data schemas of a vendor's definition by name when they are not marked", () => {
    const problems = problemsAfter((d) => {
      for (const name of ["Organization", "Place", "Product"]) delete schemaOf(d, name)["x-master-data-type"];
    });
    expect(problems).toEqual([]);
  });

  it("refuses a core event taken out", () => {
    const problems = problemsAfter((d) => {
      d["x-std-core-events"] = list(d, "x-std-core-events").filter((e) => e.name !== "Receiving");
    });
    expect(problems).toEqual([
      { family: "core-events", path: "/x-std-core-events", message: "The core event Receiving is missing." },
    ]);
  });

  it("refuses a core event whose event type or action differ from spec 6", () => {
    const problems = problemsAfter((d) => {
      coreEvent(d, "Shipping").action = "ADD";
      coreEvent(d, "Transformation").action = "ADD";
      coreEvent(d, "Receiving").eventType = "TransactionEvent";
    });
    expect(problems.map((p) => p.path).sort()).toEqual([
      "/x-std-core-events/4/action",
      "/x-std-core-events/5/eventType",
      "/x-std-core-events/6/action",
    ]);
    expect(problems.every((p) => p.family === "core-events")).toBe(true);
  });

  it("leaves the further columns to the definition, since spec 6 does not show them", () => {
    const problems = problemsAfter((d) => {
      coreEvent(d, "Disaggregation").disposition = null;
      coreEvent(d, "Shipping").bizStep = "departing";
      delete coreEvent(d, "Commission").bizStep;
    });
    expect(problems).toEqual([]);
  });

  it("finds x-std-core-events wherever a reader would: in info, on the GET /events operation", () => {
    for (const place of [["info"], ["paths", "/events", "get"], ["components"]]) {
      const problems = problemsAfter((d) => {
        node(d, ...place)["x-std-core-events"] = d["x-std-core-events"];
        delete d["x-std-core-events"];
      });
      expect(problems, place.join("/")).toEqual([]);
    }
    const moved = problemsAfter((d) => {
      node(d, "info")["x-std-core-events"] = list(d, "x-std-core-events").slice(1);
      delete d["x-std-core-events"];
    });
    expect(moved).toEqual([
      {
        family: "core-events",
        path: "/info/x-std-core-events",
        message: "The core event Commission is missing.",
      },
    ]);
  });

  it("takes the top-level x-std-core-events before one nested deeper", () => {
    const problems = problemsAfter((d) => {
      node(d, "info")["x-std-core-events"] = [];
    });
    expect(problems).toEqual([]);
  });

  it("reads rows keyed by the event's name, a list wrapped in an object, and the columns as spec 6 names them", () => {
    const keyed = problemsAfter((d) => {
      d["x-std-core-events"] = Object.fromEntries(
        list(d, "x-std-core-events").map(({ name, eventType, action }) => [
          String(name).toUpperCase(),
          { "Event type": eventType, Action: action ?? "none (EPCIS has no action field for it)" },
        ]),
      );
    });
    expect(keyed).toEqual([]);
    const wrapped = problemsAfter((d) => {
      d["x-std-core-events"] = {
        version: 1,
        events: list(d, "x-std-core-events").map(({ name, eventType, action }) => ({
          event: name,
          type: eventType,
          ...(action === null ? {} : { action: String(action).toLowerCase() }),
        })),
      };
    });
    expect(wrapped).toEqual([]);
    const wrong = problemsAfter((d) => {
      d["x-std-core-events"] = {
        Commission: { type: "ObjectEvent", action: "OBSERVE" },
      };
    });
    expect(wrong.map((p) => [p.path, p.message])).toEqual([
      ["/x-std-core-events/Commission/action", 'Commission has action "OBSERVE" where spec 6 fixes "ADD".'],
      ...["Decommission", "Aggregation", "Disaggregation", "Shipping", "Receiving", "Transformation"].map(
        (n) => ["/x-std-core-events", `The core event ${n} is missing.`],
      ),
    ]);
  });

  it("gives the checks of events the rows wherever and however the definition writes them", () => {
    const copy = structuredClone(original);
    node(copy, "info")["x-std-core-events"] = Object.fromEntries(
      list(copy, "x-std-core-events").map(({ name, eventType, action, bizStep }) => [
        name,
        { type: eventType, action, "business step": name === "Shipping" ? "departing" : bizStep },
      ]),
    );
    delete copy["x-std-core-events"];
    const rows = readDefinition(copy, "vendor.yaml").coreEvents;
    expect(rows.map((r) => r.name)).toEqual(CORE_EVENTS.map((e) => e.name));
    expect(rows.find((r) => r.name === "Shipping")).toEqual({
      name: "Shipping",
      eventType: "ObjectEvent",
      action: "OBSERVE",
      bizStep: "departing",
      disposition: null,
    });
    expect(rows.find((r) => r.name === "Transformation")?.action).toBeNull();
  });

  it("refuses x-std-core-events that is not a table of events", () => {
    const problems = problemsAfter((d) => {
      d["x-std-core-events"] = "see the standard";
    });
    expect(problems).toEqual([problemAt("core-events", "/x-std-core-events", "must list")]);
  });

  it("accepts the URN and Web URI forms of the fixed bizSteps and dispositions", () => {
    const problems = problemsAfter((d) => {
      coreEvent(d, "Shipping").bizStep = "urn:epcglobal:cbv:bizstep:shipping";
      coreEvent(d, "Shipping").disposition = "https://ref.gs1.org/cbv/Disp-in_transit";
    });
    expect(problems).toEqual([]);
  });

  it("leaves an eighth event, a row without a name and an agreeing duplicate to the definition, and names them", () => {
    const mutate = (d: Obj) => {
      const events = list(d, "x-std-core-events");
      events.push({ ...coreEvent(d, "Commission"), name: "Harvest" });
      events.push({ eventType: "ObjectEvent", action: "OBSERVE" });
      events.push({ ...coreEvent(d, "Shipping") });
    };
    expect(problemsAfter(mutate)).toEqual([]);
    const copy = structuredClone(original);
    mutate(copy);
    expect(coreEventsBeyondTheSeven(copy)).toBe(
      'rows that name no core event, not judged: "Harvest", a row without a name at /x-std-core-events/8; ' +
        "declared more than once, every row judged: Shipping (2 rows)",
    );
    expect(coreEventsBeyondTheSeven(original)).toBeUndefined();
  });

  it("leaves members beside the rows keyed by name to the definition", () => {
    const mutate = (d: Obj) => {
      d["x-std-core-events"] = {
        description: "The seven core events of the standard.",
        $comment: "signatures only",
        "x-source": { standard: "2.0" },
        ...Object.fromEntries(
          list(d, "x-std-core-events").map(({ name, eventType, action }) => [name, { eventType, action }]),
        ),
      };
    };
    expect(problemsAfter(mutate)).toEqual([]);
    const copy = structuredClone(original);
    mutate(copy);
    expect(coreEventsBeyondTheSeven(copy)).toBe('rows that name no core event, not judged: "x-source"');
  });

  it("refuses a duplicate row that contradicts spec 6's action, at that row", () => {
    const problems = problemsAfter((d) => {
      list(d, "x-std-core-events").push({ ...coreEvent(d, "Shipping"), action: "ADD" });
    });
    expect(problems).toEqual([
      {
        family: "core-events",
        path: "/x-std-core-events/7/action",
        message:
          'Shipping (the row at /x-std-core-events/7, one of its 2) has action "ADD" where spec 6 fixes "OBSERVE".',
      },
    ]);
  });

  it("refuses a definition without x-std-core-events", () => {
    const none = problemsAfter((d) => {
      delete d["x-std-core-events"];
    });
    expect(none).toEqual([problemAt("core-events", "/x-std-core-events", "not declared anywhere")]);
  });

  it("refuses a list parameter with x-explode true", () => {
    const problems = problemsAfter((d) => {
      parameterOf(d, "EQ_bizLocation")["x-explode"] = true;
    });
    expect(problems).toEqual([
      {
        family: "style-explode",
        path: "/components/parameters/EQ_bizLocation",
        message: expect.stringContaining("EQ_bizLocation must carry x-explode: false"),
      },
    ]);
  });

  it("refuses a list parameter declared with style form instead of x-style", () => {
    const problems = problemsAfter((d) => {
      const p = parameterOf(d, "MATCH_anyEPC");
      delete p["x-style"];
      p.style = "form";
    });
    expect(problems.map((p) => p.family)).toEqual(["style-explode", "style-explode"]);
    expect(problems.every((p) => p.message.startsWith("MATCH_anyEPC"))).toBe(true);
  });

  it("refuses a definition whose GET /events lacks a list parameter", () => {
    const problems = problemsAfter((d) => {
      const op = eventsOperation(d);
      op.parameters = list(op, "parameters").filter(
        (p) => p.$ref !== "#/components/parameters/EQ_transformationID",
      );
    });
    expect(problems).toEqual([
      expect.objectContaining({
        family: "style-explode",
        message: expect.stringContaining("EQ_transformationID"),
      }),
    ]);
  });

  it("reads parameters written inline as well as by $ref", () => {
    const problems = problemsAfter((d) => {
      const op = eventsOperation(d);
      const inline = list(op, "parameters").map((p) => parameterOf(d, String(p.$ref).split("/").pop() ?? ""));
      op.parameters = inline;
      const bizStep = inline[6];
      if (bizStep) bizStep["x-style"] = "spaceDelimited";
    });
    expect(problems).toEqual([problemAt("style-explode", "/paths/~1events/get/parameters/6")]);
  });
});
