// The baseline as the suite workers read it: one JSON line per event after a header line. A single JSON text
// of the whole baseline passes V8's longest string at some half a million events; lines never come near it.
import { readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import type { EpcisEvent } from "../model/types.ts";
import type { Baseline } from "./baseline.ts";

type Header = Omit<Baseline, "events" | "datasetEvents"> & { dataset: boolean };
type Line = { event: EpcisEvent } | { datasetEvent: EpcisEvent };

/** Lines are gathered into writes of about this many characters. */
const CHUNK_CHARS = 1 << 20;

export async function writeBaselineFile(file: string, baseline: Baseline): Promise<void> {
  const { events, datasetEvents, ...rest } = baseline;
  const header: Header = { ...rest, dataset: datasetEvents !== undefined };
  const handle = await open(file, "w");
  try {
    let chunk = `${JSON.stringify(header)}\n`;
    const add = async (line: Line) => {
      chunk += `${JSON.stringify(line)}\n`;
      if (chunk.length >= CHUNK_CHARS) {
        await handle.write(chunk);
        chunk = "";
      }
    };
    for (const event of events) await add({ event });
    for (const event of datasetEvents ?? []) await add({ datasetEvent: event });
    await handle.write(chunk);
  } finally {
    await handle.close();
  }
}

/** Reads what writeBaselineFile wrote, a line at a time, so that no string holds the whole file. */
export function readBaselineFile(file: string): Baseline {
  const bytes = readFileSync(file);
  let start = 0;
  let header: Header | undefined;
  const events: EpcisEvent[] = [];
  const datasetEvents: EpcisEvent[] = [];
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    const text = bytes.toString("utf8", start, end);
    start = end + 1;
    if (text === "") continue;
    if (header === undefined) {
      header = JSON.parse(text) as Header;
      continue;
    }
    const line = JSON.parse(text) as Line;
    if ("event" in line) events.push(line.event);
    else datasetEvents.push(line.datasetEvent);
  }
  if (header === undefined) throw new Error(`The baseline file ${file} is empty.`);
  const { dataset, ...rest } = header;
  return dataset ? { ...rest, events, datasetEvents } : { ...rest, events };
}
