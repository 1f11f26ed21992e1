// Loading by capture: batches that keep to the limits, limits learnt from a 413 when none were announced, a job
// followed until it stops running, and a failed job reported in one sentence.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import { HttpClient } from "../../src/http/index.ts";
import type { EpcisEvent } from "../../src/model/index.ts";
import { limitsAfter413, limitsFrom, loadByCapture, nextBatchSize } from "../../src/target/capture.ts";

describe("the batching rules", () => {
  it("reads the limit headers, ignoring values that are not positive whole numbers", () => {
    expect(
      limitsFrom({ "gs1-epcis-capture-limit": "7", "gs1-epcis-capture-file-size-limit": "900" }),
    ).toEqual({
      events: 7,
      bytes: 900,
    });
    expect(
      limitsFrom({ "gs1-epcis-capture-limit": "0", "gs1-epcis-capture-file-size-limit": "1.5" }),
    ).toEqual({});
  });

  it("fills a batch up to the event limit and the byte limit, counting the commas between events", () => {
    const sizes = [10, 10, 10, 10, 10];
    expect(nextBatchSize(sizes, 0, { events: 3 }, 20)).toBe(3);
    expect(nextBatchSize(sizes, 3, { events: 3 }, 20)).toBe(2);
    // 20 + 10 + 11 + 11 = 52 fits 52; a fourth would make 63.
    expect(nextBatchSize(sizes, 0, { bytes: 52 }, 20)).toBe(3);
    expect(nextBatchSize(sizes, 0, { bytes: 29 }, 20)).toBeUndefined();
  });

  it("after a 413 keeps what the answer names when tighter, else halves, and gives up on a single event", () => {
    expect(limitsAfter413({}, { events: 4 }, 10, 1000)).toEqual({ events: 4 });
    expect(limitsAfter413({}, { bytes: 500 }, 10, 1000)).toEqual({ bytes: 500 });
    expect(limitsAfter413({ events: 10 }, { events: 10 }, 10, 1000)).toEqual({ events: 5 });
    expect(limitsAfter413({}, {}, 1, 1000)).toBeUndefined();
  });
});

describe("loadByCapture", () => {
  let server: Server | undefined;
  let client: HttpClient | undefined;
  afterEach(async () => {
    await client?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  /**
   * A capture target that announces nothing on OPTIONS, refuses with 413 a request over `limit` events (naming
   * the limit when `names`), and whose jobs run for one poll before they finish with `errors`.
   */
  async function target(limit: number, names: boolean, errors: unknown[] = []) {
    const held: EpcisEvent[] = [];
    const sizes: number[] = [];
    const polls = new Map<string, number>();
    const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(value));
      };
      if (req.url === "/events") {
        return json(200, {
          type: "EPCISQueryDocument",
          epcisBody: { queryResults: { resultsBody: { eventList: held } } },
        });
      }
      if (req.url === "/capture" && req.method === "POST") {
        const events = (JSON.parse(body) as { epcisBody: { eventList: EpcisEvent[] } }).epcisBody.eventList;
        if (events.length > limit) {
          return json(413, { title: "too many" }, names ? { "gs1-epcis-capture-limit": String(limit) } : {});
        }
        sizes.push(events.length);
        if (errors.length === 0) held.push(...events);
        const id = `job${sizes.length}`;
        polls.set(id, 0);
        res.writeHead(202, { location: `/capture/${id}` });
        return res.end();
      }
      const job = /^\/capture\/(job\d+)$/.exec(req.url ?? "")?.[1];
      if (job !== undefined && polls.has(job)) {
        const seen = polls.get(job)!;
        polls.set(job, seen + 1);
        return json(200, { captureID: job, running: seen === 0, success: errors.length === 0, errors });
      }
      res.writeHead(404);
      res.end();
    };
    server = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => {
        body += c;
      });
      req.on("end", () => handle(req, res, body));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new HttpClient({ allowedOrigins: [base] });
    return { base, held, sizes, polls };
  }

  const events = generateDataset({ seed: 2, events: 11 }).events;

  it("learns the limit a 413 names and captures every event once, each job followed to its end", async () => {
    const t = await target(4, true);
    const outcome = await loadByCapture(client!, { eventsBase: t.base, events });
    expect(outcome).toMatchObject({
      ok: true,
      captured: 11,
      alreadyHeld: 0,
      requests: 3,
      limits: { events: 4 },
    });
    expect(t.sizes).toEqual([4, 4, 3]);
    expect(t.held.map((e) => e.eventID)).toEqual(events.map((e) => e.eventID));
    expect([...t.polls.values()].every((n) => n === 2)).toBe(true);
  });

  it("halves the batch when a 413 names no limit", async () => {
    const t = await target(3, false);
    const outcome = await loadByCapture(client!, { eventsBase: t.base, events });
    expect(outcome.ok).toBe(true);
    expect(t.held).toHaveLength(11);
    expect(Math.max(...t.sizes)).toBeLessThanOrEqual(3);
  });

  it("sends only the events the target does not hold yet", async () => {
    const t = await target(100, true);
    t.held.push(...events.slice(0, 6));
    const outcome = await loadByCapture(client!, { eventsBase: t.base, events });
    expect(outcome).toMatchObject({ ok: true, captured: 5, alreadyHeld: 6 });
    expect(t.sizes).toEqual([5]);
  });

  it("reports a failed capture job with the first error it names", async () => {
    const t = await target(100, true, [{ title: "Bad event", detail: "eventTime is missing" }]);
    const outcome = await loadByCapture(client!, { eventsBase: t.base, events });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.reason).toMatch(
      /capture job .*job1 failed \(1 error\(s\), the first: Bad event — eventTime is missing\)/,
    );
  });
});
