// An HTTP proxy that waits a fixed time before it forwards each request: a sender far away, for timing what
// network latency costs a run. It passes the method, path, headers and body through, and the status, headers and
// body back, leaving out only the headers that belong to one connection; it counts the requests it received. A
// test can have it answer some requests itself.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface DelayingProxy {
  /** Where clients reach the proxy, e.g. http://127.0.0.1:40123. */
  origin: string;
  /** Requests received so far. */
  readonly requests: number;
  /** Requests the upstream server could not be asked or could not answer in full. */
  readonly failed: number;
  close(): Promise<void>;
}

export interface DelayingProxyOptions {
  /**
   * The port of the server requests are forwarded to, on 127.0.0.1; or a function asked for it at each request, for
   * a server that starts after the proxy (one that is to advertise the proxy's origin).
   */
  upstreamPort: number | (() => number);
  delayMs: number;
  /** The port to listen on, on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /**
   * Asked of each request before it is forwarded: true when it answered the request itself, which is then not
   * forwarded (an upstream that misbehaves now and then, for a test).
   */
  answer?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
}

/** Hop-by-hop headers (RFC 9110, 7.6.1): each side of the proxy has its own connection. */
const CONNECTION_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "upgrade",
]);

/** Raw headers, names as written and repeated ones kept, without the connection's own. */
function passedHeaders(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (!CONNECTION_HEADERS.has(name.toLowerCase())) out.push(name, raw[i + 1] as string);
  }
  return out;
}

export async function startDelayingProxy(opts: DelayingProxyOptions): Promise<DelayingProxy> {
  const agent = new http.Agent({ keepAlive: true });
  let requests = 0;
  let failed = 0;

  const forward = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    if (res.destroyed) return;
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: typeof opts.upstreamPort === "function" ? opts.upstreamPort() : opts.upstreamPort,
        method: req.method,
        path: req.url,
        headers: passedHeaders(req.rawHeaders),
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, passedHeaders(answer.rawHeaders));
        answer.pipe(res);
        answer.on("error", () => {
          failed++;
          res.destroy();
        });
      },
    );
    upstream.on("error", () => {
      failed++;
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end();
    });
    // A client that gives up takes its upstream request with it.
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };

  const server = http.createServer((req, res) => {
    requests++;
    if (opts.answer?.(req, res) === true) return;
    setTimeout(() => forward(req, res), opts.delayMs);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    get failed() {
      return failed;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}
