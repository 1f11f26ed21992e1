import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, HttpError } from "../../src/http/index.ts";
import { startServer, type TestServer } from "./servers.ts";

let silent: TestServer;
let trickle: TestServer;
let client: HttpClient;
const TIMEOUT_MS = 1500;

beforeAll(async () => {
  silent = await startServer(() => undefined);
  trickle = await startServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write("[");
    const timer = setInterval(() => res.write(" "), 200);
    req.socket.on("close", () => clearInterval(timer));
  });
  // Short, since each test waits it out, yet well past a stall of the test's process on a loaded machine: the
  // trickling body's status line must arrive, and the silent server must have been asked, before it ends.
  client = new HttpClient({ allowedOrigins: [], timeoutMs: TIMEOUT_MS });
});

afterAll(async () => {
  await client.close();
  await Promise.all([silent.close(), trickle.close()]);
});

async function failure(url: string): Promise<HttpError> {
  const outcome = await client.get(url).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(HttpError);
  return outcome as HttpError;
}

describe("the timeout covers the whole exchange", () => {
  it("ends a request to a server that never answers", async () => {
    const error = await failure(`${silent.origin}/events`);
    expect(error.code).toBe("timeout");
    expect(error.exchange.error).toContain(`within ${TIMEOUT_MS} ms`);
    expect(error.exchange.response).toBeUndefined();
    expect(client.log).toContain(error.exchange);
  });

  it("ends a body that trickles a byte at a time, keeping what arrived as evidence", async () => {
    const error = await failure(`${trickle.origin}/events`);
    expect(error.code).toBe("timeout");
    expect(error.exchange.response?.status).toBe(200);
    expect(error.exchange.response?.truncated).toBe(true);
  });

  it("does not retry a timeout", async () => {
    const before = silent.received.length;
    await failure(`${silent.origin}/again`);
    expect(silent.received.length - before).toBe(1);
  });
});
