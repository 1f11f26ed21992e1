// The recording sender: every request kept as it arrived (the request target undecoded, each header line), with
// the answer; and the narrow-only refusal, which comes after the key check and spares a narrow enough query and
// any query for one EPC, lot or serial (narrow-windows refuses that too).
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import type { RecordedExchange } from "../../src/http/recorded.ts";
import { runOracle } from "../../src/model/index.ts";
import { startReference } from "../../src/reference/index.ts";
import { oneIdentifier } from "../../src/reference/recording.ts";

const KEY = "recording-key";
const exchanges: RecordedExchange[] = [];
let reference: Awaited<ReturnType<typeof startReference>>;
let windowsOnly: Awaited<ReturnType<typeof startReference>>;

beforeAll(async () => {
  const dataset = generateDataset({ seed: 1, events: 40 });
  reference = await startReference({
    dataset,
    apiKeys: [KEY],
    recording: { record: (x) => exchanges.push(x), refuseOver: 3 },
  });
  windowsOnly = await startReference({
    dataset,
    apiKeys: [KEY],
    recording: { record: () => {}, refuseOver: 3, refuseOne: true },
  });
});

afterAll(async () => {
  await reference?.close();
  await windowsOnly?.close();
});

/** One GET with the request target and header lines exactly as given (fetch would normalize them). */
function get(target: string, headers: [string, string][], at = reference): Promise<number> {
  const url = new URL(at.eventsBase);
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

describe("a query for one EPC, lot or serial", () => {
  const ITEM = "https://id.gs1.org/01/09506000134352/21/A1";
  const LOT = "https://id.gs1.org/01/09506000134352/10/L1";

  it("is one identifier in any of its forms, with any other parameter, and not a product or two identifiers", () => {
    expect(oneIdentifier({ MATCH_anyEPC: [ITEM, "urn:epc:id:sgtin:9506000.013435.A1"] })).toBe(true);
    expect(oneIdentifier({ MATCH_anyEPCClass: [LOT], GE_eventTime: "2024-01-01T00:00:00Z" })).toBe(true);
    expect(oneIdentifier({ MATCH_anyEPC: ["https://id.gs1.org/00/195060000000000012"] })).toBe(true);
    expect(oneIdentifier({ MATCH_anyEPCClass: ["https://id.gs1.org/01/09506000134352"] })).toBe(false);
    expect(oneIdentifier({ MATCH_anyEPCClass: ["urn:epc:idpat:sgtin:9506000.013435.*"] })).toBe(false);
    expect(oneIdentifier({ MATCH_anyEPC: [ITEM], MATCH_anyEPCClass: [LOT] })).toBe(false);
    expect(oneIdentifier({ EQ_bizStep: ["shipping"] })).toBe(false);
  });

  it("is answered under narrow-only however many events it holds, and refused under narrow-windows", async () => {
    // An SSCC, lot or item the oracle finds in more events than the limit: the chains aggregate and ship them.
    const candidates = reference.store.events.flatMap((e) => [
      ...(e.epcList ?? []),
      ...(typeof e.parentID === "string" ? [e.parentID] : []),
    ]);
    const busy = candidates.find(
      (id) => runOracle(reference.store.events, { MATCH_anyEPC: [id] }).length > 3,
    );
    expect(busy, "an EPC with more events than the limit").toBeDefined();
    const target = `/events?MATCH_anyEPC=${encodeURIComponent(busy!)}`;
    expect(await get(target, [["X-API-Key", KEY]])).toBe(200);
    expect(await get(target, [["X-API-Key", KEY]], windowsOnly)).toBe(413);
  });
});
