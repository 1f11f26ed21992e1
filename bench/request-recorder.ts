// Records the requests an in-process HTTP server receives, through node's diagnostics channel, so that the
// reference sender can be counted and replayed without a hook of its own.
import diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as they arrived. */
  path: string;
  headers: Record<string, string>;
  port: number;
}

const CHANNEL = "http.server.request.start";
/** Headers that belong to one connection, not to the request: undici sets its own. */
const CONNECTION_HEADERS = new Set([
  "host",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
]);

export class RequestRecorder {
  readonly requests: RecordedRequest[] = [];
  private readonly ports: ReadonlySet<number>;
  private readonly listener = (message: unknown): void => {
    const { request, server } = message as { request: IncomingMessage; server: Server };
    const port = (server.address() as AddressInfo | null)?.port;
    if (port === undefined || !this.ports.has(port)) return;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && !CONNECTION_HEADERS.has(name)) {
        headers[name] = Array.isArray(value) ? value.join(", ") : value;
      }
    }
    this.requests.push({ method: request.method ?? "GET", path: request.url ?? "/", headers, port });
  };

  /** Starts recording requests to servers listening on `ports`. */
  constructor(ports: readonly number[]) {
    this.ports = new Set(ports);
    diagnosticsChannel.subscribe(CHANNEL, this.listener);
  }

  stop(): void {
    diagnosticsChannel.unsubscribe(CHANNEL, this.listener);
  }
}
