// Each exchange a client records is told to its onExchange and to the request's own, and the harness gives it to
// the check whose view of the run's context asked for it (run-scope.ts): checks run several at a time, so the
// proof a pass carries must be one of its own requests.
import { afterAll, beforeAll, expect, test } from "vitest";
import type { RunContext } from "../../src/harness/context.ts";
import { type CheckExchanges, checkContext, scopeOf } from "../../src/harness/run-scope.ts";
import { runClient, targetClient } from "../../src/harness/target.ts";
import type { ExchangeRecord } from "../../src/harness/types.ts";
import { HttpClient } from "../../src/http/index.ts";
import { testRunContext } from "../support/run-context.ts";
import { sendJson, startServer, type TestServer } from "./servers.ts";

let server: TestServer;
let told: ExchangeRecord[];
let client: HttpClient;
let run: RunContext;

beforeAll(async () => {
  // Answers /slow/* after the others, so that the requests of two checks interleave.
  server = await startServer((req, res) => {
    const wait = req.url?.startsWith("/slow/") ? 60 : 0;
    setTimeout(() => sendJson(res, 200, { path: req.url }), wait);
  });
  told = [];
  client = new HttpClient({ allowedOrigins: [], onExchange: (exchange) => told.push(exchange) });
  run = testRunContext(`${server.origin}/epcis`, `${server.origin}/dl`);
});

afterAll(async () => {
  await client.close();
  await runClient(run).close();
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

test("a request's own onExchange is told of its exchanges only, after the client's", async () => {
  const from = told.length;
  const mine: ExchangeRecord[] = [];
  await Promise.all([
    client.get(`${server.origin}/slow/mine`, {
      onExchange: (exchange) => {
        // The client's own listener has already been told of it.
        expect(told).toContain(exchange);
        mine.push(exchange);
      },
    }),
    client.get(`${server.origin}/fast/theirs`),
  ]);
  expect(mine.map(pathOf)).toEqual(["/slow/mine"]);
  expect(told.slice(from).map(pathOf).sort()).toEqual(["/fast/theirs", "/slow/mine"]);
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
