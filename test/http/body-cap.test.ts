import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRUNCATED_KEPT_BYTES } from "../../src/http/body.ts";
import { HttpClient, JsonBodyError } from "../../src/http/index.ts";
import { startServer, type TestServer } from "./servers.ts";

const CAP = 64 * 1024;
let server: TestServer;
let client: HttpClient;

beforeAll(async () => {
  server = await startServer((req, res) => {
    const chunk = Buffer.alloc(16 * 1024, "a");
    if (req.url === "/large") {
      res.writeHead(200, { "content-type": "application/json" });
      for (let i = 0; i < 320; i++) res.write(chunk);
      res.end();
    } else if (req.url === "/endless") {
      res.writeHead(200, { "content-type": "text/plain" });
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    } else if (req.url === "/exact") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(Buffer.alloc(CAP, "b"));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  client = new HttpClient({ allowedOrigins: [], maxBodyBytes: CAP });
});

afterAll(async () => {
  await client.close();
  await server.close();
});

describe("the body cap", () => {
  it("cuts a large body at the cap and marks it truncated", async () => {
    const result = await client.get(`${server.origin}/large`);
    expect(result.status).toBe(200);
    expect(result.truncated).toBe(true);
    expect(result.body.length).toBeLessThanOrEqual(CAP);
    expect(result.exchange.response?.truncated).toBe(true);
    expect(result.exchange.response?.bodyBytes).toBeLessThanOrEqual(CAP);
    expect(result.exchange.response?.bodyExcerpt.length).toBe(2000);
    expect(() => result.json()).toThrow(JsonBodyError);
  });

  it("stops reading a body that never ends", async () => {
    const result = await client.get(`${server.origin}/endless`);
    expect(result.truncated).toBe(true);
    expect(result.body.length).toBeLessThanOrEqual(CAP);
  });

  it("keeps only the start of a body cut at a larger cap, for the evidence, and says how much arrived", async () => {
    const larger = new HttpClient({ allowedOrigins: [], maxBodyBytes: 4 * CAP });
    try {
      const result = await larger.get(`${server.origin}/large`);
      expect(result.truncated).toBe(true);
      expect(result.body.length).toBe(TRUNCATED_KEPT_BYTES);
      expect(result.exchange.response?.bodyBytes).toBe(4 * CAP);
      expect(() => result.json()).toThrow(`cut at ${4 * CAP} bytes`);
    } finally {
      await larger.close();
    }
  });

  it("keeps a body of exactly the cap whole", async () => {
    const result = await client.get(`${server.origin}/exact`);
    expect(result.truncated).toBe(false);
    expect(result.body.length).toBe(CAP);
    expect(result.text).toBe("b".repeat(CAP));
  });
});
