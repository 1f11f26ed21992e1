import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followPages, HttpClient, HttpError } from "../../src/http/index.ts";
import { sendJson, startServer, type TestServer } from "./servers.ts";

const KEY = "pages-key-123";
let a: TestServer;
let b: TestServer;
let client: HttpClient;

/** Each set maps a page number to [status, next link or undefined, body]. */
type Page = [status: number, next: string | undefined, body?: string];
const sets: Record<string, Record<string, Page>> = {
  three: { "1": [200, "/three?page=2"], "2": [200, "three?page=3"], "3": [200, undefined] },
  loop: { "1": [200, "/loop?page=2"], "2": [200, "/loop?page=1#again"] },
  broken: { "1": [200, "/broken?page=2"], "2": [500, "/broken?page=3"] },
  text: { "1": [200, "/text?page=2"], "2": [200, undefined, "<html>not json</html>"] },
  long: { "1": [200, "/long?page=2"], "2": [200, "/long?page=3"], "3": [200, undefined] },
};

beforeAll(async () => {
  b = await startServer((req, res) => {
    if (req.url === "/guarded" && req.headers["x-api-key"] !== KEY) sendJson(res, 401, { error: "key" });
    else sendJson(res, 200, { page: "b" });
  });
  a = await startServer((req, res) => {
    const url = new URL(req.url ?? "/", a.origin);
    const set = url.pathname.slice(1);
    const page = url.searchParams.get("page") ?? "1";
    if (set === "away") {
      const target = url.searchParams.get("to") ?? "";
      sendJson(res, 200, { events: [] }, { link: `<${b.origin}/${target}>; rel="next"` });
      return;
    }
    const entry = sets[set]?.[page];
    if (entry === undefined) {
      sendJson(res, 404, {});
      return;
    }
    const [status, next, body] = entry;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (next !== undefined) headers["link"] = `</other>; rel="prev", <${next}>; rel="next"`;
    res.writeHead(status, headers);
    res.end(body ?? JSON.stringify({ page }));
  });
  client = new HttpClient({ allowedOrigins: [a.origin], apiKey: KEY, retries: 0 });
});

afterAll(async () => {
  await client.close();
  await Promise.all([a.close(), b.close()]);
});

describe("followPages", () => {
  it("reads every page, resolving relative next links", async () => {
    const { pages, problem } = await followPages(client, `${a.origin}/three`);
    expect(problem).toBeUndefined();
    expect(pages.map((page) => page.json())).toEqual([{ page: "1" }, { page: "2" }, { page: "3" }]);
    expect(pages[2]?.url).toBe(`${a.origin}/three?page=3`);
  });

  it("stops at a next link that was already read", async () => {
    const { pages, problem } = await followPages(client, `${a.origin}/loop?page=1`);
    expect(pages).toHaveLength(2);
    expect(problem?.kind).toBe("loop");
    expect(problem?.exchange).toBe(pages[1]?.exchange);
  });

  it("stops at a page that answers 500", async () => {
    const { pages, problem } = await followPages(client, `${a.origin}/broken`);
    expect(pages).toHaveLength(1);
    expect(problem?.kind).toBe("bad-status");
    expect(problem?.exchange.response?.status).toBe(500);
    expect(problem?.message).toMatch(/status 500/);
  });

  it("stops at a page that is not JSON", async () => {
    const { pages, problem } = await followPages(client, `${a.origin}/text`);
    expect(pages).toHaveLength(1);
    expect(problem?.kind).toBe("not-json");
  });

  it("stops after maxPages", async () => {
    const { pages, problem } = await followPages(client, `${a.origin}/long`, { maxPages: 2 });
    expect(pages).toHaveLength(2);
    expect(problem?.kind).toBe("too-many-pages");
  });

  it("follows a next link to another origin without the key", async () => {
    const { pages, problem } = await followPages(client, `${a.origin}/away?to=open`);
    expect(problem).toBeUndefined();
    expect(pages).toHaveLength(2);
    expect(b.received.at(-1)?.headers["x-api-key"]).toBeUndefined();
    expect(pages[1]?.exchange.keyWithheld).toBe(true);
  });

  it("reports a failing page on another origin as off-origin", async () => {
    const { pages, problem } = await followPages(client, `${a.origin}/away?to=guarded`);
    expect(pages).toHaveLength(1);
    expect(problem?.kind).toBe("off-origin");
    expect(problem?.message).toMatch(/without the key/);
    expect(problem?.exchange.response?.status).toBe(401);
  });

  it("throws the HttpError of a first page that cannot be fetched", async () => {
    const gone = await startServer(() => undefined);
    await gone.close();
    await expect(followPages(client, `${gone.origin}/events`)).rejects.toBeInstanceOf(HttpError);
  });
});
