import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, HttpError } from "../../src/http/index.ts";
import { sendJson, startServer, type TestServer } from "./servers.ts";

let server: TestServer;
let client: HttpClient;

function redirect(res: import("node:http").ServerResponse, status: number, location: string): void {
  res.writeHead(status, { location });
  res.end();
}

beforeAll(async () => {
  server = await startServer((req, res) => {
    const path = req.url ?? "";
    const chain = /^\/chain\/(\d+)$/.exec(path);
    if (path === "/a") redirect(res, 301, "/b");
    else if (path === "/b") redirect(res, 307, "c#fragment");
    else if (path === "/c") sendJson(res, 200, { at: "c" });
    else if (path === "/x") redirect(res, 302, "/y");
    else if (path === "/y") redirect(res, 302, "/x");
    else if (path === "/self") redirect(res, 308, "/self");
    else if (chain) redirect(res, 302, `/chain/${Number(chain[1]) + 1}`);
    else if (path === "/ftp") redirect(res, 302, "ftp://files.example/x");
    else sendJson(res, 404, {});
  });
  client = new HttpClient({ allowedOrigins: [] });
});

afterAll(async () => {
  await client.close();
  await server.close();
});

async function failure(url: string, maxRedirects?: number): Promise<HttpError> {
  const error = await client.get(url, { redirect: "follow", maxRedirects }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe("redirects", () => {
  it("returns a redirect as it is by default", async () => {
    const result = await client.get(`${server.origin}/a`);
    expect(result.status).toBe(301);
    expect(result.headers["location"]).toBe("/b");
    expect(result.exchanges).toHaveLength(1);
  });

  it("follows a chain, one exchange per hop, resolving relative locations", async () => {
    const result = await client.get(`${server.origin}/a`, { redirect: "follow" });
    expect(result.status).toBe(200);
    expect(result.url).toBe(`${server.origin}/c`);
    expect(result.exchanges.map((exchange) => exchange.response?.status)).toEqual([301, 307, 200]);
    expect(result.exchange).toBe(result.exchanges[2]);
  });

  it("detects a loop between two URLs", async () => {
    const error = await failure(`${server.origin}/x`);
    expect(error.code).toBe("redirect-loop");
    expect(error.exchanges).toHaveLength(2);
    expect(error.message).toMatch(/loop/);
  });

  it("detects a URL redirecting to itself", async () => {
    expect((await failure(`${server.origin}/self`)).code).toBe("redirect-loop");
  });

  it("gives up after maxRedirects", async () => {
    const error = await failure(`${server.origin}/chain/0`, 3);
    expect(error.code).toBe("too-many-redirects");
    expect(error.exchanges).toHaveLength(4);
  });

  it("refuses a Location that is not http or https", async () => {
    const error = await failure(`${server.origin}/ftp`);
    expect(error.code).toBe("invalid-url");
    expect(error.exchanges).toHaveLength(2);
  });
});
