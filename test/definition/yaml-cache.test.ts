// YAML is parsed once per text for all runs; what a later run reads back is the value yaml gave, or yaml parses.
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseYamlCached } from "../../src/definition/yaml-cache.ts";
import { tempDir } from "../support/cli.ts";

let work: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  work = await tempDir("yaml-cache");
});
afterEach(async () => {
  await work.remove();
});

const TEXT =
  'requirements:\n  - id: EVT-ONE\n    section: "4.10"\n    level: MUST\n    tests: [a, b]\n    n: 3\n';

describe("parseYamlCached", () => {
  it("gives what yaml gives, and keeps it for the next run, which reads it back", async () => {
    const first = parseYamlCached(TEXT, work.dir);
    expect(first).toEqual(parse(TEXT));
    const files = await readdir(work.dir);
    expect(files).toHaveLength(1);
    // The next read comes from the kept file: changed behind its back, the change shows.
    const kept = path.join(work.dir, files[0]!);
    await writeFile(kept, JSON.stringify({ from: "cache" }));
    expect(parseYamlCached(TEXT, work.dir)).toEqual({ from: "cache" });
    // Another text is another key.
    expect(parseYamlCached(`${TEXT}extra: true\n`, work.dir)).toEqual({ ...parse(TEXT), extra: true });
  });

  it("keeps nothing JSON would change, and throws on bad YAML as yaml does", async () => {
    expect(parseYamlCached("a: .inf\nb: -0\n", work.dir)).toEqual({ a: Number.POSITIVE_INFINITY, b: -0 });
    expect(await readdir(work.dir)).toEqual([]);
    expect(() => parseYamlCached("a: [1, 2\n", work.dir)).toThrow();
  });

  it("parses when the cache cannot be written", () => {
    const blocked = path.join(work.dir, "file");
    return writeFile(blocked, "").then(() => {
      expect(parseYamlCached(TEXT, path.join(blocked, "below"))).toEqual(parse(TEXT));
    });
  });
});
