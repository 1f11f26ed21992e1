import type { Readable } from "node:stream";

/** What has arrived of a body so far; filled while reading, so a timeout mid-body still has evidence. */
export interface BodySoFar {
  chunks: Buffer[];
  bytes: number;
  truncated: boolean;
}

export function emptyBody(): BodySoFar {
  return { chunks: [], bytes: 0, truncated: false };
}

/**
 * Reads a body into `into`, keeping at most `maxBytes`. Past the cap the stream is destroyed, so a huge or endless
 * body costs no more memory than the cap.
 */
export async function readCapped(body: Readable, maxBytes: number, into: BodySoFar): Promise<void> {
  for await (const chunk of body) {
    const buffer: Buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    const room = maxBytes - into.bytes;
    if (buffer.length > room) {
      if (room > 0) into.chunks.push(Buffer.from(buffer.subarray(0, room)));
      into.bytes += room;
      into.truncated = true;
      body.destroy();
      return;
    }
    into.chunks.push(buffer);
    into.bytes += buffer.length;
  }
}

export function bodyBuffer(body: BodySoFar): Buffer {
  return Buffer.concat(body.chunks, body.bytes);
}
