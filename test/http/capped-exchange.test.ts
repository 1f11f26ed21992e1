import type { Dispatcher } from "undici";
import { describe, expect, it } from "vitest";
import {
  CappedExchange,
  emptyBody,
  LARGE_BODIES_AT_ONCE,
  LARGE_BODY_BYTES,
  TRUNCATED_KEPT_BYTES,
} from "../../src/http/body.ts";
import { Agent } from "../../src/http/undici.ts";

/** An exchange sent to a dispatcher that only keeps its handler, so that the test plays the server's part. */
function started(maxBytes: number) {
  const into = emptyBody();
  const exchange = new CappedExchange(into, maxBytes);
  let handler: Dispatcher.DispatchHandler | undefined;
  const dispatcher = {
    dispatch(_options: Dispatcher.DispatchOptions, given: Dispatcher.DispatchHandler) {
      handler = given;
      return true;
    },
  } as unknown as Dispatcher;
  exchange.send(dispatcher, new URL("http://127.0.0.1:1/events"), {
    method: "GET",
    headers: {},
    waitMs: 1000,
  });
  const played = handler!;
  const state = { stopped: undefined as unknown, resumed: 0 };
  played.onConnect!((reason) => {
    state.stopped = reason ?? "stopped";
  });
  played.onHeaders!(
    200,
    [Buffer.from("content-type"), Buffer.from("text/plain")],
    () => state.resumed++,
    "OK",
  );
  return { exchange, into, handler: played, state };
}

/** Lets the promises settled so far run their reactions. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const MiB = 1024 * 1024;
const piece = (size: number, fill = "a") => Buffer.alloc(size, fill);

describe("an exchange's body", () => {
  it("keeps the head and the body of an answer read to its end", async () => {
    const { exchange, into, handler } = started(4 * MiB);
    expect(handler.onData!(piece(10, "x"))).toBe(true);
    expect(handler.onData!(piece(5, "y"))).toBe(true);
    handler.onComplete!([]);
    await exchange.done;
    expect(exchange.head).toEqual({ status: 200, headers: { "content-type": "text/plain" } });
    expect(Buffer.concat(into.chunks).toString()).toBe("xxxxxxxxxxyyyyy");
    expect(into).toMatchObject({ bytes: 15, truncated: false });
  });

  it("ends at the cap, stops the request, and settles without error", async () => {
    const { exchange, into, handler, state } = started(100);
    expect(handler.onData!(piece(60))).toBe(true);
    expect(handler.onData!(piece(60))).toBe(false);
    await exchange.done;
    expect(into).toMatchObject({ bytes: 100, truncated: true });
    expect(state.stopped).toBeInstanceOf(Error);
    // undici then reports the stop as the request's error; the exchange has already ended well.
    handler.onError!(state.stopped as Error);
    await expect(exchange.done).resolves.toBeUndefined();
  });

  it("takes an abort before it is connected, and stops the request once it is", async () => {
    const into = emptyBody();
    const exchange = new CappedExchange(into, 100);
    let handler: Dispatcher.DispatchHandler | undefined;
    const keeper = {
      dispatch(_options: unknown, given: Dispatcher.DispatchHandler) {
        handler = given;
        return true;
      },
    };
    exchange.send(keeper as unknown as Dispatcher, new URL("http://127.0.0.1:1/"), {
      method: "GET",
      headers: {},
      waitMs: 1000,
    });
    const reason = new Error("deadline");
    exchange.abort(reason);
    let stopped: unknown;
    handler!.onConnect!((r) => {
      stopped = r;
    });
    expect(stopped).toBe(reason);
    handler!.onError!(reason);
    await expect(exchange.done).rejects.toBe(reason);
    expect(exchange.aborted).toBe(true);
  });

  it("ends in the dispatcher's refusal of a URL that is not http or https", async () => {
    const agent = new Agent();
    try {
      const exchange = new CappedExchange(emptyBody(), 100).send(agent, new URL("ftp://127.0.0.1/"), {
        method: "GET",
        headers: {},
        waitMs: 1000,
      });
      await expect(exchange.done).rejects.toThrow("Invalid URL protocol");
      expect(exchange.head).toBeUndefined();
    } finally {
      await agent.close();
    }
  });
});

describe("large bodies' turns", () => {
  it("has a body past LARGE_BODY_BYTES wait, paused, for a turn, and gives every turn back", async () => {
    expect(LARGE_BODIES_AT_ONCE).toBe(2);
    const past = piece(LARGE_BODY_BYTES + 1);
    // Two bodies take the two turns.
    const holders = [started(4 * MiB), started(4 * MiB)];
    for (const h of holders) expect(h.handler.onData!(past)).toBe(false);
    await settle();
    for (const h of holders) expect(h.state.resumed).toBe(1);
    // A third waits for one, and is ended by its deadline while it waits.
    const waiter = started(4 * MiB);
    expect(waiter.handler.onData!(past)).toBe(false);
    await settle();
    expect(waiter.state.resumed).toBe(0);
    const late = new Error("deadline");
    waiter.exchange.abort(late);
    expect(waiter.state.stopped).toBe(late);
    waiter.handler.onError!(late);
    await expect(waiter.exchange.done).rejects.toBe(late);
    // The holders end: one well, one failing; the turn the waiter would have had must not stay with it.
    holders[0]!.handler.onComplete!([]);
    holders[1]!.handler.onError!(new Error("socket hang up"));
    await holders[0]!.exchange.done;
    await expect(holders[1]!.exchange.done).rejects.toThrow("socket hang up");
    expect(holders[0]!.into.bytes).toBe(past.length);
    expect(Buffer.concat(holders[0]!.into.chunks).equals(past)).toBe(true);
    await settle();
    // Both turns are free again: two more large bodies each get one.
    const next = [started(4 * MiB), started(4 * MiB)];
    for (const h of next) expect(h.handler.onData!(past)).toBe(false);
    await settle();
    for (const h of next) expect(h.state.resumed).toBe(1);
    for (const h of next) h.handler.onComplete!([]);
    await Promise.all(next.map((h) => h.exchange.done));
  });

  it("keeps only the start of a large body cut at its cap", async () => {
    const { exchange, into, handler, state } = started(2 * MiB);
    expect(handler.onData!(piece(MiB, "s"))).toBe(true);
    // Past LARGE_BODY_BYTES: paused until its turn comes, and then read on.
    expect(handler.onData!(piece(MiB, "t"))).toBe(false);
    await settle();
    expect(state.resumed).toBe(1);
    expect(into).toMatchObject({ bytes: 2 * MiB, truncated: false });
    expect(handler.onData!(piece(1, "u"))).toBe(false);
    await exchange.done;
    expect(into).toMatchObject({ bytes: 2 * MiB, truncated: true });
    expect(into.chunks).toHaveLength(1);
    expect(into.chunks[0]!.equals(piece(TRUNCATED_KEPT_BYTES, "s"))).toBe(true);
    expect(state.stopped).toBeInstanceOf(Error);
  });
});
