// Datasets as EPCIS documents and files: round trips, byte-exact streaming, and loading other people's
// EPCISDocuments and EPCISQueryDocuments (GS1 and GDST examples).
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventListScanner } from "../../src/generate/event-list-scanner.ts";
import {
  datasetToDocument,
  documentChunks,
  documentToDataset,
  generateDataset,
  MASTER_DATA_MEMBER,
  readDatasetFile,
  writeDatasetFile,
} from "../../src/generate/index.ts";
import { GDST_EXAMPLES, GS1_EXAMPLES } from "./support.ts";

async function jsonldFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries
    .filter((f) => f.endsWith(".jsonld"))
    .map((f) => path.join(dir, f))
    .sort();
}

function scan(text: string, chunkSize: number): unknown {
  const scanner = new EventListScanner("test input");
  for (let i = 0; i < text.length; i += chunkSize) scanner.feed(text.slice(i, i + chunkSize));
  return scanner.finish();
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tracecheck-generate-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("datasetToDocument / documentToDataset", () => {
  const ds = generateDataset({ seed: 41, events: 60 });

  it("builds an EPCISDocument with the EPCIS context, our prefixes and the master data member", () => {
    const doc = datasetToDocument(ds, { creationDate: "2025-01-02T03:04:05Z" });
    expect(doc.type).toBe("EPCISDocument");
    expect(doc.schemaVersion).toBe("2.0");
    expect(doc.creationDate).toBe("2025-01-02T03:04:05Z");
    expect(doc["@context"][0]).toBe("https://ref.gs1.org/standards/epcis/epcis-context.jsonld");
    expect(Object.keys(doc["@context"][1]).sort()).toEqual(["cbvmda", "gdst", "tracecheck"]);
    expect(doc[MASTER_DATA_MEMBER]).toBe(ds.masterData);
    expect(doc.epcisBody.eventList).toBe(ds.events);
  });

  it("dates the document by its latest event unless told otherwise, so one dataset gives one text", () => {
    const doc = datasetToDocument(ds);
    expect(doc.creationDate).toMatch(/Z$/);
    expect(datasetToDocument(ds).creationDate).toBe(doc.creationDate);
    const latest = [...ds.events].map((e) => Date.parse(e.eventTime ?? "")).sort((a, b) => b - a)[0];
    expect(Math.abs(Date.parse(doc.creationDate) - (latest ?? 0))).toBeLessThan(1000);
  });

  it("gives back the same dataset from its document, through JSON text too", () => {
    const doc = datasetToDocument(ds);
    expect(documentToDataset(doc)).toEqual(ds);
    expect(documentToDataset(JSON.parse(JSON.stringify(doc)))).toEqual(ds);
  });

  it("reads the event list of an EPCISQueryDocument, and no master data where there is none", () => {
    const query = {
      "@context": ["https://ref.gs1.org/standards/epcis/epcis-context.jsonld"],
      type: "EPCISQueryDocument",
      schemaVersion: "2.0",
      epcisBody: { queryResults: { queryName: "SimpleEventQuery", resultsBody: { eventList: ds.events } } },
    };
    expect(documentToDataset(query)).toEqual({ events: ds.events, masterData: [] });
  });

  it("refuses what is not an EPCIS document with a sentence", () => {
    expect(() => documentToDataset(null)).toThrow(/EPCISDocument or EPCISQueryDocument/);
    expect(() => documentToDataset([])).toThrow(/EPCISDocument or EPCISQueryDocument/);
    expect(() => documentToDataset({ type: "ObjectEvent" })).toThrow(/EPCISDocument or EPCISQueryDocument/);
    expect(() => documentToDataset({ type: "EPCISDocument", epcisBody: {} })).toThrow(/epcisBody\.eventList/);
    expect(() => documentToDataset({ type: "EPCISQueryDocument", epcisBody: { eventList: [] } })).toThrow(
      /queryResults\.resultsBody\.eventList/,
    );
    expect(() => documentToDataset({ type: "EPCISDocument", epcisBody: { eventList: [1] } })).toThrow(
      /Event 0/,
    );
  });
});

describe("dataset files", () => {
  it("documentChunks writes exactly the text of JSON.stringify(doc, null, 2) plus a newline", () => {
    for (const events of [0, 1, 2500]) {
      const doc = datasetToDocument(generateDataset({ seed: 42, events }));
      expect([...documentChunks(doc)].join("")).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    }
  });

  it("writes a dataset and reads it back unchanged", async () => {
    const ds = generateDataset({ seed: 43, events: 20_000 });
    const file = path.join(dir, "round-trip.jsonld");
    await writeDatasetFile(ds, file);
    expect(await readDatasetFile(file)).toEqual(ds);
  });

  it("reads a document whatever the chunk boundaries, escapes and nesting", () => {
    const ds = generateDataset({ seed: 44, events: 30 });
    const doc = {
      ...datasetToDocument(ds),
      "tracecheck:note": 'a "quoted" \\ value with [brackets] {braces}, and an "eventList": [1] inside',
    };
    const text = JSON.stringify(doc, null, 1);
    for (const size of [1, 2, 3, 7, 64, 4096]) expect(scan(text, size)).toEqual(JSON.parse(text));
  });

  it("fills the event list of an EPCISQueryDocument, leaving other eventList members alone", () => {
    const doc = {
      type: "EPCISQueryDocument",
      epcisHeader: { eventList: [{ type: "not an event list of the body" }] },
      epcisBody: {
        queryResults: { queryName: "q", resultsBody: { eventList: [{ type: "ObjectEvent", n: 1 }] } },
      },
    };
    const text = JSON.stringify(doc);
    expect(scan(text, 5)).toEqual(doc);
  });

  it("explains a truncated file, a file that is not JSON, and a missing file", async () => {
    const text = JSON.stringify(datasetToDocument(generateDataset({ seed: 45, events: 3 })));
    expect(() => scan(text.slice(0, text.length - 40), 16)).toThrow(/truncated/);
    expect(() => scan("{ nope", 16)).toThrow();
    const bad = path.join(dir, "bad.jsonld");
    await writeFile(bad, '{"type": "EPCISDocument", "epcisBody": {"eventList": [42]}}');
    await expect(readDatasetFile(bad)).rejects.toThrow(/other than event objects/);
    await expect(readDatasetFile(path.join(dir, "missing.jsonld"))).rejects.toThrow(/ENOENT/);
  });
});

describe("other people's EPCIS documents", () => {
  it("loads every GS1 and GDST example, with the event count JSON.parse sees", async () => {
    const files = [...(await jsonldFiles(GS1_EXAMPLES)), ...(await jsonldFiles(GDST_EXAMPLES))].filter(
      (f) => !f.includes(`${path.sep}negative${path.sep}`),
    );
    expect(files.length).toBeGreaterThan(40);
    for (const file of files) {
      const parsed = JSON.parse(await readFile(file, "utf8"));
      const fromText = documentToDataset(parsed);
      const fromFile = await readDatasetFile(file);
      expect(fromFile, file).toEqual(fromText);
      expect(fromFile.masterData).toEqual([]);
    }
  });

  it.each([
    ["gs1", "Example_9.6.1-ObjectEvent.jsonld", 2],
    ["gs1", "EPCISQueryDocument.jsonld", 2],
    ["gs1", "Example_9.6.4-TransformationEvent.jsonld", 1],
    ["gs1", "WithDigitalLinkID/Example_9.6.1-ObjectEventWithDigitalLink.jsonld", 2],
    ["gdst", "EPCISQueryDocument.GDST.jsonld", 3],
    ["gdst", "cap_tool_events.jsonld", 18],
    ["gdst", "gdst_data_withmasterdata.jsonld", 17],
    ["gdst", "traceback_tests.jsonld", 21],
  ])("%s example %s holds %i events", async (source, file, count) => {
    const ds = await readDatasetFile(path.join(source === "gs1" ? GS1_EXAMPLES : GDST_EXAMPLES, file));
    expect(ds.events).toHaveLength(count);
    expect(ds.events.every((e) => typeof e.type === "string")).toBe(true);
  });
});
