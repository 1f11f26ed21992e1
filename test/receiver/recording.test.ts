// The recording sender: every request kept as it arrived (the request target undecoded, each header line), with
// the answer; and the narrow-only refusal, which comes after the key check and spares a narrow enough query.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import { startReference } from "../../src/reference/index.ts";
import type { RecordedExchange } from "../../src/reference/recording.ts";

const KEY = "recording-key";
const exchanges: RecordedExchange[] = [];
let reference: Awaited<ReturnType<typeof startReference>>;

beforeAll(async () => {
  reference = await startReference({
    dataset: generateDataset({ seed: 1, events: 40 }),
    apiKeys: [KEY],
    recording: { record: (x) => exchanges.push(x), refuseOver: 3 },
  });
});

afterAll(async () => {
  await reference?.close();
});

/** One GET with the request target and header lines exactly as given (fetch would normalize them). */
function get(target: string, headers: [string, string][]): Promise<number> {
  const url = new URL(reference.eventsBase);
  return new Promise((resolve, reject) => {
    const req = request(
      // Header lines as an array keep a repeated name twice; node then adds no Host line of its own.
      {
        host: url.hostname,
        port: url.port,
        method: "GET",
        path: target,
        headers: ["Host", url.host, ...headers.flat()],
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("the recording sender", () => {
  it("keeps the request target undecoded and every header line, with the status and body answered", async () => {
    const target = "/events?EQ_bizStep=shipping%7creceiving|packing";
    await get(target, [
      ["X-API-Key", KEY],
      ["x-api-key", "another"],
    ]);
    const x = exchanges.find((e) => e.rawUrl === target);
    expect(x).toBeDefined();
    expect(x!.listener).toBe("shared");
    expect(x!.rawHeaders.filter(([name]) => name.toLowerCase() === "x-api-key").map(([, v]) => v)).toEqual([
      KEY,
      "another",
    ]);
    expect(x!.status).toBeGreaterThanOrEqual(400);
    expect(x!.responseBody).toContain("status");
  });

  it("refuses with 413 a query answering more than the limit, after the key check", async () => {
    const product = reference.store.events.find((e) => (e.epcList ?? []).length > 0)!.epcList![0]!;
    expect(await get("/events", [["X-API-Key", KEY]])).toBe(413);
    expect(await get("/events", [])).toBe(401);
    const narrow = `/events?MATCH_anyEPC=${encodeURIComponent(product)}&LT_eventTime=1971-01-01T00:00:00Z`;
    expect(await get(narrow, [["X-API-Key", KEY]])).toBe(200);
    const seqs = exchanges.map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });
});
