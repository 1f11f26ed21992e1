// The baseline as the suites read it: one JSON line per event after a header line. A single JSON text
// of the whole baseline passes V8's longest string at some half a million events; lines never come near it.
// While it is discovered, the baseline is an EventSpool: lines in memory up to a bound, then in a file, so that
// a target's answer costs the harness a bounded amount of memory however many events it holds.
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { EpcisEvent } from "../model/types.ts";

/** How the events the target holds were obtained, and what they are. */
export type BaselineMethod = "unfiltered" | "windows" | "crawl" | "none";

export interface Baseline {
  method: BaselineMethod;
  complete: boolean;
  note: string;
  /** Events as the target serves them (recordTime included), one per identity. */
  events: EpcisEvent[];
  /**
   * The further copies of identities a whole answer of discovery held more than once (the unfiltered answer, or the
   * time windows): EPCIS makes eventID optional, so the same event captured twice, or twice with only recordTime
   * apart, is one identity that a repository rightly holds, and serves, twice.
   */
  repeats?: EpcisEvent[];
  /** The events of --dataset, when given: what the target was loaded with. */
  datasetEvents?: EpcisEvent[];
  requests: number;
}

type Header = Omit<Baseline, "events" | "datasetEvents"> & { dataset: boolean };
type Line = { event: EpcisEvent } | { datasetEvent: EpcisEvent };

/** Lines are gathered into writes (and files read in reads) of about this many characters. */
const CHUNK_CHARS = 1 << 20;

/** Characters of events an EventSpool holds in memory before it moves them to a file. */
export const SPOOL_MEMORY_CHARS = 8 * (1 << 20);

/** Spool files not yet removed, removed at exit whatever ended the process normally. */
const liveSpools = new Set<string>();
let exitHook = false;

function removeAtExit(file: string): void {
  liveSpools.add(file);
  if (exitHook) return;
  exitHook = true;
  process.once("exit", () => {
    for (const spooled of liveSpools) rmSync(spooled, { force: true });
  });
}

/** The lines of a file, read a chunk at a time, so that no string or buffer holds the whole file. */
function* fileLines(file: string): Generator<string> {
  const fd = openSync(file, "r");
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_CHARS);
    let rest = Buffer.alloc(0);
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      // A line break is byte 0x0a, never part of a multi-byte UTF-8 character: cutting there cuts no character.
      const bytes =
        rest.length === 0 ? chunk.subarray(0, read) : Buffer.concat([rest, chunk.subarray(0, read)]);
      let start = 0;
      for (let end = bytes.indexOf(0x0a, start); end >= 0; end = bytes.indexOf(0x0a, start)) {
        if (end > start) yield bytes.toString("utf8", start, end);
        start = end + 1;
      }
      rest = Buffer.from(bytes.subarray(start));
    }
    if (rest.length > 0) yield rest.toString("utf8");
  } finally {
    closeSync(fd);
  }
}

export interface SpoolOptions {
  /** The folder of the file; default the system's temporary folder. */
  dir?: string;
  /** Characters held in memory before the events move to the file; default SPOOL_MEMORY_CHARS. */
  memoryChars?: number;
}

/**
 * Events in the order added, each held as its JSON line: in memory up to `memoryChars`, then all of them in a
 * file under `dir`. Iterating parses them back one at a time.
 */
export class EventSpool implements Iterable<EpcisEvent> {
  readonly #dir: string;
  readonly #memoryChars: number;
  /** Lines not yet in the file (all of them while the spool is in memory). */
  #pending: string[] = [];
  #pendingChars = 0;
  #file: string | undefined;
  #count = 0;

  constructor(options: SpoolOptions = {}) {
    this.#dir = options.dir ?? os.tmpdir();
    this.#memoryChars = options.memoryChars ?? SPOOL_MEMORY_CHARS;
  }

  /** How many events were added. */
  get length(): number {
    return this.#count;
  }

  /** Whether the events are (also) in a file: the spool passed its memory bound. */
  get spilled(): boolean {
    return this.#file !== undefined;
  }

  add(event: EpcisEvent): void {
    const line = JSON.stringify(event);
    this.#pending.push(line);
    this.#pendingChars += line.length + 1;
    this.#count += 1;
    const bound = this.#file === undefined ? this.#memoryChars : CHUNK_CHARS;
    if (this.#pendingChars >= bound) this.#flush();
  }

  /** The events' JSON texts, in order. */
  *lines(): Generator<string> {
    if (this.#file !== undefined) {
      this.#flush();
      yield* fileLines(this.#file);
    } else {
      yield* this.#pending;
    }
  }

  *[Symbol.iterator](): Iterator<EpcisEvent> {
    for (const line of this.lines()) yield JSON.parse(line) as EpcisEvent;
  }

  /** Forgets every event and removes the file. */
  clear(): void {
    if (this.#file !== undefined) {
      rmSync(this.#file, { force: true });
      liveSpools.delete(this.#file);
      this.#file = undefined;
    }
    this.#pending = [];
    this.#pendingChars = 0;
    this.#count = 0;
  }

  #flush(): void {
    if (this.#file === undefined) {
      this.#file = path.join(this.#dir, `tracecheck-spool-${randomBytes(8).toString("hex")}.ndjson`);
      removeAtExit(this.#file);
    }
    if (this.#pending.length === 0) return;
    const fd = openSync(this.#file, "a");
    try {
      writeSync(fd, `${this.#pending.join("\n")}\n`);
    } finally {
      closeSync(fd);
    }
    this.#pending = [];
    this.#pendingChars = 0;
  }
}

/** A baseline to write: its events in memory or spooled. */
export type BaselineToWrite = Omit<Baseline, "events"> & { events: Iterable<EpcisEvent> };

/** The JSON text of each event; a spool holds them as JSON already, so they are copied, not parsed again. */
function* jsonTexts(events: Iterable<EpcisEvent>): Generator<string> {
  if (events instanceof EventSpool) yield* events.lines();
  else for (const event of events) yield JSON.stringify(event);
}

export async function writeBaselineFile(file: string, baseline: BaselineToWrite): Promise<void> {
  const { events, datasetEvents, ...rest } = baseline;
  const header: Header = { ...rest, dataset: datasetEvents !== undefined };
  const handle = await open(file, "w");
  try {
    let chunk = `${JSON.stringify(header)}\n`;
    const add = async (line: string) => {
      chunk += `${line}\n`;
      if (chunk.length >= CHUNK_CHARS) {
        await handle.write(chunk);
        chunk = "";
      }
    };
    for (const text of jsonTexts(events)) await add(`{"event":${text}}`);
    for (const event of datasetEvents ?? [])
      await add(JSON.stringify({ datasetEvent: event } satisfies Line));
    await handle.write(chunk);
  } finally {
    await handle.close();
  }
}

/** Reads what writeBaselineFile wrote, a line at a time, so that no string holds the whole file. */
export function readBaselineFile(file: string): Baseline {
  let header: Header | undefined;
  const events: EpcisEvent[] = [];
  const datasetEvents: EpcisEvent[] = [];
  for (const text of fileLines(file)) {
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
