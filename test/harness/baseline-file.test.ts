// The baseline file the suite workers read: written a line per event, read back exactly, never as one string.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import type { Baseline } from "../../src/harness/baseline.ts";
import { readBaselineFile, writeBaselineFile } from "../../src/harness/baseline-file.ts";
import { tempDir } from "../support/cli.ts";

let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  work = await tempDir("baseline-file");
});
afterAll(async () => {
  await work?.remove();
});

const events = generateDataset({ seed: 9, events: 300 }).events;

describe("the baseline file", () => {
  it("reads back exactly what was written, with and without the dataset's events", async () => {
    const plain: Baseline = { method: "unfiltered", complete: true, note: "all", events, requests: 3 };
    const file = path.join(work.dir, "plain.ndjson");
    await writeBaselineFile(file, plain);
    expect(readBaselineFile(file)).toEqual(plain);

    const withDataset: Baseline = { ...plain, complete: false, datasetEvents: events.slice(0, 7) };
    const other = path.join(work.dir, "dataset.ndjson");
    await writeBaselineFile(other, withDataset);
    expect(readBaselineFile(other)).toEqual(withDataset);
  });

  it("keeps text with line breaks and characters outside ASCII, and an empty baseline", async () => {
    const odd = { ...events[0]!, "ex:note": "two\nlines\r\u2028 é 漢字 🐟" } as Baseline["events"][number];
    const baseline: Baseline = {
      method: "crawl",
      complete: false,
      note: "a\nnote",
      events: [odd],
      requests: 1,
    };
    const file = path.join(work.dir, "odd.ndjson");
    await writeBaselineFile(file, baseline);
    expect(readBaselineFile(file)).toEqual(baseline);

    const empty: Baseline = { method: "unfiltered", complete: true, note: "", events: [], requests: 1 };
    await writeBaselineFile(file, empty);
    expect(readBaselineFile(file)).toEqual(empty);
  });

  it("writes one line for the header and one per event, each under a megabyte", async () => {
    const baseline: Baseline = { method: "unfiltered", complete: true, note: "", events, requests: 1 };
    const file = path.join(work.dir, "lines.ndjson");
    await writeBaselineFile(file, baseline);
    const lines = (await readFile(file, "utf8")).split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(events.length + 1);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(1 << 20);
  });

  it("says so when the file is empty", async () => {
    const file = path.join(work.dir, "nothing.ndjson");
    await writeBaselineFile(file, {
      method: "unfiltered",
      complete: true,
      note: "",
      events: [],
      requests: 0,
    });
    await writeFile(file, "");
    expect(() => readBaselineFile(file)).toThrow(/is empty/);
  });
});
