// The reader of the target's answers (events.ts): the value JSON.parse gives, with the baseline's own object in place
// of each event of its eventList served exactly as the baseline holds it. Most of a run's reading is the target
// serving, again and again, events the run already holds, written byte for byte as before, and parsing each anew to
// compare it with the baseline was the largest part of the harness's time per request. So the reader remembers the
// exact bytes of each event it has found to be the baseline's own, and gives the baseline's object back when the
// same bytes come again, without parsing them.
//
// A body it cannot read so with certainty is parsed whole by JSON.parse, and its events compared one by one.

import { jsonIdentical } from "../model/json-equal.ts";
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
import type { EpcisEvent } from "../model/types.ts";
import { eventsOf } from "./baseline.ts";

function skipSpace(bytes: Buffer, at: number): number {
  let i = at;
  while (isJsonSpace(bytes[i])) i++;
  return i;
}

/**
 * Where the object starting at `at` (an opening brace) ends, one past its closing brace, read as JSON nests
 * strings, objects and arrays; -1 if it does not end or does not nest. It does not validate what it passes over:
 * the bytes up to that end are then parsed by JSON.parse, which does.
 */
function endOfObject(bytes: Buffer, at: number): number {
  let depth = 0;
  for (let i = at; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      for (i++; i < bytes.length; i++) {
        const inString = bytes[i];
        if (inString === BACKSLASH) i++;
        else if (inString === QUOTE) break;
      }
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
      if (depth === 0) return byte === CLOSE_OBJECT ? i + 1 : -1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

/** Puts `list` in the place of the eventList member holding the placeholder, wherever in `value` that is. */
function putList(value: unknown, list: unknown[]): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some((member) => putList(member, list));
  const members = value as Record<string, unknown>;
  for (const name in members) {
    if (name === "eventList" && members[name] === PLACEHOLDER) {
      members[name] = list;
      return true;
    }
    if (putList(members[name], list)) return true;
  }
  return false;
}

/** An event's bytes as served, seen to parse to the baseline's object for its eventID. */
interface KnownText {
  bytes: Buffer;
  event: EpcisEvent;
}

export interface KnownEventLimits {
  /** The most bytes of event text remembered. */
  maxBytes: number;
  /** The most texts remembered under one key (the first bytes of an event). */
  maxPerKey: number;
}

/** A repository's events as served, many times over, fit well within; a larger one is remembered in part. */
export const DEFAULT_KNOWN_EVENT_LIMITS: Readonly<KnownEventLimits> = {
  maxBytes: 64 * 1024 ** 2,
  maxPerKey: 8,
};

/** The first bytes of an event, which find the texts to try for it: enough to tell most events apart. */
const KEY_BYTES = 96;

/**
 * A hash of the first KEY_BYTES bytes at `at` (FNV-1a's steps, taken four bytes at a time): events alike there share
 * it, and their bytes tell them apart.
 */
function keyOf(bytes: Buffer, view: DataView, at: number): number {
  const end = Math.min(at + KEY_BYTES, bytes.length);
  let hash = 0x811c9dc5;
  let i = at;
  // Four bytes at a time, then the rest one by one.
  for (; i + 4 <= end; i += 4) hash = Math.imul(hash ^ view.getUint32(i, true), 0x01000193);
  for (; i < end; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
  return hash >>> 0;
}

const LIST_KEY = Buffer.from('"eventList"');

/** Put in the eventList's place in what is left of the document, and replaced by the list once that is parsed. */
const PLACEHOLDER = "tracecheck:event-list";

/** Parses answers of the target's query interface, each event the run knows given as the baseline's own object. */
export class KnownEventReader {
  readonly #byId: ReadonlyMap<string, EpcisEvent>;
  readonly #limits: KnownEventLimits;
  readonly #texts = new Map<number, KnownText[]>();
  #bytesKept = 0;

  constructor(byId: ReadonlyMap<string, EpcisEvent>, limits: KnownEventLimits = DEFAULT_KNOWN_EVENT_LIMITS) {
    this.#byId = byId;
    this.#limits = limits;
  }

  /** How many event texts it remembers. */
  get remembered(): number {
    let count = 0;
    for (const texts of this.#texts.values()) count += texts.length;
    return count;
  }

  /**
   * The body's value as JSON.parse(body.toString("utf8")) gives it, and throws as that throws, except that an
   * event of its eventList that is written exactly as the baseline holds it, member for member and in the same
   * order, is the baseline's own object.
   */
  parse(body: Buffer): unknown {
    try {
      const value = this.#parseKnown(body);
      if (value !== undefined) return value;
    } catch {
      // Not certain, or not JSON: JSON.parse decides, and its error is the one the caller sees.
    }
    const value: unknown = JSON.parse(body.toString("utf8"));
    const list = eventsOf(value);
    if (list !== undefined) for (const [at, served] of list.entries()) list[at] = this.#known(served);
    return value;
  }

  /**
   * The baseline's object for a served event with an eventID that is written exactly as the baseline holds it;
   * else the event as served. An event without an eventID is left as served, not hashed (model identity.ts).
   */
  #known<T>(served: T): T | EpcisEvent {
    const id =
      typeof served === "object" && served !== null ? (served as Partial<EpcisEvent>).eventID : undefined;
    const known = typeof id === "string" && id !== "" ? this.#byId.get(id) : undefined;
    return known !== undefined && jsonIdentical(known, served) ? known : served;
  }

  /**
   * The document read around its one eventList, or undefined where that is not certain to give what JSON.parse
   * would: then the body is parsed whole. Of the bytes outside the list, none may be a backslash, and the first
   * place `"eventList"` is written must be the only one, so that it is a member's name written plainly, not part
   * of a string or a name escaped, and no other member of that name can take the list's place.
   * The bytes are split only at ASCII punctuation, where UTF-8 decoding cannot differ from decoding them whole.
   */
  #parseKnown(body: Buffer): unknown {
    const name = body.indexOf(LIST_KEY);
    if (name === -1) return undefined;
    let at = skipSpace(body, name + LIST_KEY.length);
    if (body[at] !== COLON) return undefined;
    at = skipSpace(body, at + 1);
    if (body[at] !== OPEN_ARRAY) return undefined;
    const open = at;
    // Before the events are read: a body written with escapes there (\/ for /, say) is read whole.
    if (body.lastIndexOf(BACKSLASH, open) !== -1) return undefined;
    const list: unknown[] = [];
    const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
    at = skipSpace(body, at + 1);
    if (body[at] !== CLOSE_ARRAY) {
      for (;;) {
        at = this.#readEvent(body, view, at, list);
        if (at === -1) return undefined;
        at = skipSpace(body, at);
        if (body[at] === CLOSE_ARRAY) break;
        if (body[at] !== COMMA) return undefined;
        at = skipSpace(body, at + 1);
      }
    }
    const close = at;
    // Once more outside the list is another member of that name, whichever JSON.parse takes; inside it, the text
    // is some event's, parsed as part of it.
    if (body.indexOf(LIST_KEY, close + 1) !== -1) return undefined;
    if (body.indexOf(BACKSLASH, close + 1) !== -1) return undefined;
    const rest = `${body.toString("utf8", 0, open)}"${PLACEHOLDER}"${body.toString("utf8", close + 1)}`;
    const value: unknown = JSON.parse(rest);
    // The one eventList member holds the placeholder, unless a member written again after it replaced what holds
    // it; then the list is nowhere in the value, as it is nowhere in what JSON.parse gives.
    putList(value, list);
    return value;
  }

  /** Reads the event starting at `at` into `list`; where it ends, or -1 if it is not an object that ends. */
  #readEvent(body: Buffer, view: DataView, at: number, list: unknown[]): number {
    if (body[at] !== OPEN_OBJECT) return -1;
    const key = keyOf(body, view, at);
    const texts = this.#texts.get(key);
    if (texts !== undefined) {
      for (const text of texts) {
        const end = at + text.bytes.length;
        if (end <= body.length && body.compare(text.bytes, 0, text.bytes.length, at, end) === 0) {
          list.push(text.event);
          return end;
        }
      }
    }
    const end = endOfObject(body, at);
    if (end === -1) return -1;
    const served: unknown = JSON.parse(body.toString("utf8", at, end));
    const known = this.#known(served);
    list.push(known);
    if (known !== served) this.#remember(key, texts, body.subarray(at, end), known as EpcisEvent);
    return end;
  }

  #remember(key: number, texts: KnownText[] | undefined, bytes: Buffer, event: EpcisEvent): void {
    const { maxBytes, maxPerKey } = this.#limits;
    if (this.#bytesKept + bytes.length > maxBytes || (texts?.length ?? 0) >= maxPerKey) return;
    this.#bytesKept += bytes.length;
    // A copy: the page's buffer is not kept for the sake of one event in it.
    const text = { bytes: Buffer.from(bytes), event };
    if (texts === undefined) this.#texts.set(key, [text]);
    else texts.push(text);
  }
}
