// A run keeps the exchange record of every answer to its end (the answers' evidence), so a record must hold what the
// evidence shows and nothing more: never the body it was read from.
import v8 from "node:v8";
import vm from "node:vm";
import { expect, it } from "vitest";
import { LARGE_BODY_BYTES } from "../../src/http/body.ts";
import type { ExchangeRecord } from "../../src/http/record.ts";
import { servingForTests } from "./servers.ts";

v8.setFlagsFromString("--expose-gc");
const collect = vm.runInNewContext("gc") as () => void;

const MiB = 1024 * 1024;
/** Below LARGE_BODY_BYTES, so that no buffer is kept for the next large body either. */
const BODY_BYTES = 900 * 1024;
const KEPT = 40;

const serving = servingForTests(
  (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const piece = Buffer.alloc(64 * 1024, "a");
    // In pieces, so that the body arrives as several chunks and is joined.
    for (let at = 0; at < BODY_BYTES; at += piece.length) res.write(piece.subarray(0, BODY_BYTES - at));
    res.end();
  },
  () => ({ allowedOrigins: [], maxBodyBytes: 4 * MiB }),
);

it("keeps no body alive through the exchange records a run keeps", async () => {
  expect(BODY_BYTES).toBeLessThan(LARGE_BODY_BYTES);
  await serving.client.get(`${serving.server.origin}/warm`);
  collect();
  const before = process.memoryUsage().arrayBuffers;
  const kept: ExchangeRecord[] = [];
  for (let i = 0; i < KEPT; i++) {
    const result = await serving.client.get(`${serving.server.origin}/${i}`);
    expect(result.body.length).toBe(BODY_BYTES);
    kept.push(result.exchange);
  }
  collect();
  collect();
  const grown = process.memoryUsage().arrayBuffers - before;
  // Each record holds the few kilobytes its excerpt is made from; held bodies would be KEPT × 0.9 MiB or more.
  expect(grown).toBeLessThan(4 * MiB);
  expect(kept.every((x) => x.curl.startsWith("curl ") && x.response?.bodyBytes === BODY_BYTES)).toBe(true);
});
