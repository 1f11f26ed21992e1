// The exchanges a client made since a mark: what a check made while it ran, so that its pass can carry them.
import { afterAll, beforeAll, expect, test } from "vitest";
import { HttpClient } from "../../src/http/index.ts";
import { sendJson, startServer, type TestServer } from "./servers.ts";

let server: TestServer;
let client: HttpClient;

beforeAll(async () => {
  server = await startServer((req, res) => sendJson(res, 200, { path: req.url }));
  client = new HttpClient({ allowedOrigins: [] });
});

afterAll(async () => {
  await client.close();
  await server.close();
});

test("exchangesSince returns the exchanges after the mark, oldest first, and none for a fresh mark", async () => {
  await client.get(`${server.origin}/before`);
  const mark = client.exchangeMark;
  expect(client.exchangesSince(mark)).toEqual([]);
  await client.get(`${server.origin}/one`);
  await client.get(`${server.origin}/two`);
  expect(client.exchangesSince(mark).map((x) => new URL(x.request.url).pathname)).toEqual(["/one", "/two"]);
  expect(client.exchangesSince(client.exchangeMark)).toEqual([]);
});
