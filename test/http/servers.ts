import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createTcpServer } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { HttpClient, type HttpClientOptions } from "../../src/http/index.ts";

export interface ReceivedRequest {
  url: string;
  headers: IncomingMessage["headers"];
  rawHeaderNames: string[];
}

export interface TestServer {
  /** http://127.0.0.1:<port>, without a trailing slash. */
  origin: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A node:http server on 127.0.0.1 with a free port, recording what each request carried. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    received.push({
      url: req.url ?? "",
      headers: req.headers,
      rawHeaderNames: req.rawHeaders.filter((_, index) => index % 2 === 0),
    });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A test server and a client that asks it. */
export interface Serving {
  server: TestServer;
  client: HttpClient;
}

/**
 * A server with `handler`, and a client made with `clientOptions` of the server's origin, started before the tests
 * of the file or describe block this is called in and closed after them. Read the fields inside a test.
 */
export function servingForTests(
  handler: Handler,
  clientOptions: (origin: string) => HttpClientOptions,
): Serving {
  const serving = {} as Serving;
  beforeAll(async () => {
    serving.server = await startServer(handler);
    serving.client = new HttpClient(clientOptions(serving.server.origin));
  });
  afterAll(async () => {
    await serving.client?.close();
    await serving.server?.close();
  });
  return serving;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(value));
}

/**
 * A port on 127.0.0.1 where every connection is reset as soon as it is made: a request to it fails at the
 * network level, and since the port stays held until close, no other process can be answering on it (as it could
 * on a port just closed).
 */
export async function startResetting(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createTcpServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
