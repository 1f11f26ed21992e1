// ARCHITECTURE.md "The key is a secret": the suites' client sends X-API-Key to the target's events origin, its
// resolver origin and each --allow-origin, and to no other origin a link may lead to.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunContext } from "../../src/engine/context.ts";
import { scopeOf } from "../../src/engine/run-scope.ts";
import { targetClient } from "../../src/target/client.ts";
import { testRunContext } from "../support/run-context.ts";

const KEY = "origin-test-key-7f3a";

interface Recorder {
  origin: string;
  keys: (string | undefined)[];
  server: Server;
}

async function recorder(): Promise<Recorder> {
  const keys: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    const key = req.headers["x-api-key"];
    keys.push(Array.isArray(key) ? key.join(",") : key);
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, keys, server };
}

let events: Recorder;
let resolver: Recorder;
let partner: Recorder;
let elsewhere: Recorder;
let ctx: RunContext;

beforeAll(async () => {
  [events, resolver, partner, elsewhere] = await Promise.all([
    recorder(),
    recorder(),
    recorder(),
    recorder(),
  ]);
  ctx = testRunContext(`${events.origin}/epcis`, `${resolver.origin}/dl`, {
    apiKey: KEY,
    concurrency: 2,
    allowOrigins: [partner.origin],
  });
});

afterAll(async () => {
  await targetClient(ctx).close();
  await Promise.all(
    [events, resolver, partner, elsewhere].map(
      (r) =>
        new Promise<void>((resolve) => {
          r.server.closeAllConnections();
          r.server.close(() => resolve());
        }),
    ),
  );
});

describe("the suites' client and the key", () => {
  it("sends the key to the events, resolver and allowed origins, whatever the path", async () => {
    const client = targetClient(ctx);
    await client.get(`${events.origin}/epcis/events`);
    await client.get(`${resolver.origin}/dl/01/09506000134352`);
    await client.get(`${partner.origin}/masterdata/anything`);
    expect(events.keys).toEqual([KEY]);
    expect(resolver.keys).toEqual([KEY]);
    expect(partner.keys).toEqual([KEY]);
  });

  it("withholds it from any other origin, the same host on another port included, and records that", async () => {
    expect(new URL(elsewhere.origin).hostname).toBe(new URL(events.origin).hostname);
    const result = await targetClient(ctx).get(`${elsewhere.origin}/events`);
    expect(elsewhere.keys).toEqual([undefined]);
    expect(result.exchange.keyWithheld).toBe(true);
    expect(JSON.stringify(result.exchange)).not.toContain(KEY);
  });

  it("is one client for the whole run, and another run's is another", async () => {
    // The run's end closes the client its scope holds (engine.ts): the one the checks use must be that one.
    const client = targetClient(ctx);
    expect(scopeOf(ctx).client).toBe(client);
    const other = { ...ctx, apiKey: "another" };
    const otherClient = targetClient(other);
    try {
      expect(scopeOf(other).client).toBe(otherClient);
      expect(otherClient).not.toBe(client);
      // Each run's client carries its own run's key, whichever was made first.
      events.keys.length = 0;
      await otherClient.get(`${events.origin}/epcis/events`);
      await targetClient(ctx).get(`${events.origin}/epcis/events`);
      expect(events.keys).toEqual(["another", KEY]);
    } finally {
      await otherClient.close();
    }
  });
});
