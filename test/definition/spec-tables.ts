import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../src/definition/index.ts";

export const SPEC_FILE = path.resolve(REPO_ROOT, "../shared/spec/traceability-exchange-interface.md");

const spec = readFileSync(SPEC_FILE, "utf8").split("\n");

/**
 * The body rows of the first table, inside the section whose heading starts with `heading`, whose header row
 * starts with the cell `firstHeader`. Cells are trimmed and stripped of backticks.
 */
export function specTable(heading: string, firstHeader: string): string[][] {
  const start = spec.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, "").startsWith(heading));
  if (start < 0)
    throw new Error(`The spec has no section ${heading}; update the test to the spec's headings.`);
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, "")
      .split("|")
      .map((c) => c.trim().replace(/`/g, ""));
  for (let i = start + 1; i < spec.length; i++) {
    const line = spec[i] ?? "";
    if (/^#+ /.test(line) && i > start) break;
    if (line.startsWith("|") && cells(line)[0] === firstHeader) {
      const rows: string[][] = [];
      for (let j = i + 2; j < spec.length && (spec[j] ?? "").startsWith("|"); j++)
        rows.push(cells(spec[j] ?? ""));
      return rows;
    }
  }
  throw new Error(`The spec section ${heading} has no table starting with ${firstHeader}.`);
}
