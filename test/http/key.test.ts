import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, HttpError } from "../../src/http/index.ts";
import { carriesSecret } from "../../src/http/redact.ts";
import { sendJson, startResetting, startServer, type TestServer } from "./servers.ts";

// Characters that change under percent-encoding and JSON escaping, so every spelling of the key is exercised.
const KEY = 'tk_9f8e/7d+6c=5b "q"';

let a: TestServer;
let b: TestServer;
const clients: HttpClient[] = [];

function client(allowed: string[]): HttpClient {
  const made = new HttpClient({ apiKey: KEY, allowedOrigins: allowed, retries: 0 });
  clients.push(made);
  return made;
}

function assertNoKey(made: HttpClient): void {
  const logged = JSON.stringify(made.log);
  expect(logged).not.toContain(KEY);
  expect(logged).not.toContain(encodeURIComponent(KEY));
  expect(logged).not.toContain(JSON.stringify(KEY).slice(1, -1));
  expect(logged).not.toContain("tk_9f8e");
}

beforeAll(async () => {
  b = await startServer((req, res) => sendJson(res, 200, { sawKey: req.headers["x-api-key"] ?? null }));
  a = await startServer((req, res) => {
    const path = req.url ?? "";
    if (path.startsWith("/bounce")) {
      // Keeps the path's tail and the whole query, as a careless or hostile proxy would.
      res.writeHead(307, { location: `${b.origin}/landing${path.slice("/bounce".length)}` });
      res.end();
    } else if (path === "/away") {
      res.writeHead(302, { location: `${b.origin}/landing` });
      res.end();
    } else if (path === "/echo") {
      const given = String(req.headers["x-api-key"] ?? "");
      res.writeHead(302, {
        location: `/echoed?token=${encodeURIComponent(given)}`,
        "x-echo": given,
        "content-type": "text/plain",
      });
      res.end(`you sent ${given}, as JSON ${JSON.stringify({ given })}`);
    } else if (path.startsWith("/echoed")) {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`not json, and the url was ${path}`);
    } else {
      sendJson(res, 200, { sawKey: req.headers["x-api-key"] ?? null });
    }
  });
});

afterAll(async () => {
  await Promise.all(clients.map((made) => made.close()));
  await Promise.all([a.close(), b.close()]);
});

describe("the key goes only to allowed origins", () => {
  it("sends the key to an allowed origin and records it redacted", async () => {
    const made = client([a.origin]);
    const result = await made.get(`${a.origin}/events`);
    expect(result.json()).toEqual({ sawKey: KEY });
    expect(result.exchange.request.headers["X-API-Key"]).toBe("[redacted]");
    expect(result.exchange.keyWithheld).toBeUndefined();
    expect(result.exchange.curl).toContain('-H "X-API-Key: $TRACECHECK_API_KEY"');
    assertNoKey(made);
  });

  it("withholds the key from an origin that is not allowed", async () => {
    const made = client([b.origin]);
    const result = await made.get(`${a.origin}/events`);
    expect(result.json()).toEqual({ sawKey: null });
    expect(result.exchange.keyWithheld).toBe(true);
    expect(result.exchange.curl).not.toContain("TRACECHECK_API_KEY");
  });

  it("withholds the key on a redirect to another origin", async () => {
    const made = client([a.origin]);
    const before = b.received.length;
    const result = await made.get(`${a.origin}/away`, { redirect: "follow" });
    expect(result.status).toBe(200);
    expect(result.url).toBe(`${b.origin}/landing`);
    expect(b.received.length).toBe(before + 1);
    expect(b.received.at(-1)?.headers["x-api-key"]).toBeUndefined();
    expect(a.received.at(-1)?.headers["x-api-key"]).toBe(KEY);
    expect(result.exchanges.map((exchange) => exchange.keyWithheld)).toEqual([undefined, true]);
    expect(result.exchanges[1]?.request.headers["X-API-Key"]).toBeUndefined();
  });

  it("strips a caller's header that carries the key when the origin is not allowed", async () => {
    const made = client([a.origin]);
    await made.get(`${a.origin}/away`, {
      redirect: "follow",
      withKey: false,
      headers: { Authorization: `Key ${KEY}`, "X-Trace": "kept" },
    });
    const atA = a.received.at(-1);
    const atB = b.received.at(-1);
    expect(atA?.headers["authorization"]).toBe(`Key ${KEY}`);
    expect(atB?.headers["authorization"]).toBeUndefined();
    expect(atB?.headers["x-trace"]).toBe("kept");
    expect(made.log.at(-1)?.keyWithheld).toBe(true);
    assertNoKey(made);
  });

  it("sends no X-API-Key header at all to another origin, a made-up probe key included", async () => {
    const made = client([a.origin]);
    await made.get(`${a.origin}/away`, {
      redirect: "follow",
      withKey: false,
      headers: { "x-api-key": "made-up-probe-key" },
    });
    expect(a.received.at(-1)?.headers["x-api-key"]).toBe("made-up-probe-key");
    expect(b.received.at(-1)?.headers["x-api-key"]).toBeUndefined();
  });

  it("does not send the key when the caller says so", async () => {
    const made = client([a.origin]);
    const result = await made.get(`${a.origin}/events`, { withKey: false });
    expect(result.json()).toEqual({ sawKey: null });
    expect(result.exchange.keyWithheld).toBeUndefined();
  });

  it("sends no key header when the client has no key", async () => {
    const made = new HttpClient({ allowedOrigins: [a.origin] });
    clients.push(made);
    const result = await made.get(`${a.origin}/events`);
    expect(result.json()).toEqual({ sawKey: null });
    expect(Object.keys(result.exchange.request.headers).map((name) => name.toLowerCase())).not.toContain(
      "x-api-key",
    );
  });
});

describe("the key never reaches the evidence", () => {
  it("redacts a key echoed in the body, in headers and in a Location", async () => {
    const made = client([a.origin]);
    const result = await made.get(`${a.origin}/echo`);
    expect(result.status).toBe(302);
    expect(result.text).toContain(KEY);
    const response = result.exchange.response;
    expect(response?.bodyExcerpt).toContain("you sent [redacted]");
    expect(response?.headers["x-echo"]).toBe("[redacted]");
    expect(response?.headers["location"]).toBe("/echoed?token=[redacted]");
    assertNoKey(made);
  });

  it("redacts a key carried into the next URL when following", async () => {
    const made = client([a.origin]);
    const result = await made.get(`${a.origin}/echo`, { redirect: "follow" });
    expect(result.status).toBe(200);
    expect(result.exchange.request.url).toBe(`${a.origin}/echoed?token=[redacted]`);
    expect(result.exchange.curl).toContain(`'${a.origin}/echoed?token=[redacted]'`);
    expect(() => result.json()).toThrow(/not valid JSON/);
    try {
      result.json();
    } catch (error) {
      expect(String(error)).not.toContain("tk_9f8e");
    }
    assertNoKey(made);
  });

  it("redacts the key from the message of a failed request", async () => {
    const made = client([a.origin]);
    // A server that resets every connection: the port stays ours, so no other process can answer on it.
    const resetting = await startResetting();
    const allowed = client([resetting.origin]);
    const failure = await allowed
      .get(`${resetting.origin}/events?key=${encodeURIComponent(KEY)}`)
      .catch((e) => e)
      .finally(() => resetting.close());
    expect((failure as HttpError).code).toBe("network");
    expect(failure).toBeInstanceOf(HttpError);
    expect((failure as HttpError).message).not.toContain("tk_9f8e");
    expect((failure as HttpError).message).toContain("[redacted]");
    assertNoKey(allowed);
    assertNoKey(made);
  });
});

describe("a URL that carries the key goes only to allowed origins", () => {
  const spellings: [string, string][] = [
    ["as written", KEY],
    ["percent-encoded", encodeURIComponent(KEY)],
    [
      "percent-encoded in lower-case hex",
      encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    ],
    ["with + for a space", encodeURIComponent(KEY).replace(/%20/g, "+")],
    ["encoded twice", encodeURIComponent(encodeURIComponent(KEY))],
  ];

  it.each(spellings)("is sent to an allowed origin with the key %s in its query", async (_, spelled) => {
    const made = client([a.origin]);
    const before = a.received.length;
    const result = await made.get(`${a.origin}/events?api_key=${spelled}`, { withKey: false });
    expect(result.status).toBe(200);
    expect(a.received.length).toBe(before + 1);
    assertNoKey(made);
  });

  it.each(spellings)(
    "is not followed through a redirect to another origin, with the key %s",
    async (_, spelled) => {
      const made = client([a.origin]);
      const before = b.received.length;
      const failure = await made
        .get(`${a.origin}/bounce?apikey=${spelled}`, { redirect: "follow", withKey: false })
        .catch((e) => e);
      expect(failure).toBeInstanceOf(HttpError);
      expect((failure as HttpError).code).toBe("key-in-url");
      expect((failure as HttpError).message).toContain(b.origin);
      expect(b.received.length).toBe(before);
      expect((failure as HttpError).exchanges.map((e) => e.keyWithheld)).toEqual([undefined, true]);
      assertNoKey(made);
    },
  );

  it("is not sent to another origin with the key in its path", async () => {
    const made = client([a.origin]);
    const before = b.received.length;
    const failure = await made.get(`${b.origin}/keys/${encodeURIComponent(KEY)}/events`).catch((e) => e);
    expect((failure as HttpError).code).toBe("key-in-url");
    expect(b.received.length).toBe(before);
    assertNoKey(made);
  });

  it("is followed to another origin once the key is gone from it", async () => {
    const made = client([a.origin]);
    const result = await made.get(`${a.origin}/bounce?plain=1`, { redirect: "follow" });
    expect(result.url).toBe(`${b.origin}/landing?plain=1`);
    expect(b.received.at(-1)?.headers["x-api-key"]).toBeUndefined();
  });

  it("recognises the key in every spelling a server decodes, and nothing shorter", () => {
    for (const [, spelled] of spellings) expect(carriesSecret(`http://h/p?x=${spelled}`, KEY)).toBe(true);
    expect(carriesSecret(`http://h/${encodeURIComponent(KEY)}/x`, KEY)).toBe(true);
    expect(carriesSecret("http://h/p?x=tk_9f8e", KEY)).toBe(false);
    expect(carriesSecret("http://h/p?x=%E0%A4%A", KEY)).toBe(false);
    expect(carriesSecret("http://h/p", undefined)).toBe(false);
  });
});

describe("the key header's name", () => {
  it.each(["x-api-key", "X-Api-Key", "X-API-KEY"])("is sent exactly as %s when asked", async (name) => {
    const made = client([a.origin]);
    const result = await made.get(`${a.origin}/events`, { keyHeaderName: name });
    expect(a.received.at(-1)?.rawHeaderNames).toContain(name);
    expect(result.exchange.request.headers[name]).toBe("[redacted]");
    expect(result.exchange.curl).toContain(`-H "${name}: $TRACECHECK_API_KEY"`);
  });
});
