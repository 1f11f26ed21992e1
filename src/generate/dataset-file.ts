// Dataset files: an EPCISDocument written and read in pieces, so that a million-event file (larger than the
// longest string V8 allows) can be written and read back.
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import type { Dataset } from "../model/index.ts";
import { datasetToDocument, documentToDataset } from "./document.ts";
import { EventListScanner } from "./event-list-scanner.ts";

const MARKER = "\u0000tracecheck:eventList\u0000";
const EVENTS_PER_CHUNK = 1000;

/**
 * The text of JSON.stringify(doc, null, 2) followed by a newline, produced in pieces: the event list is written
 * a thousand events at a time into the rest of the document.
 */
export function* documentChunks(doc: { epcisBody: { eventList: readonly unknown[] } }): Generator<string> {
  const skeleton = JSON.stringify({ ...doc, epcisBody: { ...doc.epcisBody, eventList: MARKER } }, null, 2);
  const quoted = JSON.stringify(MARKER);
  const at = skeleton.indexOf(quoted);
  const line = skeleton.slice(skeleton.lastIndexOf("\n", at) + 1, at);
  const indent = /^ */.exec(line)?.[0] ?? "";
  const inner = `${indent}  `;
  yield skeleton.slice(0, at);
  const events = doc.epcisBody.eventList;
  if (events.length === 0) {
    yield "[]";
  } else {
    let piece = "[\n";
    for (let i = 0; i < events.length; i++) {
      if (i > 0) piece += ",\n";
      piece += inner + JSON.stringify(events[i], null, 2).replaceAll("\n", `\n${inner}`);
      if ((i + 1) % EVENTS_PER_CHUNK === 0) {
        yield piece;
        piece = "";
      }
    }
    yield `${piece}\n${indent}]`;
  }
  yield `${skeleton.slice(at + quoted.length)}\n`;
}

/** Writes the dataset as an EPCISDocument (datasetToDocument), two-space indented, ending in a newline. */
export async function writeDatasetFile(ds: Dataset, file: string): Promise<void> {
  const handle = await open(file, "w");
  try {
    for (const chunk of documentChunks(datasetToDocument(ds))) await handle.write(chunk);
  } finally {
    await handle.close();
  }
}

/**
 * Reads a dataset from an EPCISDocument or EPCISQueryDocument file (ours or anyone's; see documentToDataset),
 * streaming the event list so that files of any size load.
 */
export async function readDatasetFile(file: string): Promise<Dataset> {
  const scanner = new EventListScanner(file);
  let first = true;
  try {
    for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 })) {
      scanner.feed(first ? (chunk as string).replace(/^\uFEFF/, "") : (chunk as string));
      first = false;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw new Error(`Cannot read the dataset file ${file} (${code}); check the path and its permissions.`);
  }
  return documentToDataset(scanner.finish());
}
