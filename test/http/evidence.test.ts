import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { curlFor, HttpClient, HttpError, redact } from "../../src/http/index.ts";
import { sendJson, servingForTests } from "./servers.ts";

/** The arguments a POSIX shell hands to curl for this line, with the key variable set to `key`. */
function shellWords(line: string, key: string): string[] {
  const printed = execFileSync("sh", ["-c", line.replace(/^curl /, "printf '%s\\n' ")], {
    env: { PATH: process.env["PATH"] ?? "", TRACECHECK_API_KEY: key },
    encoding: "utf8",
  });
  return printed.split("\n").slice(0, -1);
}

describe("curlFor", () => {
  it("writes the key as the environment variable and single-quotes the URL", () => {
    const line = curlFor(
      "GET",
      "http://127.0.0.1:8080/events?EQ_bizStep=a%7Cb&x=1",
      { Accept: "application/json", "X-API-Key": "[redacted]" },
      true,
    );
    expect(line).toBe(
      `curl -sS -H 'Accept: application/json' -H "X-API-Key: $TRACECHECK_API_KEY" 'http://127.0.0.1:8080/events?EQ_bizStep=a%7Cb&x=1'`,
    );
  });

  it("adds the key header when it is missing from the headers, and names a method other than GET", () => {
    expect(curlFor("head", "http://h/x", {}, true, "x-api-key")).toBe(
      `curl -sS -X 'HEAD' -H "x-api-key: $TRACECHECK_API_KEY" 'http://h/x'`,
    );
  });

  it("leaves the key out when the request went without it", () => {
    expect(curlFor("GET", "http://h/x", { "User-Agent": "tracecheck" }, false)).toBe(
      `curl -sS -H 'User-Agent: tracecheck' 'http://h/x'`,
    );
  });

  it("survives the shell: quotes, dollars and backticks arrive as written", () => {
    const url = 'http://h/events?q=it\'s&v=$HOME&w=`id`&z="x"';
    const line = curlFor("GET", url, { "X-Note": "a 'b' $c" }, true);
    expect(shellWords(line, "the-key")).toEqual([
      "-sS",
      "-H",
      "X-Note: a 'b' $c",
      "-H",
      "X-API-Key: the-key",
      url,
    ]);
  });
});

describe("redact", () => {
  const key = "k/e y+1";
  it("replaces the key as sent, percent-encoded in either case, form-encoded and JSON-escaped", () => {
    const text = `raw ${key} enc ${encodeURIComponent(key)} low k%2fe%20y%2b1 form k%2Fe+y%2B1 json ${JSON.stringify({ key })}`;
    const out = redact(text, key);
    expect(out).toBe(
      'raw [redacted] enc [redacted] low [redacted] form [redacted] json {"key":"[redacted]"}',
    );
  });

  it("changes nothing without a key", () => {
    expect(redact("anything", undefined)).toBe("anything");
    expect(redact("anything", "")).toBe("anything");
  });
});

describe("exchange records", () => {
  const KEY = "evidence-key-0042";
  const keyed = servingForTests(
    (req, res) => {
      if (req.url === "/straddle") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("x".repeat(1995) + KEY + "y".repeat(100));
      } else {
        sendJson(res, 200, { ok: true }, { "x-served": "yes" });
      }
    },
    (origin) => ({ allowedOrigins: [origin], apiKey: KEY, userAgent: "tracecheck-test" }),
  );

  it("records method, URL, redacted headers, response and a curl line", async () => {
    const result = await keyed.client.get(`${keyed.server.origin}/events?GE_eventTime=2024-01-01T00:00:00Z`, {
      accept: "application/ld+json",
    });
    const { exchange } = result;
    expect(exchange.request).toEqual({
      method: "GET",
      url: `${keyed.server.origin}/events?GE_eventTime=2024-01-01T00:00:00Z`,
      headers: { "User-Agent": "tracecheck-test", Accept: "application/ld+json", "X-API-Key": "[redacted]" },
    });
    expect(exchange.response).toMatchObject({
      status: 200,
      bodyExcerpt: '{"ok":true}',
      bodyBytes: 11,
      truncated: false,
    });
    expect(exchange.response?.headers["x-served"]).toBe("yes");
    expect(result.headers["content-type"]).toBe("application/json");
    expect(exchange.durationMs).toBeGreaterThanOrEqual(0);
    expect(exchange.curl).toBe(
      `curl -sS -H 'User-Agent: tracecheck-test' -H 'Accept: application/ld+json' -H "X-API-Key: $TRACECHECK_API_KEY" '${keyed.server.origin}/events?GE_eventTime=2024-01-01T00:00:00Z'`,
    );
    expect(keyed.client.log.at(-1)).toBe(exchange);
  });

  it("leaves no fragment of a key that straddles the end of the excerpt", async () => {
    const result = await keyed.client.get(`${keyed.server.origin}/straddle`);
    const excerpt = result.exchange.response?.bodyExcerpt ?? "";
    expect(excerpt).toHaveLength(2000);
    expect(excerpt).not.toContain("evidence");
    expect(excerpt.slice(1995)).toBe("[reda");
  });

  it("makes the excerpt from bytes of its own, not from the body it hands over", async () => {
    const result = await keyed.client.get(`${keyed.server.origin}/straddle`);
    // What the caller does with the body afterwards does not reach the evidence, which writes it when first read.
    result.body.fill(0x7a);
    const excerpt = result.exchange.response?.bodyExcerpt ?? "";
    expect(excerpt.startsWith("x".repeat(1995))).toBe(true);
    expect(excerpt.slice(1995)).toBe("[reda");
    expect(result.exchange.response?.bodyExcerpt).toBe(excerpt);
  });

  it("writes the same evidence into a report as when it is read", async () => {
    const { exchange } = await keyed.client.get(`${keyed.server.origin}/events`);
    const written = JSON.parse(JSON.stringify(exchange)) as typeof exchange;
    expect(Object.keys(written)).toEqual(["request", "curl", "response", "durationMs"]);
    expect(written.curl).toBe(exchange.curl);
    expect(written.response?.bodyExcerpt).toBe('{"ok":true}');
    expect(structuredClone(exchange)).toEqual(written);
  });

  it("keeps only the last 10,000 exchanges", async () => {
    const bounded = new HttpClient({ allowedOrigins: [] });
    for (let i = 0; i <= 10_000; i++) {
      await bounded.get(`not a url ${i}`).catch((error: unknown) => {
        if (!(error instanceof HttpError) || error.code !== "invalid-url") throw error;
      });
    }
    await bounded.close();
    expect(bounded.log).toHaveLength(10_000);
    expect(bounded.log[0]?.request.url).toBe("not a url 1");
    expect(bounded.requestCount).toBe(0);
  });

  it("refuses requests once closed", async () => {
    const closing = new HttpClient({ allowedOrigins: [] });
    await closing.close();
    await expect(closing.get(`${keyed.server.origin}/events`)).rejects.toThrow(/closed/);
  });

  it("refuses an allowed origin that is not a URL", () => {
    expect(() => new HttpClient({ allowedOrigins: ["127.0.0.1:80"] })).toThrow(/scheme:\/\/host:port/);
  });
});
