import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import {
  CONFORMANCE_CLASSES,
  LEVELS,
  loadRegistry,
  type Registry,
  RegistryError,
  requirement,
} from "../../src/engine/registry.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const specFile = path.resolve(repoRoot, "../shared/spec/traceability-exchange-interface.md");

// The ids that the suites and the reference sender's faults are written against.
const FIXED_IDS = [
  "EVT-SHAPE-SCHEMA",
  "EVT-SHAPE-CONTENT",
  "EVT-UNFILTERED",
  "EVT-TIME-LT-RECORD",
  "EVT-TIME-GE-RECORD",
  "EVT-TIME-LT-EVENT",
  "EVT-TIME-GE-EVENT",
  "EVT-TIME-FORMAT",
  "EVT-EPC-EPCLIST",
  "EVT-EPC-CHILDEPCS",
  "EVT-EPC-PARENTID",
  "EVT-EPC-INPUT",
  "EVT-EPC-OUTPUT",
  "EVT-EPC-FORMS",
  "EVT-CLASS-QUANTITY",
  "EVT-CLASS-CHILD",
  "EVT-CLASS-INPUT",
  "EVT-CLASS-OUTPUT",
  "EVT-CLASS-PATTERN",
  "EVT-BIZSTEP-MATCH",
  "EVT-BIZSTEP-FORMS",
  "EVT-TRANSFORMATION-ID",
  "EVT-BIZLOCATION",
  "EVT-PIPE-OR",
  "EVT-REPEAT-REFUSED",
  "EVT-REPEAT-PROBLEM",
  "EVT-AND",
  "EVT-ENCODING",
  "EVT-413-NARROW",
  "EVT-413-BROAD",
  "EVT-PAGING",
  "RES-PATH-SSCC",
  "RES-PATH-PGLN",
  "RES-PATH-GLN",
  "RES-PATH-GTIN",
  "RES-PATH-GTIN-LOT",
  "RES-PATH-GTIN-SERIAL",
  "RES-NUMERIC-ONLY",
  "RES-AI-ORDER",
  "RES-AI-VALUE",
  "RES-LINKSET-SHAPE",
  "RES-ANCHOR",
  "RES-LINKTYPES",
  "RES-EPCIS-LINK",
  "RES-MASTERDATA-LINK",
  "RES-CANONICAL-BASE",
  "MD-JSONLD",
  "MD-TYPE-ORGANIZATION",
  "MD-TYPE-PLACE",
  "MD-TYPE-PRODUCT",
  "MD-PROPERTY-TYPES",
  "MD-CLASSIFICATION-LISTED",
  "AUTH-HEADER",
  "AUTH-MISSING",
  "AUTH-WRONG",
  "AUTH-STATUS",
  "AUTH-QUERY-STRING",
  "AUTH-PUBLIC",
  "CORE-SIGNATURE",
  "CORE-TYPE",
  "CORE-MODULE-CORE",
  "CORE-MODULE-SEAFOOD",
  "CORE-MODULE-WILDCATCH",
  "CORE-MODULE-AQUACULTURE",
  "FLOW-SETUP",
  "FLOW-PRODUCT",
  "FLOW-MASTERDATA",
  "FLOW-TRACEBACK",
  "DEF-CORE-EVENTS",
  "DEF-KDE-NAME",
  "DEF-STD-VALUES",
  "DEF-STYLE-EXPLODE",
];

// The prefix of an id names its class, so that a report reader can tell the class from the id alone.
const PREFIX_OF_CLASS: Record<string, string> = {
  events: "EVT",
  resolver: "RES",
  masterdata: "MD",
  auth: "AUTH",
  "core-events": "CORE",
  workflow: "FLOW",
  definition: "DEF",
  receiver: "RCV",
};

const VALID_ENTRY = {
  id: "EVT-SAMPLE",
  section: "4.1",
  level: "MUST",
  class: "events",
  title: "A sample",
  rule: "A sample rule.",
  spec: "Every one must be supported.",
};

async function specHeadings(): Promise<Set<string>> {
  const text = await readFile(specFile, "utf8");
  const headings = new Set<string>();
  for (const line of text.split("\n")) {
    const match = /^##\s+(\d+)\.\s/.exec(line) ?? /^###\s+(\d+\.\d+)\s/.exec(line);
    if (match?.[1] !== undefined) headings.add(match[1]);
  }
  return headings;
}

describe("the requirement registry", () => {
  let registry: Registry;
  let headings: Set<string>;
  let tmp: string;

  beforeAll(async () => {
    registry = await loadRegistry();
    headings = await specHeadings();
    tmp = await mkdtemp(path.join(tmpdir(), "tracecheck-registry-"));
  });

  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  async function loadFrom(name: string, content: string): Promise<Registry> {
    const file = path.join(tmp, name);
    await writeFile(file, content, "utf8");
    return loadRegistry(file);
  }

  it("reads the spec's headings, so that the section check below has something to check against", () => {
    for (const expected of ["1", "2.1", "2.2", "2.3", "4.1", "4.2", "5", "9"]) {
      expect(headings.has(expected)).toBe(true);
    }
  });

  it("has unique ids of the form PREFIX-PART, indexed by id", () => {
    const ids = registry.requirements.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(registry.byId.size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Z]+(-[A-Z0-9]+)+$/);
      expect(registry.byId.get(id)?.id).toBe(id);
    }
  });

  it("gives every requirement a known level and class, a title, a rule, and the prefix of its class", () => {
    for (const r of registry.requirements) {
      expect(LEVELS).toContain(r.level);
      expect(CONFORMANCE_CLASSES).toContain(r.class);
      expect(r.title.trim().length).toBeGreaterThan(0);
      expect(r.rule.trim().length).toBeGreaterThan(0);
      expect(r.id.startsWith(`${PREFIX_OF_CLASS[r.class]}-`), r.id).toBe(true);
    }
  });

  it("cites only sections that are headings of the spec", () => {
    for (const r of registry.requirements) {
      expect(headings.has(r.section), `${r.id} cites section ${r.section}`).toBe(true);
    }
    for (const u of registry.untested) {
      expect(headings.has(u.section), `untested "${u.what}" cites section ${u.section}`).toBe(true);
    }
  });

  it("has at least one requirement in every conformance class", () => {
    for (const cls of CONFORMANCE_CLASSES) {
      expect(
        registry.requirements.some((r) => r.class === cls),
        cls,
      ).toBe(true);
    }
  });

  it("holds every id the suites and faults are written against", () => {
    const missing = FIXED_IDS.filter((id) => !registry.byId.has(id));
    expect(missing).toEqual([]);
  });

  it("explains each deliberately untested behaviour, named queries among them", () => {
    expect(registry.untested.length).toBeGreaterThan(0);
    for (const u of registry.untested) {
      expect(u.what.trim().length).toBeGreaterThan(0);
      expect(u.why.trim().length).toBeGreaterThan(0);
    }
    expect(registry.untested.some((u) => u.what.includes("named query"))).toBe(true);
  });

  it("looks requirements up by id and refuses an unknown id by name", () => {
    expect(requirement(registry, "EVT-PIPE-OR").section).toBe("4.1");
    expect(() => requirement(registry, "EVT-NO-SUCH-RULE")).toThrow(
      /Unknown requirement id "EVT-NO-SUCH-RULE"/,
    );
  });

  it("refuses a duplicate id, naming the id and both entries", async () => {
    const content = stringify({
      requirements: [VALID_ENTRY, { ...VALID_ENTRY, title: "Another" }],
    });
    await expect(loadFrom("duplicate.yaml", content)).rejects.toThrow(
      /duplicate\.yaml: requirement #2 \(EVT-SAMPLE\): duplicate id, already used by requirement #1/,
    );
  });

  it("refuses an unknown level, naming the entry and the level", async () => {
    const content = stringify({
      requirements: [VALID_ENTRY, { ...VALID_ENTRY, id: "EVT-OTHER", level: "MUSTN'T" }],
    });
    const load = loadFrom("level.yaml", content);
    await expect(load).rejects.toBeInstanceOf(RegistryError);
    await expect(load).rejects.toThrow(
      /requirement #2 \(EVT-OTHER\): level "MUSTN'T" is not one of MUST, SHOULD, MAY/,
    );
  });

  it("refuses an unknown class, a malformed id, a missing rule and an unknown field", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...VALID_ENTRY, class: "billing" }, /\(EVT-SAMPLE\): class "billing" is not one of/],
      [{ ...VALID_ENTRY, id: "evt-lower" }, /requirement #1: id "evt-lower" is missing or not of the form/],
      [{ ...VALID_ENTRY, id: "EVT" }, /id "EVT" is missing or not of the form/],
      [{ ...VALID_ENTRY, rule: " " }, /\(EVT-SAMPLE\): rule is missing or empty/],
      [{ ...VALID_ENTRY, levle: "MUST" }, /\(EVT-SAMPLE\): unknown field "levle"/],
      [
        { ...VALID_ENTRY, spec: "" },
        /\(EVT-SAMPLE\): spec \(the sentence of the spec .*\) is missing or empty/,
      ],
      [{ ...VALID_ENTRY, spec: 7 }, /\(EVT-SAMPLE\): spec .* is missing or empty/],
      [
        { ...VALID_ENTRY, definitionLevel: "MUSTN'T" },
        /\(EVT-SAMPLE\): definitionLevel "MUSTN'T" is not one of/,
      ],
    ];
    for (const [index, [entry, message]] of cases.entries()) {
      await expect(loadFrom(`case-${index}.yaml`, stringify({ requirements: [entry] }))).rejects.toThrow(
        message,
      );
    }
  });

  it("refuses a section YAML would read as a number, since 4.10 would become 4.1", async () => {
    const content = `requirements:\n  - id: EVT-SAMPLE\n    section: 4.10\n    level: MUST\n    class: events\n    title: T\n    rule: R\n    spec: S.\n`;
    await expect(loadFrom("section.yaml", content)).rejects.toThrow(
      /\(EVT-SAMPLE\): section 4\.1 must be a quoted spec heading number/,
    );
  });

  it("refuses an untested entry without a reason", async () => {
    const content = stringify({
      requirements: [VALID_ENTRY],
      untested: [{ section: "7", what: "Error bodies" }],
    });
    await expect(loadFrom("untested.yaml", content)).rejects.toThrow(/untested #1: why is missing or empty/);
  });

  it("refuses a file that is missing or not YAML, naming the file", async () => {
    await expect(loadRegistry(path.join(tmp, "absent.yaml"))).rejects.toThrow(
      /absent\.yaml: .*could not be read/,
    );
    await expect(loadFrom("broken.yaml", "requirements: [\n  - id: x\n")).rejects.toThrow(
      /broken\.yaml: not valid YAML/,
    );
  });

  it("refuses a requirement without a spec quote", async () => {
    const { spec: _omitted, ...withoutSpec } = VALID_ENTRY;
    await expect(loadFrom("no-spec.yaml", stringify({ requirements: [withoutSpec] }))).rejects.toThrow(
      /\(EVT-SAMPLE\): spec \(the sentence of the spec the rule rests on, quoted exactly\) is missing or empty/,
    );
  });

  it("gives every requirement a spec quote, and a definitionLevel only of a known level", () => {
    for (const r of registry.requirements) {
      expect(r.spec.trim().length, r.id).toBeGreaterThan(0);
      if (r.definitionLevel !== undefined) expect(LEVELS).toContain(r.definitionLevel);
    }
  });

  it("reads the spec quote and an optional definitionLevel", async () => {
    const loaded = await loadFrom(
      "definition-level.yaml",
      stringify({
        requirements: [VALID_ENTRY, { ...VALID_ENTRY, id: "DEF-SAMPLE", definitionLevel: "SHOULD" }],
      }),
    );
    expect(requirement(loaded, "EVT-SAMPLE").spec).toBe("Every one must be supported.");
    expect(requirement(loaded, "EVT-SAMPLE").definitionLevel).toBeUndefined();
    expect(requirement(loaded, "DEF-SAMPLE")).toMatchObject({ level: "MUST", definitionLevel: "SHOULD" });
  });

  it("accepts a minimal valid registry with optional tests", async () => {
    const loaded = await loadFrom(
      "valid.yaml",
      stringify({ requirements: [{ ...VALID_ENTRY, tests: ["suites/events/pipe.test.ts"] }] }),
    );
    expect(loaded.requirements).toHaveLength(1);
    expect(requirement(loaded, "EVT-SAMPLE").tests).toEqual(["suites/events/pipe.test.ts"]);
    expect(loaded.untested).toEqual([]);
  });
});
