// STYLE.md: "a check for the project keeps every requirement covered and every test attached". The suites are
// read as source, not run: every requirement id a suite names must be in suites/requirements.yaml, and every
// requirement of the registry must be named by at least one suite file.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { loadRegistry, type Registry } from "../../src/engine/registry.ts";
import { REPO_ROOT } from "../support/cli.ts";

const SUITES = path.join(REPO_ROOT, "suites");

interface Use {
  id: string;
  file: string;
  line: number;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

function literal(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    ? node.text
    : undefined;
}

/** The string literals of a file, and the literal first arguments of requirementTest(…) and ….for(…) calls. */
function scan(file: string): { literals: Use[]; calls: Use[] } {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const literals: Use[] = [];
  const calls: Use[] = [];
  const use = (id: string, node: ts.Node): Use => ({
    id,
    file: path.relative(REPO_ROOT, file),
    line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
  });
  const visit = (node: ts.Node): void => {
    const text = literal(node);
    if (text !== undefined) literals.push(use(text, node));
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const named =
        (ts.isIdentifier(callee) && callee.text === "requirementTest") ||
        (ts.isPropertyAccessExpression(callee) && callee.name.text === "for");
      const id = literal(node.arguments[0]);
      if (named && id !== undefined) calls.push(use(id, node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { literals, calls };
}

const where = (u: Use) => `${u.id} (${u.file}:${u.line})`;

/** The class a suite file belongs to: the folder under suites/ that `tracecheck run --suite` selects. */
function classFolder(file: string): string | undefined {
  return path.relative(SUITES, path.resolve(REPO_ROOT, file)).split(path.sep)[0];
}

let registry: Registry;
let suiteFiles: string[];
let idPattern: RegExp;
const declared: Use[] = [];
const called: Use[] = [];

beforeAll(async () => {
  registry = await loadRegistry();
  // A suite names a requirement with a string of the registry's own shape: one of its prefixes, then parts.
  const prefixes = [...new Set(registry.requirements.map((r) => r.id.split("-")[0]))];
  idPattern = new RegExp(`^(${prefixes.join("|")})(-[A-Z0-9]+)+$`);
  const files = tsFiles(SUITES);
  suiteFiles = files.filter((f) => f.endsWith(".suite.ts"));
  for (const file of files) {
    const { literals, calls } = scan(file);
    called.push(...calls);
    // Ids in a suite file, whether passed directly or listed in a table that the file loops over.
    if (file.endsWith(".suite.ts")) declared.push(...literals.filter((u) => idPattern.test(u.id)));
  }
});

describe("the requirement registry and the suites", () => {
  it("there are suite files, one folder per conformance class", () => {
    expect(suiteFiles.length).toBeGreaterThan(0);
    const folders = new Set(suiteFiles.map(classFolder));
    for (const folder of folders) {
      expect(
        registry.requirements.some((r) => r.class === folder),
        `folder ${folder}`,
      ).toBe(true);
    }
  });

  it("every requirementTest(…) and checks.for(…) names a requirement of the registry", () => {
    const unknown = called.filter((u) => !registry.byId.has(u.id)).map(where);
    expect(unknown, "ids used by the suites but missing from suites/requirements.yaml").toEqual([]);
  });

  it("every requirement id written in a suite file is in the registry", () => {
    const unknown = declared.filter((u) => !registry.byId.has(u.id)).map(where);
    expect(unknown, "ids in suite files but missing from suites/requirements.yaml").toEqual([]);
  });

  it("every requirement of the registry is checked by at least one suite file", () => {
    const used = new Set([...declared, ...called].map((u) => u.id));
    const uncovered = registry.requirements.filter((r) => !used.has(r.id)).map((r) => `${r.id} (${r.class})`);
    expect(uncovered, "requirements no suite file names").toEqual([]);
  });

  it("a requirement named in suite files is named in its own class's folder, which --suite selects", () => {
    const misplaced = [...new Set(declared.map((u) => u.id))]
      .filter((id) => registry.byId.has(id))
      .filter(
        (id) => !declared.some((u) => u.id === id && classFolder(u.file) === registry.byId.get(id)?.class),
      )
      .map(
        (id) =>
          `${id} (${registry.byId.get(id)?.class}), named in ${declared
            .filter((u) => u.id === id)
            .map(where)
            .join(", ")}`,
      );
    expect(misplaced, "requirements named only outside their class folder").toEqual([]);
  });
});
