// Every requirement rests on the spec's own words: its `spec` quote is found in the spec, and a MUST is carried by
// them (the header of suites/requirements.yaml states the convention). The matcher is proven on made-up entries
// first, so that a pass on the real registry means something.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadRegistry, parseRegistry, type Registry } from "../../src/engine/registry.ts";
import {
  carriesMust,
  quoteInSpec,
  readSpecText,
  type SpecText,
  specTraceProblems,
} from "../../src/engine/spec-trace.ts";

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
      expect(problems[0]).toMatch(/^EVT-MADE-UP: its spec quote is not one passage of the spec/);
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
      expect(quoteInSpec(fragment, spec), fragment).toBe(false);
    }
    // Two sentences in a row, and a list item without its marker, are whole sentences.
    expect(quoteInSpec("Query parameters. All are optional. Every one must be supported.", spec)).toBe(true);
    expect(quoteInSpec("Every implementation must support the `X-API-Key` header.", spec)).toBe(true);
  });

  it("takes one passage only: words left out between two places are not a quote", () => {
    const joined =
      "Returns all events in the repository, or only the events that match the criteria given as query parameters in the URL. … Everything described here is mandatory for a conforming solution.";
    expect(quoteInSpec(joined, spec)).toBe(false);
    expect(problemsOf(joined, "SHOULD")).toHaveLength(1);
  });

  it("takes table rows that stand together, in their order, and no others", () => {
    const rows = "| Commission | ObjectEvent | ADD | | Decommission | ObjectEvent | DELETE |";
    expect(quoteInSpec(rows, spec)).toBe(true);
    expect(
      quoteInSpec("| Decommission | ObjectEvent | DELETE | | Commission | ObjectEvent | ADD |", spec),
    ).toBe(false);
    expect(
      quoteInSpec("| Commission | ObjectEvent | ADD | | Aggregation | AggregationEvent | ADD |", spec),
    ).toBe(false);
  });

  it("takes a carrier for a MUST whose quote only describes, and holds the carrier to the spec too", () => {
    const described =
      "Returns all events in the repository, or only the events that match the criteria given as query parameters in the URL.";
    const carrier = "Everything described here is mandatory for a conforming solution.";
    expect(problemsOf(described, "MUST")).toHaveLength(1);
    expect(problemsOf(described, "MUST", { carrier })).toEqual([]);
    expect(problemsOf(described, "MUST", { carrier: carrier.replace("mandatory", "optional") })).toEqual([
      "EVT-MADE-UP: its carrier quote is not one passage of the spec; quote whole sentences in a row exactly (only whitespace may differ), or whole table rows that stand together, from the first | to the last.",
      'EVT-MADE-UP: its carrier quote has no "must" or "mandatory"; a carrier is the sentence that makes a MUST.',
      'EVT-MADE-UP: level is MUST but neither its quote nor a carrier has "must", "mandatory", "Only events whose" or a table row; quote the words that make it MUST or lower the level.',
    ]);
    // A carrier that is in the spec but carries nothing does not make a MUST.
    expect(problemsOf(described, "MUST", { carrier: "The resolver acts as a lookup service." })).toHaveLength(
      2,
    );
  });

  it("finds a sentence that a hard-wrapped paragraph breaks across lines", () => {
    const wrapped = readSpecText(
      "# Title\n\nThe server answers.\nA sender must\n   answer every query.\n\n- An item that\n  wraps.\n",
    );
    expect(quoteInSpec("A sender must answer every query.", wrapped)).toBe(true);
    expect(quoteInSpec("An item that wraps.", wrapped)).toBe(true);
    expect(quoteInSpec("answer every query.", wrapped)).toBe(false);
    expect(quoteInSpec("Title The server answers.", wrapped)).toBe(false);
  });

  it("fails a MUST whose quote carries no must, mandatory, Only events whose or table row", () => {
    const quote = "Paths use numeric application identifiers only.";
    expect(problemsOf(quote, "SHOULD")).toEqual([]);
    expect(problemsOf(quote, "MAY")).toEqual([]);
    expect(problemsOf(quote, "MUST")).toEqual([
      'EVT-MADE-UP: level is MUST but neither its quote nor a carrier has "must", "mandatory", "Only events whose" or a table row; quote the words that make it MUST or lower the level.',
    ]);
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
    // Not even with a carrier that says must.
    expect(problemsOf(notShown, "MUST", { carrier: "Every one must be supported." })).toHaveLength(1);
  });

  it("holds a definitionLevel of MUST to the same test as a level of MUST", () => {
    const quote = "Paths use numeric application identifiers only.";
    expect(problemsOf(quote, "SHOULD", { definitionLevel: "MUST" })).toEqual([
      'EVT-MADE-UP: definitionLevel is MUST but neither its quote nor a carrier has "must", "mandatory", "Only events whose" or a table row; quote the words that make it MUST or lower the definitionLevel.',
    ]);
    expect(problemsOf("Every one must be supported.", "SHOULD", { definitionLevel: "MUST" })).toEqual([]);
  });
});

describe("the registry's trace to the spec", () => {
  it("reads the spec from the sibling ../shared/spec folder", () => {
    expect(spec.rows).toContain("| Commission | ObjectEvent | ADD |");
    expect(spec.text).toContain("Everything described here is mandatory for a conforming solution.");
  });

  it("finds every requirement's spec quote, and its carrier, in the spec as one passage", () => {
    const missing = registry.requirements.flatMap((r) =>
      [r.spec, ...(r.carrier === undefined ? [] : [r.carrier])]
        .filter((quote) => !quoteInSpec(quote, spec))
        .map((quote) => `${r.id}: ${quote}`),
    );
    expect(missing).toEqual([]);
  });

  it("makes a requirement MUST only where its quote carries it", () => {
    const unfounded = registry.requirements
      .filter((r) => r.level === "MUST" || r.definitionLevel === "MUST")
      .filter((r) => !carriesMust(r.spec) && (r.carrier === undefined || !carriesMust(r.carrier)))
      .map((r) => `${r.id}: ${r.spec}`);
    expect(unfounded).toEqual([]);
  });

  it("has nothing else wrong with the trace", () => {
    expect(specTraceProblems(registry.requirements, spec)).toEqual([]);
  });
});
