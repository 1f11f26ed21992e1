// The baseline file the suite workers read: written a line per event, read back exactly, never as one string.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import type { Baseline } from "../../src/target/baseline-file.ts";
import { EventSpool, readBaselineFile, writeBaselineFile } from "../../src/target/baseline-file.ts";
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

  it("reads a file far longer than one read, with lines and characters cut at every read's edge", async () => {
    // Some 3 MiB of events whose text holds characters of two, three and four bytes.
    const many = Array.from({ length: 3000 }, (_, i) => ({
      ...events[i % events.length]!,
      eventID: `urn:uuid:many-${i}`,
      "ex:note": "é漢🐟".repeat(1 + (i % 97)) + "x".repeat(i % 7),
    })) as Baseline["events"];
    const baseline: Baseline = { method: "windows", complete: true, note: "many", events: many, requests: 9 };
    const file = path.join(work.dir, "many.ndjson");
    await writeBaselineFile(file, baseline);
    expect((await readFile(file)).length).toBeGreaterThan(3 * (1 << 20));
    expect(readBaselineFile(file)).toEqual(baseline);
  });
});

describe("the event spool", () => {
  it("keeps events in memory below its bound, in order, and writes no file", async () => {
    const dir = path.join(work.dir, "in-memory");
    await mkdir(dir);
    const spool = new EventSpool({ dir });
    for (const event of events.slice(0, 20)) spool.add(event);
    expect(spool).toHaveLength(20);
    expect(spool.spilled).toBe(false);
    expect([...spool]).toEqual(events.slice(0, 20));
    expect(await readdir(dir)).toEqual([]);
  });

  it("moves to a file past its bound, reads back every event in order, and removes the file when cleared", async () => {
    const dir = path.join(work.dir, "spilled");
    await mkdir(dir);
    const spool = new EventSpool({ dir, memoryChars: 10_000 });
    for (const event of events) spool.add(event);
    expect(spool.spilled).toBe(true);
    expect(await readdir(dir)).toHaveLength(1);
    expect(spool).toHaveLength(events.length);
    expect([...spool]).toEqual(events);
    // Read twice: iterating does not consume it.
    expect([...spool]).toEqual(events);
    spool.clear();
    expect(spool).toHaveLength(0);
    expect([...spool]).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  it("writes the same baseline file from a spool as from the events it holds", async () => {
    const spool = new EventSpool({ dir: work.dir, memoryChars: 10_000 });
    for (const event of events) spool.add(event);
    const header = { method: "unfiltered" as const, complete: true, note: "spooled", requests: 4 };
    const fromSpool = path.join(work.dir, "from-spool.ndjson");
    const fromArray = path.join(work.dir, "from-array.ndjson");
    await writeBaselineFile(fromSpool, { ...header, events: spool, datasetEvents: events.slice(0, 3) });
    await writeBaselineFile(fromArray, { ...header, events, datasetEvents: events.slice(0, 3) });
    expect(await readFile(fromSpool, "utf8")).toBe(await readFile(fromArray, "utf8"));
    expect(readBaselineFile(fromSpool)).toEqual({ ...header, events, datasetEvents: events.slice(0, 3) });
    spool.clear();
  });
});
