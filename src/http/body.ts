import type { Dispatcher } from "undici";
import { RequestAbortedError } from "undici/lib/core/errors.js";
import { parseHeaders } from "undici/lib/core/util.js";
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

/** The status and headers of an answer, as undici parses them (names in lower case, a repeated header a list). */
export interface ResponseHead {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** What one exchange sends, and how long each wait for the server's bytes may take. */
export interface ExchangeOptions {
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The longest wait for the answer's head, and then for each part of its body. */
  waitMs: number;
}

/**
 * One request sent through undici's dispatcher, its body read into a BodySoFar as it arrives. It takes the body
 * from undici's handler calls directly: the stream, its async iterator and the promise per chunk that undici's
 * request() puts between them did nothing a run needs, and cost every request more than the rest of this reading.
 *
 * A body past the cap ends the exchange, which closes its connection, so that a huge or endless body costs no more
 * memory than the cap. A body past LARGE_BODY_BYTES waits, its socket paused, for one of the large bodies' turns.
 */
export class CappedExchange {
  /** The answer's head, once it has arrived. */
  head: ResponseHead | undefined;
  /** Settles when the body has been read to its end or to the cap; rejects as the exchange fails. */
  readonly done: Promise<void>;
  readonly #into: BodySoFar;
  readonly #maxBytes: number;
  #resolve!: () => void;
  #reject!: (reason: unknown) => void;
  #settled = false;
  /** Why the exchange was ended from outside (abort), kept for a request not yet connected. */
  #reason: unknown = undefined;
  #aborted = false;
  #stop: ((reason?: Error) => void) | undefined;
  #resume: (() => void) | undefined;
  /** The buffer a large body is read into, while it holds one of the large bodies' turns. */
  #large: Buffer | undefined;
  #askedTurn = false;

  constructor(into: BodySoFar, maxBytes: number) {
    this.#into = into;
    this.#maxBytes = maxBytes;
    this.done = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /** Whether abort ended it. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /**
   * Sends the request to `dispatcher`; its outcome is `done`. The dispatcher refuses, through the handler, what it
   * cannot send (a URL other than http or https among it).
   */
  send(dispatcher: Dispatcher, url: URL, options: ExchangeOptions): this {
    dispatcher.dispatch(
      {
        origin: url.origin,
        path: url.search ? `${url.pathname}${url.search}` : url.pathname,
        method: options.method as Dispatcher.HttpMethod,
        headers: options.headers,
        ...(options.body !== undefined ? { body: options.body } : {}),
        headersTimeout: options.waitMs,
        bodyTimeout: options.waitMs,
      },
      this.#handler(),
    );
    return this;
  }

  /** Ends the exchange with `reason` as its error, wherever it is: queued, waiting for the head, or reading. */
  abort(reason: unknown): void {
    if (this.#settled || this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#stop?.(reason as Error);
  }

  // The handler in the form undici's dispatcher calls (its DispatchHandler): a fresh object of plain functions,
  // so that none of this class's own members is taken for one of its hooks.
  #handler(): Dispatcher.DispatchHandler {
    return {
      onConnect: (stop) => {
        if (this.#aborted) stop(this.#reason as Error);
        else this.#stop = stop;
      },
      onHeaders: (status, rawHeaders, resume) => {
        // An interim answer (100 Continue, 103 Early Hints) is not the answer.
        if (status < 200) return true;
        this.head = { status, headers: parseHeaders(rawHeaders) };
        this.#resume = resume;
        return true;
      },
      onData: (chunk) => this.#take(chunk),
      onComplete: () => this.#finish(undefined),
      onError: (error) => this.#finish(error),
    };
  }

  /** Keeps what fits of a chunk; false pauses the socket (a large body waiting for its turn, or the end). */
  #take(chunk: Buffer): boolean {
    if (this.#settled) return false;
    const into = this.#into;
    if (
      !this.#askedTurn &&
      into.bytes + chunk.length > LARGE_BODY_BYTES &&
      this.#maxBytes > LARGE_BODY_BYTES
    ) {
      this.#askedTurn = true;
      void largeBodies.acquire().then(() => this.#turnCame(chunk));
      return false;
    }
    const room = this.#maxBytes - into.bytes;
    const taken = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (this.#large !== undefined) taken.copy(this.#large, into.bytes);
    else if (taken.length > 0) into.chunks.push(taken === chunk ? chunk : Buffer.from(taken));
    into.bytes += taken.length;
    if (chunk.length <= room) return true;
    // Past the cap: what arrived decides, and the connection is closed rather than read to its end.
    into.truncated = true;
    this.#finish(undefined);
    this.#stop?.(new RequestAbortedError("The body passed the size the harness reads."));
    return false;
  }

  /** A large body's turn: its body so far is copied into a buffer of the cap's size, and reading goes on. */
  #turnCame(waiting: Buffer): void {
    // The exchange ended while it waited: the turn goes straight to the next body waiting.
    if (this.#settled) {
      largeBodies.release();
      return;
    }
    const large = borrowBuffer(this.#maxBytes);
    const into = this.#into;
    for (let at = 0, i = 0; i < into.chunks.length; at += into.chunks[i]!.length, i++) {
      into.chunks[i]!.copy(large, at);
    }
    into.chunks = [];
    this.#large = large;
    if (this.#take(waiting)) this.#resume?.();
  }

  #finish(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    const large = this.#large;
    if (large !== undefined) {
      // What the caller keeps is copied out before the buffer and the turn go to the next large body.
      const into = this.#into;
      const kept = into.truncated ? Math.min(into.bytes, TRUNCATED_KEPT_BYTES) : into.bytes;
      into.chunks = [Buffer.from(large.subarray(0, kept))];
      this.#large = undefined;
      returnBuffer(large);
      largeBodies.release();
    }
    if (error === undefined) this.#resolve();
    else this.#reject(error);
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
