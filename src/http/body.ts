import type { Readable } from "node:stream";
import { Semaphore } from "./semaphore.ts";

/** What has arrived of a body so far; filled while reading, so a timeout mid-body still has evidence. */
export interface BodySoFar {
  chunks: Buffer[];
  bytes: number;
  truncated: boolean;
}

/**
 * What is kept of a body cut at the cap: its start, for the evidence. The rest can never be parsed, and copying
 * it whole (then decoding it) tripled what each of the requests in flight held of a huge body.
 */
export const TRUNCATED_KEPT_BYTES = 64 * 1024;

export function emptyBody(): BodySoFar {
  return { chunks: [], bytes: 0, truncated: false };
}

/** A body is large once it passes this size; below it, any number are read at once. */
export const LARGE_BODY_BYTES = 1 << 20;

/**
 * Large bodies read at once, in this thread, whichever client reads them. Every request in flight may otherwise
 * hold a body up to the cap, and a target answering each with a huge body (eight at a time by default, for
 * discovery and for the suites) made that the largest part of the harness's memory. Past this many, a
 * body waits, holding what has arrived, while its socket is paused; the wait counts against the request's
 * timeout, as a slow transfer would.
 */
export const LARGE_BODIES_AT_ONCE = 2;

const largeBodies = new Semaphore(LARGE_BODIES_AT_ONCE);

/**
 * Buffers of the cap's size, one per turn, kept from one large body to the next. A large body is copied into one
 * as it arrives, so that its chunks die young; kept, they lived long enough to wait for a full collection, and
 * with a fresh buffer per body each huge body left its 16 MiB behind until then: a hundred megabytes or more.
 */
const spareBuffers: Buffer[] = [];

function borrowBuffer(size: number): Buffer {
  const fits = spareBuffers.findIndex((buffer) => buffer.length >= size);
  // Pages of a new buffer not yet written are not resident.
  return fits === -1 ? Buffer.allocUnsafeSlow(size) : spareBuffers.splice(fits, 1)[0]!;
}

function returnBuffer(buffer: Buffer): void {
  if (spareBuffers.length < LARGE_BODIES_AT_ONCE) spareBuffers.push(buffer);
}

/** Waits for a turn to read a large body: true once it has one, false if the body closed first (it was aborted). */
async function largeBodyTurn(body: Readable): Promise<boolean> {
  if (body.destroyed) return false;
  const turn = largeBodies.acquire().then(() => "turn" as const);
  let onClose = (): void => undefined;
  const closed = new Promise<"closed">((resolve) => {
    onClose = () => resolve("closed");
    body.once("close", onClose);
  });
  const first = await Promise.race([turn, closed]);
  body.off("close", onClose);
  if (first === "turn") return true;
  // The turn still comes; it goes straight to the next body waiting.
  void turn.then(() => largeBodies.release());
  return false;
}

/**
 * Reads a body into `into`, keeping at most `maxBytes`. Past the cap the stream is destroyed, so a huge or endless
 * body costs no more memory than the cap; past LARGE_BODY_BYTES it waits for one of the large bodies' turns.
 */
export async function readCapped(body: Readable, maxBytes: number, into: BodySoFar): Promise<void> {
  let large: Buffer | undefined;
  try {
    for await (const chunk of body) {
      const buffer: Buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      if (
        large === undefined &&
        into.bytes + buffer.length > LARGE_BODY_BYTES &&
        maxBytes > LARGE_BODY_BYTES
      ) {
        if (await largeBodyTurn(body)) {
          large = borrowBuffer(maxBytes);
          for (let at = 0, i = 0; i < into.chunks.length; at += into.chunks[i]!.length, i++) {
            into.chunks[i]!.copy(large, at);
          }
          into.chunks = [];
        }
      }
      const room = maxBytes - into.bytes;
      const taken = buffer.length > room ? buffer.subarray(0, room) : buffer;
      if (large !== undefined) taken.copy(large, into.bytes);
      else if (taken.length > 0) into.chunks.push(taken === buffer ? buffer : Buffer.from(taken));
      into.bytes += taken.length;
      if (buffer.length > room) {
        into.truncated = true;
        body.destroy();
        return;
      }
    }
  } finally {
    if (large !== undefined) {
      // What the caller keeps is copied out before the buffer and the turn go to the next large body.
      const kept = into.truncated ? Math.min(into.bytes, TRUNCATED_KEPT_BYTES) : into.bytes;
      into.chunks = [Buffer.from(large.subarray(0, kept))];
      returnBuffer(large);
      largeBodies.release();
    }
  }
}

/** The body as one buffer; of a truncated body, only its first TRUNCATED_KEPT_BYTES (`bytes` tells its size). */
export function bodyBuffer(body: BodySoFar): Buffer {
  const [only] = body.chunks;
  // A body that came in one piece is that piece, not a copy, where the memory it is a view of is not more than
  // twice its size: a body can outlive its exchange, and should not hold a socket's whole read with it.
  if (!body.truncated && body.chunks.length === 1 && only !== undefined && only.length === body.bytes) {
    if (2 * only.byteLength >= only.buffer.byteLength) return only;
  }
  return Buffer.concat(body.chunks, body.truncated ? Math.min(body.bytes, TRUNCATED_KEPT_BYTES) : body.bytes);
}
