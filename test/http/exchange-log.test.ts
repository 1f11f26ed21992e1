// Each exchange a client records is told to the onExchange of the request that made it, and the harness gives it to
// the check whose view of the run's context asked for it (run-scope.ts): checks run several at a time, so the
// proof a pass carries must be one of its own requests.
import { afterAll, beforeAll, expect, test } from "vitest";
import type { RunContext } from "../../src/engine/context.ts";
import { type CheckExchanges, checkContext, scopeOf } from "../../src/engine/run-scope.ts";
import { HttpClient } from "../../src/http/index.ts";
import type { ExchangeRecord } from "../../src/http/record.ts";
import { runClient, targetClient } from "../../src/target/client.ts";
import { testRunContext } from "../support/run-context.ts";
import { sendJson, startServer, type TestServer } from "./servers.ts";

let server: TestServer;
let client: HttpClient;
let run: RunContext;

beforeAll(async () => {
  // Answers /slow/* after the others, so that the requests of two checks interleave; /hop redirects to /one.
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
  run = testRunContext(`${server.origin}/epcis`, `${server.origin}/dl`);
});

afterAll(async () => {
  await client.close();
  await runClient(run).close();
  await server.close();
});

const pathOf = (x: ExchangeRecord | undefined) =>
  x === undefined ? undefined : new URL(x.request.url).pathname;

test("a request's onExchange is told of each of its exchanges, hop by hop as recorded, and of no other's", async () => {
  const mine: ExchangeRecord[] = [];
  const [result] = await Promise.all([
    client.get(`${server.origin}/hop`, { redirect: "follow", onExchange: (x) => mine.push(x) }),
    client.get(`${server.origin}/slow/theirs`),
  ]);
  expect(mine.map(pathOf)).toEqual(["/hop", "/one"]);
  expect(mine).toEqual(result.exchanges);
  expect(client.log).toEqual(expect.arrayContaining(mine));
});

test("a URL the client refuses to ask is told to the request's onExchange too", async () => {
  const mine: ExchangeRecord[] = [];
  await expect(client.get("ftp://127.0.0.1/file", { onExchange: (x) => mine.push(x) })).rejects.toThrow(
    /not an http or https URL/,
  );
  expect(mine).toHaveLength(1);
  expect(mine[0]?.response).toBeUndefined();
});

test("two checks at once each keep the last answered exchange of their own work", async () => {
  const first: CheckExchanges = {};
  const second: CheckExchanges = {};
  const a = checkContext(run, first);
  const b = checkContext(run, second);
  await Promise.all([
    (async () => {
      await targetClient(a).get(`${server.origin}/fast/a1`);
      // A request started by a promise the check made is the check's too: it asks through the check's view.
      await Promise.resolve().then(() => targetClient(a).get(`${server.origin}/slow/a2`));
    })(),
    (async () => {
      await targetClient(b).get(`${server.origin}/slow/b1`);
      await targetClient(b).get(`${server.origin}/fast/b2`);
    })(),
  ]);
  expect(pathOf(first.lastAnswered)).toBe("/slow/a2");
  expect(pathOf(second.lastAnswered)).toBe("/fast/b2");
});

test("a check's view reads the run's context and shares its scope and client", () => {
  const view = checkContext(run, {});
  expect(view.eventsBase).toBe(run.eventsBase);
  expect(view.seed).toBe(run.seed);
  expect(scopeOf(view)).toBe(scopeOf(run));
  // A view of a view is still the run's.
  expect(scopeOf(checkContext(view, {}))).toBe(scopeOf(run));
  expect(runClient(view)).toBe(runClient(run));
  expect(targetClient(view)).not.toBe(runClient(run));
});

test("an exchange outside any check, or one that got no answer, is given to none", async () => {
  const record: CheckExchanges = {};
  const view = checkContext(run, record);
  await targetClient(run).get(`${server.origin}/outside`);
  await targetClient(view)
    .get("http://127.0.0.1:1/unanswered")
    .catch(() => undefined);
  expect(record.lastAnswered).toBeUndefined();
});
