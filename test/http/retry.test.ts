import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, HttpError, parseRetryAfter } from "../../src/http/index.ts";
import { sendJson, startServer, type TestServer } from "./servers.ts";

let server: TestServer;
let client: HttpClient;
const hits = new Map<string, number>();

/** Each path answers with `script` in turn, then 200; a "drop" entry destroys the socket without an answer. */
const scripts: Record<string, (number | "drop")[]> = {
  "/429-then-ok": [429],
  "/503-then-ok": [503],
  "/429-date": [429],
  "/429-always": [429, 429, 429, 429, 429, 429],
  "/429-no-header": [429],
  "/429-long": [429],
  "/429-past-deadline": [429],
  "/drop-once": ["drop"],
  "/drop-always": ["drop", "drop", "drop", "drop"],
};

const retryAfter: Record<string, string> = {
  "/429-then-ok": "0",
  "/503-then-ok": "1",
  "/429-date": new Date(Date.now() - 60_000).toUTCString(),
  "/429-always": "0",
  "/429-long": "3600",
  "/429-past-deadline": "30",
};

beforeAll(async () => {
  server = await startServer((req, res) => {
    const path = req.url ?? "";
    const seen = hits.get(path) ?? 0;
    hits.set(path, seen + 1);
    const step = scripts[path]?.[seen];
    if (step === "drop") {
      req.socket.destroy();
      return;
    }
    if (step !== undefined) {
      const header = retryAfter[path];
      sendJson(res, step, { busy: true }, header === undefined ? {} : { "retry-after": header });
      return;
    }
    sendJson(res, 200, { ok: true });
  });
  client = new HttpClient({ allowedOrigins: [], maxRetryAfterMs: 50 });
});

afterAll(async () => {
  await client.close();
  await server.close();
});

describe("429 and 503 with Retry-After", () => {
  it.each([
    ["/429-then-ok", 429],
    ["/503-then-ok", 503],
    ["/429-date", 429],
    ["/429-long", 429],
  ])("retries %s after waiting", async (path, firstStatus) => {
    const logged = client.log.length;
    const result = await client.get(`${server.origin}${path}`);
    expect(result.status).toBe(200);
    expect(hits.get(path)).toBe(2);
    expect(client.log.slice(logged).map((exchange) => exchange.response?.status)).toEqual([firstStatus, 200]);
  });

  it("gives up after three retries and returns the last answer", async () => {
    const result = await client.get(`${server.origin}/429-always`);
    expect(result.status).toBe(429);
    expect(hits.get("/429-always")).toBe(4);
  });

  it("returns a 429 as it stands once its wait would end past the run's retry deadline", async () => {
    // A deadline already behind us: no wait fits, so the first answer is the one returned.
    const budgeted = new HttpClient({ allowedOrigins: [], retryDeadline: Date.now() - 1 });
    try {
      const result = await budgeted.get(`${server.origin}/429-past-deadline`);
      expect(result.status).toBe(429);
      expect(hits.get("/429-past-deadline")).toBe(1);
    } finally {
      await budgeted.close();
    }
  });

  it("returns a 429 without Retry-After at once", async () => {
    const result = await client.get(`${server.origin}/429-no-header`);
    expect(result.status).toBe(429);
    expect(hits.get("/429-no-header")).toBe(1);
  });
});

describe("network errors", () => {
  it("retries a dropped connection and succeeds", async () => {
    const result = await client.get(`${server.origin}/drop-once`);
    expect(result.status).toBe(200);
    expect(hits.get("/drop-once")).toBe(2);
  });

  it("throws a network HttpError after the retries, each attempt in the log", async () => {
    const before = client.requestCount;
    const error = await client.get(`${server.origin}/drop-always`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).code).toBe("network");
    expect((error as HttpError).exchange.error).toMatch(/check that the target is running/);
    expect(hits.get("/drop-always")).toBe(3);
    expect(client.requestCount - before).toBe(3);
    expect(client.log.slice(-3).every((exchange) => exchange.error !== undefined)).toBe(true);
  });

  it("reports a refused connection as a network error", async () => {
    // Port 1 is privileged and outside the ephemeral range: no process is handed it, as a just-closed port may be.
    const quick = new HttpClient({ allowedOrigins: [], retries: 0 });
    const error = await quick.get("http://127.0.0.1:1/events").catch((e: unknown) => e);
    await quick.close();
    expect((error as HttpError).code).toBe("network");
    expect((error as HttpError).message).toMatch(/ECONNREFUSED/);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2024-05-01T12:00:00Z");
  it("reads delay-seconds", () => {
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter(" 120 ", now)).toBe(120_000);
  });
  it("reads an HTTP-date, a past one meaning no wait", () => {
    expect(parseRetryAfter("Wed, 01 May 2024 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Wed, 01 May 2024 11:00:00 GMT", now)).toBe(0);
  });
  it("rejects anything else", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter("-1", now)).toBeUndefined();
    expect(parseRetryAfter("1.5", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });
});
