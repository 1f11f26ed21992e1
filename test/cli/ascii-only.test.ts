// The bundle's CommonJS files are made ASCII (scripts/ascii-only.js) only where that leaves their code as it was:
// characters outside ASCII in comments become escapes on the same line, and a file whose code would change is kept.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import * as esbuild from "esbuild";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { asciiOnly } from "../../scripts/ascii-only.js";
import { runNode, tempDir } from "../support/cli.ts";

let work: Awaited<ReturnType<typeof tempDir>>;
let file: string;

beforeEach(async () => {
  work = await tempDir("ascii-only");
  file = path.join(work.dir, "code.cjs");
});

afterEach(async () => {
  await work.remove();
});

/** What the file exports, run in a process of its own. */
async function exportsOf(at: string): Promise<unknown> {
  const result = await runNode([
    "-e",
    `process.stdout.write(JSON.stringify(require(${JSON.stringify(at)})))`,
  ]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe("a bundle file made ASCII", () => {
  it("keeps its code, its lines and what it does, with comments and strings outside ASCII written as escapes", async () => {
    const code = [
      "// EPCIS writes the offset as ±hh:mm.",
      'const offset = "±05:00"; /* URN ⇄ Digital Link */',
      "module.exports = { offset, arrow: `⇄`, line: new Error().stack.split('\\n')[1].includes(':3:') };",
      "",
    ].join("\n");
    await writeFile(file, code);
    const before = await exportsOf(file);
    expect(await asciiOnly(esbuild, file)).toBe(true);
    const after = await readFile(file, "utf8");
    expect(after).not.toMatch(/[^\x00-\x7f]/u);
    expect(after.split("\n")).toHaveLength(code.split("\n").length);
    expect(after.split("\n")[0]).toBe("// EPCIS writes the offset as \\u{b1}hh:mm.");
    expect(before).toEqual({ offset: "±05:00", arrow: "⇄", line: true });
    expect(await exportsOf(file)).toEqual(before);
  });

  it("is left as it was where an escape would change the code, as in a regular expression", async () => {
    const code = "module.exports = { plus: /±/.test('±') };\n";
    await writeFile(file, code);
    expect(await asciiOnly(esbuild, file)).toBe(false);
    expect(await readFile(file, "utf8")).toBe(code);
    expect(await exportsOf(file)).toEqual({ plus: true });
  });

  it("of ASCII already is not written again", async () => {
    const code = "module.exports = 1;\n";
    await writeFile(file, code);
    expect(await asciiOnly(esbuild, file)).toBe(true);
    expect(await readFile(file, "utf8")).toBe(code);
  });
});
