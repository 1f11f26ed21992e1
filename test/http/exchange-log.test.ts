// Each exchange a client records is told to its onExchange, and the harness gives it to the check whose work made
// it (run-scope.ts): checks run several at a time, so the proof a pass carries must be one of its own requests.
import { afterAll, beforeAll, expect, test } from "vitest";
import { type CheckExchanges, noteExchange, withinCheck } from "../../src/harness/run-scope.ts";
import type { ExchangeRecord } from "../../src/harness/types.ts";
import { HttpClient } from "../../src/http/index.ts";
import { sendJson, startServer, type TestServer } from "./servers.ts";

let server: TestServer;
let told: ExchangeRecord[];
let client: HttpClient;

beforeAll(async () => {
  // Answers /slow/* after the others, so that the requests of two checks interleave.
  server = await startServer((req, res) => {
    const wait = req.url?.startsWith("/slow/") ? 60 : 0;
    setTimeout(() => sendJson(res, 200, { path: req.url }), wait);
  });
  told = [];
  client = new HttpClient({
    allowedOrigins: [],
    onExchange: (exchange) => {
      told.push(exchange);
      noteExchange(exchange);
    },
  });
});

afterAll(async () => {
  await client.close();
  await server.close();
});

const pathOf = (x: ExchangeRecord | undefined) =>
  x === undefined ? undefined : new URL(x.request.url).pathname;

test("onExchange is told of every exchange, in the order the client records them", async () => {
  const from = told.length;
  await client.get(`${server.origin}/one`);
  await client.get(`${server.origin}/two`);
  expect(told.slice(from).map(pathOf)).toEqual(["/one", "/two"]);
  expect(told.slice(from)).toEqual(client.log.slice(-2));
});

test("two checks at once each keep the last answered exchange of their own work", async () => {
  const first: CheckExchanges = {};
  const second: CheckExchanges = {};
  await Promise.all([
    withinCheck(first, async () => {
      await client.get(`${server.origin}/fast/a1`);
      // A request started by a promise the check made is the check's too.
      await Promise.resolve().then(() => client.get(`${server.origin}/slow/a2`));
    }),
    withinCheck(second, async () => {
      await client.get(`${server.origin}/slow/b1`);
      await client.get(`${server.origin}/fast/b2`);
    }),
  ]);
  expect(pathOf(first.lastAnswered)).toBe("/slow/a2");
  expect(pathOf(second.lastAnswered)).toBe("/fast/b2");
});

test("an exchange outside any check, or one that got no answer, is given to none", async () => {
  const record: CheckExchanges = {};
  await client.get(`${server.origin}/outside`);
  await withinCheck(record, async () => {
    await client.get("http://127.0.0.1:1/unanswered").catch(() => undefined);
  });
  expect(record.lastAnswered).toBeUndefined();
});
