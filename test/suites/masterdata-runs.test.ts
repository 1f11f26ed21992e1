// The masterdata class judged through the command, against the reference loaded with master data written as a
// sender may write it: one defect fails one requirement (a property's type is MD-PROPERTY-TYPES's, and MD-TYPE-*
// and MD-CLASSIFICATION-LISTED are blocked by its failure), and a product typed with a subclass of gs1:Product is
// validated as the gs1:Product it is read as, with and without the bundled definition given.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEFAULT_DEFINITION_FILE } from "../../src/definition/index.ts";
import { runCli, runForReport, tempDir, verdictIn } from "../support/cli.ts";

// Runs of one class; the bound only catches a hang on a loaded machine.
const RUN = 300_000;

type Document = Record<string, unknown>;

let dir: string;
let remove: () => Promise<void>;
let fixtures: Record<string, unknown>;

beforeAll(async () => {
  ({ dir, remove } = await tempDir("masterdata-runs"));
  const out = path.join(dir, "fixtures.json");
  const made = await runCli(["fixtures", "--seed", "1", "--events", "20", "--out", out]);
  if (made.code !== 0) throw new Error(made.stderr);
  fixtures = JSON.parse(await readFile(out, "utf8")) as Record<string, unknown>;
}, RUN);
afterAll(() => remove());

/** The fixture dataset with each gs1:Product document changed by `change`, written to a file of its own. */
async function datasetWith(label: string, change: (product: Document) => void): Promise<string> {
  const dataset = structuredClone(fixtures);
  const documents = dataset["tracecheck:masterData"] as Document[];
  const products = documents.filter((d) => d["@type"] === "gs1:Product");
  expect(products.length).toBeGreaterThan(0);
  for (const p of products) change(p);
  const file = path.join(dir, `${label}.dataset.json`);
  await writeFile(file, JSON.stringify(dataset));
  return file;
}

/** A vendor's definition: the bundled one with the Product schema's productClassification replaced. */
async function definitionWith(label: string, classification: Document): Promise<string> {
  const raw = parse(await readFile(DEFAULT_DEFINITION_FILE, "utf8")) as Record<string, unknown>;
  const schemas = (raw.components as Record<string, Record<string, Document>>).schemas!;
  const properties = schemas.Product!.properties as Record<string, Document>;
  properties.productClassification = {
    ...classification,
    "x-kde-name": "Product Form",
    "x-std-values": properties.productClassification!["x-std-values"],
  };
  const modules = raw["x-modules"] as { schema: string }[];
  for (const m of modules) m.schema = path.resolve(path.dirname(DEFAULT_DEFINITION_FILE), m.schema);
  const file = path.join(dir, `${label}.openapi.json`);
  await writeFile(file, JSON.stringify(raw));
  return file;
}

type Run = Awaited<ReturnType<typeof runForReport>>;

function run(label: string, args: readonly string[], suites = "masterdata"): Promise<Run> {
  return runForReport(dir, label, ["--seed", "1", "--quiet", "--suite", suites, ...args]);
}

const verdict = (r: Run, id: string) => verdictIn(r.report, id);

const BLOCKED = {
  status: "skip",
  reason: expect.stringMatching(/^blocked by MD-PROPERTY-TYPES, which failed/),
};

/** The reference serving a product's classification as a number (a fault). */
const NOT_STRING = ["--faults", "md-classification-not-string"];

describe("one master data defect fails one requirement against the bundled definition given", () => {
  it(
    "a classification served as a number fails MD-PROPERTY-TYPES alone",
    async () => {
      const r = await run("number", [...NOT_STRING, "--definition", DEFAULT_DEFINITION_FILE]);
      expect(r.code, r.stderr).toBe(1);
      expect(verdict(r, "MD-PROPERTY-TYPES")).toMatchObject({ status: "fail", level: "MUST" });
      expect(verdict(r, "MD-TYPE-PRODUCT")).toMatchObject(BLOCKED);
      expect(verdict(r, "MD-CLASSIFICATION-LISTED")).toMatchObject(BLOCKED);
      expect(verdict(r, "MD-CLASSIFICATION-LISTED").reason).toMatch(/productClassification is \d+/);
      const failed = r.report.requirements.filter((q) => q.status === "fail").map((q) => q.id);
      expect(failed).toEqual(["MD-PROPERTY-TYPES"]);
    },
    RUN,
  );

  it(
    "two classification values where the definition declares a string fail MD-PROPERTY-TYPES alone",
    async () => {
      const dataset = await datasetWith("two-classes", (p) => {
        p.productClassification = [p.productClassification, "FISH_FILLET"];
      });
      const r = await run("two-classes", ["--dataset", dataset, "--definition", DEFAULT_DEFINITION_FILE]);
      expect(r.code, r.stderr).toBe(1);
      expect(verdict(r, "MD-PROPERTY-TYPES")).toMatchObject({ status: "fail" });
      expect(verdict(r, "MD-TYPE-PRODUCT")).toMatchObject(BLOCKED);
      expect(verdict(r, "MD-CLASSIFICATION-LISTED")).toMatchObject(BLOCKED);
    },
    RUN,
  );

  it(
    "a product name in two languages is a name (the GS1 Web Vocabulary types names as language strings)",
    async () => {
      const dataset = await datasetWith("two-names", (p) => {
        p.productName = [
          { "@value": p.productName, "@language": "en" },
          { "@value": `${String(p.productName)} (fr)`, "@language": "fr" },
        ];
      });
      const r = await run("two-names", ["--dataset", dataset, "--definition", DEFAULT_DEFINITION_FILE]);
      expect(r.code, r.stderr).toBe(0);
      for (const id of ["MD-PROPERTY-TYPES", "MD-TYPE-PRODUCT", "MD-CLASSIFICATION-LISTED"]) {
        expect(verdict(r, id), id).toMatchObject({ status: "pass" });
      }
    },
    RUN,
  );

  it(
    "a product name that is a number fails MD-PROPERTY-TYPES alone, and its classification is still looked up",
    async () => {
      const dataset = await datasetWith("number-name", (p) => {
        p.productName = 42;
      });
      const r = await run("number-name", ["--dataset", dataset, "--definition", DEFAULT_DEFINITION_FILE]);
      expect(r.code, r.stderr).toBe(1);
      expect(verdict(r, "MD-PROPERTY-TYPES").reason).toMatch(/productName/);
      expect(verdict(r, "MD-TYPE-PRODUCT")).toMatchObject(BLOCKED);
      expect(verdict(r, "MD-CLASSIFICATION-LISTED")).toMatchObject({ status: "pass" });
    },
    RUN,
  );
});

describe("a document of another type than its identifier calls for", () => {
  it(
    "fails RES-MASTERDATA-LINK alone: MD-TYPE-ORGANIZATION does not fail its @type again",
    async () => {
      const r = await run(
        "wrong-type",
        ["--faults", "md-wrong-type-organization", "--definition", DEFAULT_DEFINITION_FILE],
        "resolver,masterdata",
      );
      expect(r.code, r.stderr).toBe(1);
      expect(verdict(r, "RES-MASTERDATA-LINK")).toMatchObject({ status: "fail" });
      expect(verdict(r, "MD-TYPE-ORGANIZATION").reason).toMatch(
        /^blocked by RES-MASTERDATA-LINK, which failed: .* is not a gs1:Organization/,
      );
      const failed = r.report.requirements.filter((q) => q.status === "fail").map((q) => q.id);
      expect(failed).toEqual(["RES-MASTERDATA-LINK"]);
    },
    RUN,
  );
});

describe("MD-CLASSIFICATION-LISTED looks codes up, and judges their type only where the definition declares none", () => {
  it(
    "looks up each of two values where the definition's type admits an array",
    async () => {
      const definition = await definitionWith("array", {
        anyOf: [
          { type: "string", minLength: 1 },
          { type: "array", items: { type: "string", minLength: 1 } },
        ],
      });
      const dataset = await datasetWith("array", (p) => {
        p.productClassification = [p.productClassification, "SEA_URCHIN"];
      });
      const r = await run("array", ["--dataset", dataset, "--definition", definition]);
      expect(r.code, r.stderr).toBe(0);
      expect(verdict(r, "MD-PROPERTY-TYPES")).toMatchObject({ status: "pass" });
      expect(verdict(r, "MD-TYPE-PRODUCT")).toMatchObject({ status: "pass" });
      const listed = verdict(r, "MD-CLASSIFICATION-LISTED");
      expect(listed).toMatchObject({ status: "pass" });
      expect(listed.evidence[0]?.message).toMatch(
        /productClassification is "SEA_URCHIN", .* not found there/,
      );
    },
    RUN,
  );

  it(
    "fails a number where the definition gives the property no type: no code of the list's kind",
    async () => {
      const definition = await definitionWith("untyped", {});
      const r = await run("untyped", [...NOT_STRING, "--definition", definition]);
      expect(r.code, r.stderr).toBe(1);
      expect(verdict(r, "MD-PROPERTY-TYPES")).toMatchObject({ status: "pass" });
      expect(verdict(r, "MD-TYPE-PRODUCT")).toMatchObject({ status: "pass" });
      const listed = verdict(r, "MD-CLASSIFICATION-LISTED");
      expect(listed).toMatchObject({ status: "fail" });
      expect(listed.reason).toMatch(/no string code .* declares no other type/);
    },
    RUN,
  );
});

describe("a product typed with a subclass of gs1:Product", () => {
  for (const given of [false, true]) {
    it(
      `matches the bundled Product schema ${given ? "given with --definition" : "without --definition"}`,
      async () => {
        const dataset = await datasetWith(`seafood-${given}`, (p) => {
          p["@type"] = "gs1:Seafood";
        });
        const args = ["--dataset", dataset, ...(given ? ["--definition", DEFAULT_DEFINITION_FILE] : [])];
        const r = await run(`seafood-${given}`, args);
        expect(r.code, r.stderr).toBe(0);
        expect(verdict(r, "MD-JSONLD")).toMatchObject({ status: "pass" });
        expect(verdict(r, "MD-TYPE-PRODUCT")).toMatchObject({
          status: "pass",
          level: given ? "MUST" : "SHOULD",
        });
        const warned = r.report.requirements.filter((q) => q.status !== "pass" && q.status !== "skip");
        expect(warned).toEqual([]);
      },
      RUN,
    );
  }
});
