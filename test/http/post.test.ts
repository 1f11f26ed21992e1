// post and options: the guards and evidence of get (key only to an allowed origin and never in the evidence,
// body cap), a body sent as given, no redirect followed, and a POST never sent twice after a network error.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, HttpError } from "../../src/http/index.ts";
import { startServer, type TestServer } from "./servers.ts";

const KEY = "post-secret-991";

let server: TestServer;
const bodies: string[] = [];
const clients: HttpClient[] = [];

function client(allowed: string[], extra: { maxBodyBytes?: number } = {}): HttpClient {
  const made = new HttpClient({ apiKey: KEY, allowedOrigins: allowed, ...extra });
  clients.push(made);
  return made;
}

beforeAll(async () => {
  server = await startServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      bodies.push(body);
      if (req.url === "/drop") {
        req.socket.destroy();
        return;
      }
      if (req.url === "/moved") {
        res.writeHead(307, { location: "/capture" });
        res.end();
        return;
      }
      if (req.method === "OPTIONS") {
        res.writeHead(204, { "gs1-epcis-capture-limit": "7" });
        res.end();
        return;
      }
      res.writeHead(202, { location: "/capture/1", "content-type": "application/json" });
      res.end(JSON.stringify({ echoed: body.length, key: req.headers["x-api-key"] ?? null }));
    });
  });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  bodies.length = 0;
  server.received.length = 0;
});

afterAll(async () => {
  await server.close();
});

describe("HttpClient.post", () => {
  it("sends the body as JSON with the key, and records the exchange with the key redacted", async () => {
    const http = client([server.origin]);
    const result = await http.post(`${server.origin}/capture`, '{"a":1}');
    expect(result.status).toBe(202);
    expect(result.headers["location"]).toBe("/capture/1");
    expect(bodies).toEqual(['{"a":1}']);
    expect(server.received[0]?.headers["content-type"]).toBe("application/json");
    expect(server.received[0]?.headers["x-api-key"]).toBe(KEY);
    expect(result.exchange.request.method).toBe("POST");
    expect(result.exchange.request.headers["X-API-Key"]).toBe("[redacted]");
    expect(result.exchange.response?.bodyExcerpt).not.toContain(KEY);
    expect(result.exchange.curl).toContain("-X 'POST'");
    expect(result.exchange.curl).not.toContain(KEY);
  });

  it("withholds the key from an origin that is not allowed", async () => {
    const http = client(["http://127.0.0.1:1"]);
    const result = await http.post(`${server.origin}/capture`, "{}", { contentType: "application/ld+json" });
    expect(server.received[0]?.headers["x-api-key"]).toBeUndefined();
    expect(server.received[0]?.headers["content-type"]).toBe("application/ld+json");
    expect(result.exchange.keyWithheld).toBe(true);
  });

  it("returns a redirect as it is instead of following it", async () => {
    const http = client([server.origin]);
    const result = await http.post(`${server.origin}/moved`, "{}");
    expect(result.status).toBe(307);
    expect(server.received).toHaveLength(1);
  });

  it("is not sent again after a network error, which a GET is", async () => {
    const http = client([server.origin]);
    const error = await http.post(`${server.origin}/drop`, "{}").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).code).toBe("network");
    expect((error as HttpError).message).toMatch(/^POST /);
    expect(server.received).toHaveLength(1);
    await http.get(`${server.origin}/drop`).catch(() => undefined);
    expect(server.received.length).toBeGreaterThan(2);
  });

  it("cuts the answer at the body cap", async () => {
    const http = client([server.origin], { maxBodyBytes: 5 });
    const result = await http.post(`${server.origin}/capture`, "{}");
    expect(result.truncated).toBe(true);
  });
});

describe("HttpClient.options", () => {
  it("sends OPTIONS with the key and returns the headers the resource announces", async () => {
    const http = client([server.origin]);
    const result = await http.options(`${server.origin}/capture`);
    expect(result.status).toBe(204);
    expect(result.headers["gs1-epcis-capture-limit"]).toBe("7");
    expect(server.received[0]?.headers["x-api-key"]).toBe(KEY);
    expect(result.exchange.request.method).toBe("OPTIONS");
  });
});
