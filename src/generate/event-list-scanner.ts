// Reads an EPCIS document fed as text chunks without ever holding it as one string: a million-event document
// is larger than the longest string V8 allows, so JSON.parse cannot take it whole. Everything outside the
// event list is kept as text and parsed at the end; each event is parsed on its own as soon as it is complete.

import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  isJsonSpace,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
} from "../model/json-text.ts";

/** Where an event list may sit: EPCISDocument, and EPCISQueryDocument. */
const EVENT_LIST_PATHS = ["epcisBody/eventList", "epcisBody/queryResults/resultsBody/eventList"];

interface Frame {
  array: boolean;
  key: string | undefined;
}

export class EventListScanner {
  private readonly skeleton: string[] = [];
  private readonly stack: Frame[] = [];
  private readonly events: unknown[] = [];
  private eventListPath: string[] | undefined;
  private inString = false;
  private escaped = false;
  // Text of the string being read outside events, for object keys.
  private stringText: string[] = [];
  private lastString: string | undefined;
  private pendingKey: string | undefined;
  // Depth of the event list while inside it, and the text of the event being read.
  private listDepth = -1;
  private eventText: string[] | undefined;

  constructor(private readonly source: string) {}

  feed(chunk: string): void {
    let segmentStart = 0;
    let eventStart = this.eventText === undefined ? -1 : 0;
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      if (this.inString) {
        i = this.skipString(chunk, i, eventStart < 0);
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === QUOTE) {
        this.inString = true;
        if (eventStart < 0 && this.listDepth < 0) this.stringText = [];
        continue;
      }
      if (eventStart >= 0) {
        if (c === OPEN_OBJECT || c === OPEN_ARRAY)
          this.stack.push({ array: c === OPEN_ARRAY, key: undefined });
        else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
          this.stack.pop();
          if (this.stack.length === this.listDepth) {
            (this.eventText as string[]).push(chunk.slice(eventStart, i + 1));
            this.finishEvent();
            eventStart = -1;
          }
        }
        continue;
      }
      if (this.listDepth >= 0) {
        // Between events: only separators, the start of the next event, or the end of the list.
        if (isJsonSpace(c) || c === COMMA) continue;
        if (c === OPEN_OBJECT) {
          this.stack.push({ array: false, key: undefined });
          this.eventText = [];
          eventStart = i;
          continue;
        }
        if (c === CLOSE_ARRAY) {
          this.stack.pop();
          this.listDepth = -1;
          segmentStart = i;
          continue;
        }
        throw new Error(
          `The event list in ${this.source} holds something other than event objects; fix the file.`,
        );
      }
      if (c === COLON) {
        this.pendingKey = this.lastString;
      } else if (c === COMMA) {
        this.pendingKey = undefined;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        const parent = this.stack[this.stack.length - 1];
        const key = parent !== undefined && !parent.array ? this.pendingKey : undefined;
        this.stack.push({ array: c === OPEN_ARRAY, key });
        this.pendingKey = undefined;
        if (c === OPEN_ARRAY && this.atEventList()) {
          this.skeleton.push(chunk.slice(segmentStart, i + 1));
          this.listDepth = this.stack.length;
          this.eventListPath = this.stack.slice(1).map((f) => f.key ?? "");
        }
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        this.stack.pop();
      }
    }
    if (eventStart >= 0) (this.eventText as string[]).push(chunk.slice(eventStart));
    else if (this.listDepth < 0) this.skeleton.push(chunk.slice(segmentStart));
  }

  /** The document, with its event list filled in; throws if the text was not a complete JSON document. */
  finish(): unknown {
    if (this.inString || this.stack.length > 0 || this.eventText !== undefined) {
      throw new Error(`${this.source} ends in the middle of the JSON document; the file is truncated.`);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(this.skeleton.join(""));
    } catch (error) {
      throw new Error(`${this.source} is not valid JSON (${(error as Error).message}); fix the file.`);
    }
    if (this.eventListPath !== undefined) {
      let holder = doc as Record<string, unknown>;
      const path = this.eventListPath;
      for (const key of path.slice(0, -1)) holder = holder[key] as Record<string, unknown>;
      holder[path[path.length - 1] as string] = this.events;
    }
    return doc;
  }

  private atEventList(): boolean {
    if (this.eventListPath !== undefined) return false;
    const path = this.stack
      .slice(1)
      .map((f) => f.key)
      .join("/");
    return EVENT_LIST_PATHS.includes(path);
  }

  private finishEvent(): void {
    const text = (this.eventText as string[]).join("");
    this.eventText = undefined;
    try {
      this.events.push(JSON.parse(text));
    } catch (error) {
      throw new Error(
        `Event ${this.events.length} in ${this.source} is not valid JSON (${(error as Error).message}); fix the file.`,
      );
    }
  }

  // Moves past string content; returns the index of the last character consumed.
  private skipString(chunk: string, from: number, keepText: boolean): number {
    let i = from;
    const n = chunk.length;
    const record = keepText && this.listDepth < 0;
    while (i < n) {
      if (this.escaped) {
        this.escaped = false;
        i++;
        continue;
      }
      const quote = chunk.indexOf('"', i);
      const slash = chunk.indexOf("\\", i);
      const stop = quote < 0 ? slash : slash < 0 ? quote : Math.min(quote, slash);
      if (stop < 0) {
        if (record) this.stringText.push(chunk.slice(from, n));
        return n - 1;
      }
      if (chunk.charCodeAt(stop) === BACKSLASH) {
        this.escaped = true;
        i = stop + 1;
        continue;
      }
      this.inString = false;
      if (record) {
        this.stringText.push(chunk.slice(from, stop));
        this.lastString = JSON.parse(`"${this.stringText.join("")}"`) as string;
      }
      return stop;
    }
    if (record) this.stringText.push(chunk.slice(from, n));
    return n - 1;
  }
}
