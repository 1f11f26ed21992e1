// DEF-KDE-NAME and DEF-STD-VALUES judged through the command, on a definition whose master data schemas are named
// its own way and marked with nothing of tracecheck's: the spec shows neither where the schemas sit nor their
// names (spec 2.2), so a type the harness cannot find is not judged, and the verdict says so instead of failing.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEFAULT_DEFINITION_FILE } from "../../src/definition/index.ts";
import { runForReport, tempDirOfFile, verdictIn } from "../support/cli.ts";

// The bound only catches a hang on a loaded machine.
const RUN = 120_000;

const dirOf = tempDirOfFile("definition-runs");

/** Our definition with the schemas of `types` renamed (`<Type>Record`) and unmarked, written as JSON. */
async function renamedDefinition(label: string, types: readonly string[]): Promise<string> {
  const raw = parse(await readFile(DEFAULT_DEFINITION_FILE, "utf8")) as Record<string, unknown>;
  const schemas = (raw.components as Record<string, Record<string, Record<string, unknown>>>).schemas ?? {};
  for (const type of types) {
    const schema = schemas[type];
    if (schema === undefined) throw new Error(`no schema ${type}`);
    delete schema["x-master-data-type"];
    schemas[`${type}Record`] = schema;
    delete schemas[type];
  }
  const modules = raw["x-modules"] as { schema: string }[];
  for (const m of modules) m.schema = path.resolve(path.dirname(DEFAULT_DEFINITION_FILE), m.schema);
  const file = path.join(dirOf(), `${label}.openapi.json`);
  await writeFile(file, JSON.stringify(raw));
  return file;
}

async function run(label: string, definition: string) {
  const args = ["--seed", "1", "--quiet", "--suite", "definition", "--definition", definition];
  const result = await runForReport(dirOf(), label, args);
  return { ...result, verdict: (id: string) => verdictIn(result.report, id) };
}

describe("DEF-KDE-NAME: a master data schema the harness cannot find is not the definition's defect", () => {
  it(
    "passes what it found and names in the pass the type it did not find",
    async () => {
      const r = await run("organization", await renamedDefinition("organization", ["Organization"]));
      expect(r.code, r.stderr).toBe(0);
      const kde = r.verdict("DEF-KDE-NAME");
      expect(kde.status).toBe("pass");
      expect(kde.evidence[0]?.message).toMatch(
        /of the types whose schema was found; no schema for gs1:Organization was found .* so its x-kde-name was not checked/,
      );
      expect(r.verdict("DEF-STD-VALUES").status).toBe("pass");
    },
    RUN,
  );

  it(
    "skips with the reason where it finds none of the schemas",
    async () => {
      const all = await renamedDefinition("all", ["Organization", "Place", "Product"]);
      const r = await run("all", all);
      expect(r.code, r.stderr).toBe(0);
      for (const id of ["DEF-KDE-NAME", "DEF-STD-VALUES"]) {
        const v = r.verdict(id);
        expect(v.status, id).toBe("skip");
        expect(v.reason, id).toMatch(/^the master data schemas cannot be found in /);
        expect(v.reason, id).toContain("no schema for gs1:Product was found");
      }
    },
    RUN,
  );
});
