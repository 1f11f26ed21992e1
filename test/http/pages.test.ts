import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  followPages,
  Handover,
  HttpClient,
  HttpError,
  type PageResult,
  readPages,
} from "../../src/http/index.ts";
import { sendJson, startResetting, startServer, type TestServer } from "./servers.ts";

const KEY = "pages-key-123";
/** Padding of each endless page, so that a page's size is known: about a kilobyte. */
const PAD = 1000;
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
    else if (req.url === "/paged?page=1")
      sendJson(res, 200, { page: "b1" }, { link: `</paged?page=2>; rel="next"` });
    else if (req.url === "/paged?page=2") sendJson(res, 200, { page: "b2" });
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
    if (set === "endless") {
      // A new page each time, never one already read: only a budget ends it.
      const n = Number(page);
      sendJson(res, 200, { page: n, pad: "x".repeat(PAD) }, { link: `</endless?page=${n + 1}>; rel="next"` });
      return;
    }
    if (set === "jump") {
      // Page 2 is on this origin but redirects to the other one.
      if (page === "1") sendJson(res, 200, { page }, { link: `</jump?page=2>; rel="next"` });
      else {
        res.writeHead(307, { location: `${b.origin}/open` });
        res.end();
      }
      return;
    }
    if (set === "moved") {
      // The first page moved to the other origin, whose pages follow on there.
      res.writeHead(307, { location: `${b.origin}/paged?page=1` });
      res.end();
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

  it("stops after maxPages, naming the budget and the flag that raises it", async () => {
    const { pages, problem } = await followPages(client, `${a.origin}/long`, { maxPages: 2 });
    expect(pages).toHaveLength(2);
    expect(problem?.kind).toBe("too-many-pages");
    expect(problem?.message).toMatch(/after 2 pages.*--max-pages 2.*rel="next" to .*\/long\?page=3/);
    expect(problem?.exchange).toBe(pages[1]?.exchange);
  });

  it("reads an answer of exactly maxPages pages whole", async () => {
    const { pages, problem } = await followPages(client, `${a.origin}/long`, { maxPages: 3 });
    expect(problem).toBeUndefined();
    expect(pages).toHaveLength(3);
  });

  it("ends pages that never end at the page budget, each page a new one", async () => {
    const { pages, problem } = await followPages(client, `${a.origin}/endless`, { maxPages: 40 });
    expect(pages).toHaveLength(40);
    expect(pages.map((page) => page.json<{ page: number }>().page)).toEqual(
      [...Array(40).keys()].map((n) => n + 1),
    );
    expect(problem?.kind).toBe("too-many-pages");
  });

  it("ends pages that never end at the byte budget, after the page that reaches it", async () => {
    const read: number[] = [];
    const result = await readPages(client, `${a.origin}/endless`, (page) => void read.push(page.bodyBytes), {
      maxBytes: 5 * PAD,
    });
    // Each page is a little over PAD bytes: the fifth reaches the budget and is the last read.
    expect(read).toHaveLength(5);
    expect(result.pages).toBe(5);
    expect(result.bytes).toBe(read.reduce((sum, n) => sum + n, 0));
    expect(result.problem?.kind).toBe("too-many-bytes");
    expect(result.problem?.message).toMatch(
      new RegExp(
        `after 5 pages of ${result.bytes} bytes.*--max-answer-bytes ${5 * PAD}.*raise --max-answer-bytes`,
      ),
    );
    expect(result.problem?.exchange.request.url).toBe(`${a.origin}/endless?page=5`);
  });

  it("reads an answer whose bytes equal the budget whole", async () => {
    const sizes: number[] = [];
    await readPages(client, `${a.origin}/three`, (page) => void sizes.push(page.bodyBytes));
    const total = sizes.reduce((sum, n) => sum + n, 0);
    const { pages, problem } = await followPages(client, `${a.origin}/three`, { maxBytes: total });
    expect(problem).toBeUndefined();
    expect(pages).toHaveLength(3);
  });

  it("refuses a budget that is not a whole number of at least 1", async () => {
    await expect(followPages(client, `${a.origin}/three`, { maxPages: 0 })).rejects.toThrow(/maxPages/);
    await expect(followPages(client, `${a.origin}/three`, { maxBytes: 1.5 })).rejects.toThrow(/maxBytes/);
  });

  it("hands pages over one at a time and keeps none of their bytes", async () => {
    const seen: PageResult[] = [];
    const read = await readPages(client, `${a.origin}/three`, (page) => void seen.push(page));
    expect(read).toEqual({ pages: 3, bytes: expect.any(Number) });
    expect(seen.map((page) => page.json())).toEqual([{ page: "1" }, { page: "2" }, { page: "3" }]);
    for (const page of seen) {
      expect(page).not.toHaveProperty("body");
      expect(page).not.toHaveProperty("text");
    }
  });

  it("stops where onPage says so, without reading further pages", async () => {
    const before = a.received.length;
    const read = await readPages(client, `${a.origin}/three`, () => false);
    expect(read).toEqual({ pages: 1, bytes: expect.any(Number), stopped: true });
    expect(a.received.length - before).toBe(1);
  });

  it("reads a first answer already in hand as page 1, asking only for the pages after it", async () => {
    const first = new Handover(await client.get(`${a.origin}/three`));
    const before = a.received.length;
    const seen: unknown[] = [];
    const read = await readPages(client, `${a.origin}/three`, (page) => void seen.push(page.json()), {
      firstAnswer: first,
    });
    expect(read).toEqual({ pages: 3, bytes: expect.any(Number) });
    // Taken, it is held by the handover no longer.
    expect(first.take()).toBeUndefined();
    expect(seen).toEqual([{ page: "1" }, { page: "2" }, { page: "3" }]);
    expect(a.received.slice(before).map((r) => r.url)).toEqual(["/three?page=2", "/three?page=3"]);
  });

  it("judges a first answer in hand as it would have judged the page fetched", async () => {
    const refused = await client.get(`${a.origin}/broken?page=2`);
    const before = a.received.length;
    const read = await readPages(client, `${a.origin}/broken?page=2`, () => undefined, {
      firstAnswer: new Handover(refused),
    });
    expect(read.pages).toBe(0);
    expect(read.problem?.kind).toBe("bad-status");
    expect(read.problem?.result?.status).toBe(500);
    expect(a.received.length).toBe(before);
  });

  // Spec 4.1 states no rule that keeps an answer's pages on one origin: the page there is taken like any other.
  it("follows a next link to another origin without the key, taking its page", async () => {
    const admitted: string[] = [];
    const { pages, problem } = await followPages(client, `${a.origin}/away?to=open`, {
      admit: (response) => {
        admitted.push(response.url);
        return true;
      },
    });
    expect(problem).toBeUndefined();
    expect(pages.map((page) => page.json())).toEqual([{ events: [] }, { page: "b" }]);
    expect(admitted).toEqual([`${a.origin}/away?to=open`, `${b.origin}/open`]);
    // The key goes to no other origin.
    expect(b.received.at(-1)?.headers["x-api-key"]).toBeUndefined();
    expect(pages[1]?.exchange.keyWithheld).toBe(true);
    expect(pages[0]?.exchange.keyWithheld).toBeUndefined();
  });

  it("follows the pages of another origin on from there, never with the key", async () => {
    const before = b.received.length;
    const { pages, problem } = await followPages(
      client,
      `${a.origin}/away?to=${encodeURIComponent("paged?page=1")}`,
    );
    expect(problem).toBeUndefined();
    expect(pages.map((page) => page.json())).toEqual([{ events: [] }, { page: "b1" }, { page: "b2" }]);
    const reached = b.received.slice(before);
    expect(reached.map((r) => r.url)).toEqual(["/paged?page=1", "/paged?page=2"]);
    for (const r of reached) expect(r.headers["x-api-key"]).toBeUndefined();
  });

  it("follows a next page that redirects to another origin", async () => {
    const { pages, problem } = await followPages(client, `${a.origin}/jump`, {
      request: { redirect: "follow" },
    });
    expect(problem).toBeUndefined();
    expect(pages.map((page) => page.json())).toEqual([{ page: "1" }, { page: "b" }]);
    expect(pages[1]?.url).toBe(`${b.origin}/open`);
  });

  it("takes the origin of the answer from the first page as it answered, after redirects", async () => {
    const { pages, problem } = await followPages(client, `${a.origin}/moved`, {
      request: { redirect: "follow" },
    });
    expect(problem).toBeUndefined();
    expect(pages.map((page) => page.json())).toEqual([{ page: "b1" }, { page: "b2" }]);
  });

  it("reports a failing page on another origin as off-origin", async () => {
    const { pages, problem } = await followPages(client, `${a.origin}/away?to=guarded`);
    expect(pages).toHaveLength(1);
    expect(problem?.kind).toBe("off-origin");
    expect(problem?.message).toMatch(/without the key/);
    expect(problem?.exchange.response?.status).toBe(401);
  });

  it("throws the HttpError of a first page that cannot be fetched", async () => {
    // A server that resets every connection: the port stays ours, so no other process can answer on it.
    const resetting = await startResetting();
    try {
      await expect(followPages(client, `${resetting.origin}/events`)).rejects.toBeInstanceOf(HttpError);
    } finally {
      await resetting.close();
    }
  });
});
