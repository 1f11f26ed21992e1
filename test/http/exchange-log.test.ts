// A request's result carries each of its exchanges, hop by hop, and the client's log keeps them, whatever other
// request runs beside it; a URL the client refuses to ask is recorded too.
import { afterAll, beforeAll, expect, test } from "vitest";
import { HttpError } from "../../src/http/errors.ts";
import { HttpClient } from "../../src/http/index.ts";
import type { ExchangeRecord } from "../../src/http/record.ts";
import { sendJson, startServer, type TestServer } from "./servers.ts";

let server: TestServer;
let client: HttpClient;

beforeAll(async () => {
  // Answers /slow/* after the others, so that two requests interleave; /hop redirects to /one.
  server = await startServer((req, res) => {
    if (req.url === "/hop") {
      res.writeHead(302, { location: "/one" });
      res.end();
      return;
    }
    const wait = req.url?.startsWith("/slow/") ? 60 : 0;
    setTimeout(() => sendJson(res, 200, { path: req.url }), wait);
  });
  client = new HttpClient({ allowedOrigins: [] });
});

afterAll(async () => {
  await client.close();
  await server.close();
});

const pathOf = (x: ExchangeRecord | undefined) =>
  x === undefined ? undefined : new URL(x.request.url).pathname;

test("a request's result holds each of its exchanges, hop by hop as recorded, and of no other's", async () => {
  const [result] = await Promise.all([
    client.get(`${server.origin}/hop`, { redirect: "follow" }),
    client.get(`${server.origin}/slow/theirs`),
  ]);
  expect(result.exchanges.map(pathOf)).toEqual(["/hop", "/one"]);
  expect(client.log).toEqual(expect.arrayContaining(result.exchanges));
});

test("a URL the client refuses to ask is recorded too, with no answer", async () => {
  const refused = await client.get("ftp://127.0.0.1/file").catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(HttpError);
  expect((refused as HttpError).message).toMatch(/not an http or https URL/);
  const exchange = (refused as HttpError).exchange;
  expect(exchange.response).toBeUndefined();
  expect(client.log).toContain(exchange);
});
