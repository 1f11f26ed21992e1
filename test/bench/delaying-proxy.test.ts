import http from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DelayingProxy, startDelayingProxy } from "../../bench/delaying-proxy.ts";
import { testsSummary } from "../../bench/npm-test.ts";

let upstream: http.Server;
let proxy: DelayingProxy;

// Answers with what it received, under a status and headers of its own, one of them repeated.
beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      res.writeHead(207, ["Link", "</a>; rel=next", "Link", "</b>; rel=prev", "X-Echo", "yes"]);
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  proxy = await startDelayingProxy({ upstreamPort: (upstream.address() as AddressInfo).port, delayMs: 50 });
});
afterAll(async () => {
  await proxy.close();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

describe("startDelayingProxy", () => {
  it("passes the request through and the answer back, after the delay, and counts the request", async () => {
    const before = proxy.requests;
    const started = performance.now();
    const res = await request(`${proxy.origin}/events?EQ_bizStep=shipping&x=%2F`, {
      method: "POST",
      headers: { "x-api-key": "k", "content-type": "text/plain" },
      body: "hello",
    });
    const echoed = (await res.body.json()) as {
      method: string;
      url: string;
      headers: Record<string, string>;
      body: string;
    };
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(res.statusCode).toBe(207);
    expect(res.headers.link).toEqual(["</a>; rel=next", "</b>; rel=prev"]);
    expect(res.headers["x-echo"]).toBe("yes");
    expect(echoed.method).toBe("POST");
    expect(echoed.url).toBe("/events?EQ_bizStep=shipping&x=%2F");
    expect(echoed.headers["x-api-key"]).toBe("k");
    expect(echoed.headers.host).toBe(new URL(proxy.origin).host);
    expect(echoed.body).toBe("hello");
    expect(proxy.requests - before).toBe(1);
    expect(proxy.failed).toBe(0);
  });

  it("asks for the upstream's port at each request when given a function, for a server started after it", async () => {
    let port = 0;
    const late = await startDelayingProxy({ upstreamPort: () => port, delayMs: 0 });
    try {
      port = (upstream.address() as AddressInfo).port;
      const res = await request(`${late.origin}/later`);
      expect(res.statusCode).toBe(207);
      expect(((await res.body.json()) as { url: string }).url).toBe("/later");
      expect(late.failed).toBe(0);
    } finally {
      await late.close();
    }
  });
});

describe("testsSummary", () => {
  it("finds vitest's line of test counts, colour codes and indentation taken off", () => {
    const output = " Test Files  3 passed (3)\n\u001b[2m      Tests \u001b[22m 41 passed\u001b[39m (41)\n";
    expect(testsSummary(output)).toBe("Tests  41 passed (41)");
    expect(testsSummary("nothing here")).toBeUndefined();
  });
});
