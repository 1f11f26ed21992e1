// A body as the server meant it: undone of the content codings its Content-Encoding names (RFC 9110 8.4). The
// harness asks for none, and a request without Accept-Encoding allows any (RFC 9110 12.5.3); static hosting serves
// stored files compressed whatever is asked. Decoded here, once, every reader of an answer reads the same bytes.
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { BodySoFar } from "./body.ts";

type Decoder = (input: Buffer, options: { maxOutputLength: number }) => Buffer;

const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: gunzipSync,
  "x-gzip": gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/** The codings a Content-Encoding value lists, in the order they were applied; identity left out. */
function codingsOf(header: string): string[] {
  return header
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
}

/**
 * Replaces a whole body with its decoded bytes, at most `cap` of them: a decoded body past the cap is cut as a
 * sent one is (truncated, nothing of it kept but its size past the cap). A body already cut, a coding not known,
 * or bytes that do not decode are left as they came: such a body reads as no JSON, which its check reports with
 * the Content-Encoding header beside it.
 */
export function decodeBody(body: BodySoFar, contentEncoding: string | undefined, cap: number): void {
  if (contentEncoding === undefined || body.truncated) return;
  const codings = codingsOf(contentEncoding);
  const decoders = codings.map((c) => DECODERS[c]);
  if (codings.length === 0 || decoders.some((d) => d === undefined)) return;
  let bytes = body.chunks.length === 1 ? body.chunks[0]! : Buffer.concat(body.chunks, body.bytes);
  try {
    for (const decode of decoders.reverse()) bytes = decode!(bytes, { maxOutputLength: cap });
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ERR_BUFFER_TOO_LARGE") return;
    body.chunks = [Buffer.alloc(0)];
    body.bytes = cap + 1;
    body.truncated = true;
    return;
  }
  body.chunks = [bytes];
  body.bytes = bytes.length;
}
