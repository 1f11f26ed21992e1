// Every requirement rests on the spec's own words: its `spec` quote is found in the spec, and a MUST is carried by
// them (the header of suites/requirements.yaml states the convention). The matcher is proven on made-up entries
// first, so that a pass on the real registry means something.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadRegistry, parseRegistry, type Registry } from "../../src/harness/registry.ts";
import {
  carriesMust,
  pieceInSpec,
  quotePieces,
  readSpecText,
  type SpecText,
  specTraceProblems,
} from "../../src/harness/spec-trace.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// The spec sits beside the repository, as ../shared/spec/… from its root.
const specFile = path.resolve(repoRoot, "../shared/spec/traceability-exchange-interface.md");

const ROW =
  "| LT_recordTime | ISO date-time in UTC (xsd:dateTimeStamp) | Only events whose recordTime is strictly less than the value. |";

/** A registry of one requirement, read through the same parser as the real one. */
function madeUp(spec: string, level = "MUST", extra: Record<string, unknown> = {}): Registry {
  return parseRegistry(
    {
      requirements: [
        { id: "EVT-MADE-UP", section: "4.1", level, class: "events", title: "T", rule: "R.", spec, ...extra },
      ],
    },
    "made-up.yaml",
  );
}

let spec: SpecText;
let registry: Registry;

beforeAll(async () => {
  spec = readSpecText(await readFile(specFile, "utf8"));
  registry = await loadRegistry();
});

function problemsOf(quote: string, level = "MUST", extra: Record<string, unknown> = {}): string[] {
  return specTraceProblems(madeUp(quote, level, extra).requirements, spec);
}

describe("the spec-trace matcher, on made-up requirements", () => {
  it("finds an exact sentence, whatever the whitespace, and a table row whole", () => {
    expect(problemsOf("Every one must be supported.")).toEqual([]);
    expect(problemsOf("  Every one\n   must be\tsupported.  ")).toEqual([]);
    expect(problemsOf(ROW)).toEqual([]);
    expect(problemsOf(ROW.replace(/ \| /g, "   |   "))).toEqual([]);
  });

  it("fails a mangled quote: a word changed, dropped or added, a letter's case, a mark of punctuation", () => {
    for (const mangled of [
      "Every one should be supported.",
      "Every one be supported.",
      "Every single one must be supported.",
      "every one must be supported.",
      "Every one must be supported",
      ROW.replace("strictly less", "less"),
      ROW.replace("xsd:dateTimeStamp", "xsd:dateTime"),
    ]) {
      const problems = problemsOf(mangled, "SHOULD");
      expect(problems, mangled).toHaveLength(1);
      expect(problems[0]).toMatch(/^EVT-MADE-UP: ".*" is not a sentence or table row of the spec/);
    }
  });

  it("takes whole sentences and whole rows only, so that no clause is lifted out of its sentence", () => {
    for (const fragment of [
      "must be supported.",
      "Every one must be supported. Paging",
      "Only events whose recordTime is strictly less than the value.",
      "| LT_recordTime | ISO date-time in UTC (xsd:dateTimeStamp) |",
      "A server must not reject a value",
    ]) {
      expect(pieceInSpec(quotePieces(fragment)[0]!, spec), fragment).toBe(false);
    }
    // Two sentences in a row, and a list item without its marker, are whole sentences.
    expect(pieceInSpec("Query parameters. All are optional. Every one must be supported.", spec)).toBe(true);
    expect(pieceInSpec("Every implementation must support the `X-API-Key` header.", spec)).toBe(true);
  });

  it("checks every piece of a quote that leaves words out, each on its own", () => {
    const joined =
      "Returns all events in the repository, or only the events that match the criteria given as query parameters in the URL. … Everything described here is mandatory for a conforming solution.";
    expect(quotePieces(joined)).toHaveLength(2);
    expect(problemsOf(joined)).toEqual([]);
    const problems = problemsOf(joined.replace("mandatory", "optional"), "SHOULD");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('"Everything described here is optional for a conforming solution."');
  });

  it("finds a sentence that a hard-wrapped paragraph breaks across lines", () => {
    const wrapped = readSpecText(
      "# Title\n\nThe server answers.\nA sender must\n   answer every query.\n\n- An item that\n  wraps.\n",
    );
    expect(pieceInSpec("A sender must answer every query.", wrapped)).toBe(true);
    expect(pieceInSpec("An item that wraps.", wrapped)).toBe(true);
    expect(pieceInSpec("answer every query.", wrapped)).toBe(false);
    expect(pieceInSpec("Title The server answers.", wrapped)).toBe(false);
  });

  it("fails a MUST whose quote carries no must, mandatory, Only events whose or table row", () => {
    const quote = "Paths use numeric application identifiers only.";
    expect(problemsOf(quote, "SHOULD")).toEqual([]);
    expect(problemsOf(quote, "MAY")).toEqual([]);
    expect(problemsOf(quote, "MUST")).toEqual([
      'EVT-MADE-UP: level is MUST but its quote has no "must", "mandatory", "Only events whose" or table row; quote the words that make it MUST or lower the level.',
    ]);
    expect(
      problemsOf(`${quote} … Everything described here is mandatory for a conforming solution.`),
    ).toEqual([]);
    expect(carriesMust(ROW)).toBe(true);
    expect(carriesMust("| Commission | ObjectEvent | ADD |")).toBe(true);
  });

  it("never lets a quote that says not shown back a MUST", () => {
    const notShown =
      "Not shown: named query endpoints, and parameters beyond the nine above, such as paging or sorting.";
    expect(problemsOf(notShown, "SHOULD")).toEqual([]);
    expect(problemsOf(notShown, "MUST")).toEqual([
      'EVT-MADE-UP: level is MUST but its quote says "not shown", which leaves the matter open; lower the level.',
    ]);
    // Not even beside a sentence that says must.
    expect(problemsOf(`Every one must be supported. … ${notShown}`, "MUST")).toHaveLength(1);
  });

  it("holds a definitionLevel of MUST to the same test as a level of MUST", () => {
    const quote = "Paths use numeric application identifiers only.";
    expect(problemsOf(quote, "SHOULD", { definitionLevel: "MUST" })).toEqual([
      'EVT-MADE-UP: definitionLevel is MUST but its quote has no "must", "mandatory", "Only events whose" or table row; quote the words that make it MUST or lower the definitionLevel.',
    ]);
    expect(problemsOf("Every one must be supported.", "SHOULD", { definitionLevel: "MUST" })).toEqual([]);
  });
});

describe("the registry's trace to the spec", () => {
  it("reads the spec from the sibling ../shared/spec folder", () => {
    expect(spec.rows.has("| Commission | ObjectEvent | ADD |")).toBe(true);
    expect(spec.text).toContain("Everything described here is mandatory for a conforming solution.");
  });

  it("finds every piece of every requirement's spec quote in the spec", () => {
    const missing = registry.requirements.flatMap((r) =>
      quotePieces(r.spec)
        .filter((piece) => !pieceInSpec(piece, spec))
        .map((piece) => `${r.id}: ${piece}`),
    );
    expect(missing).toEqual([]);
  });

  it("makes a requirement MUST only where its quote carries it", () => {
    const unfounded = registry.requirements
      .filter((r) => r.level === "MUST" || r.definitionLevel === "MUST")
      .filter((r) => !carriesMust(r.spec))
      .map((r) => `${r.id}: ${r.spec}`);
    expect(unfounded).toEqual([]);
  });

  it("has nothing else wrong with the trace", () => {
    expect(specTraceProblems(registry.requirements, spec)).toEqual([]);
  });
});
