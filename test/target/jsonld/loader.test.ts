// The context loader looks where the EPCIS schema is looked for (mirror, cache, sibling mirror, then a fetch), reads
// each URL once, bounds its fetches and says what to do when a context cannot be had. The run's loader fetches
// through the harness's client and never sends the key. No test reaches the network: folders are temporary and the
// only server listens on 127.0.0.1.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunContext } from "../../../src/engine/context.ts";
import { EPCIS_CONTEXT_URL } from "../../../src/model/index.ts";
import {
  ContextUnavailableError,
  createContextLoader,
  type FetchedContext,
  runContextLoader,
} from "../../../src/target/jsonld/index.ts";

const URL_A = "https://contexts.example/a.jsonld";
const GS1_URL = "https://ref.gs1.org/voc/test-context.jsonld";

let root: string;

async function folderWith(name: string, url: string, document: unknown): Promise<string> {
  const dir = path.join(root, name);
  const u = new URL(url);
  const file = path.join(dir, u.host, ...u.pathname.split("/").filter(Boolean));
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(document));
  return dir;
}

const contextNamed = (name: string) => ({ "@context": { from: `https://example.org/${name}#` } });

/** A fetch that answers from a table and counts what it was asked. */
function fakeFetch(table: Record<string, unknown>) {
  const asked: string[] = [];
  const fetchContext = async (url: string): Promise<FetchedContext> => {
    asked.push(url);
    if (!(url in table)) throw new Error("it answered 404");
    return { url, document: table[url] };
  };
  return { asked, fetchContext };
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "tracecheck-contexts-"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("createContextLoader", () => {
  it("takes the mirror before the cache before the sibling mirror", async () => {
    const mirror = await folderWith("m1", URL_A, contextNamed("mirror"));
    const cacheDir = await folderWith("c1", URL_A, contextNamed("cache"));
    const siblingMirror = await folderWith("s1", URL_A, contextNamed("sibling"));
    const load = (opts: Parameters<typeof createContextLoader>[0]) => createContextLoader(opts)(URL_A);
    expect((await load({ mirror, cacheDir, siblingMirror })).document).toEqual(contextNamed("mirror"));
    expect((await load({ cacheDir, siblingMirror })).document).toEqual(contextNamed("cache"));
    const empty = path.join(root, "empty");
    expect((await load({ cacheDir: empty, siblingMirror })).document).toEqual(contextNamed("sibling"));
  });

  it("serves the EPCIS context from the shared artefacts' mirror", async () => {
    const loader = createContextLoader({ cacheDir: path.join(root, "empty") });
    const remote = await loader(EPCIS_CONTEXT_URL);
    expect(remote.documentUrl).toBe(EPCIS_CONTEXT_URL);
    expect(remote.document).toHaveProperty("@context");
  });

  it("fetches what no folder holds, once per URL, and keeps only GS1's published contexts in the cache", async () => {
    const cacheDir = path.join(root, "c2");
    const { asked, fetchContext } = fakeFetch({
      [URL_A]: contextNamed("net"),
      [GS1_URL]: contextNamed("gs1"),
    });
    const loader = createContextLoader({ cacheDir, siblingMirror: path.join(root, "empty"), fetchContext });
    expect((await loader(URL_A)).document).toEqual(contextNamed("net"));
    await loader(URL_A);
    await loader(GS1_URL);
    expect(asked).toEqual([URL_A, GS1_URL]);
    const kept = JSON.parse(
      await readFile(path.join(cacheDir, "ref.gs1.org", "voc", "test-context.jsonld"), "utf8"),
    );
    expect(kept).toEqual(contextNamed("gs1"));
    await expect(readFile(path.join(cacheDir, "contexts.example", "a.jsonld"), "utf8")).rejects.toThrow();
  });

  it("says why a context cannot be had and how to provide it", async () => {
    const offline = createContextLoader({
      cacheDir: path.join(root, "empty"),
      siblingMirror: path.join(root, "x"),
    });
    await expect(offline(URL_A)).rejects.toThrow(
      /no schema mirror, cache or sibling mirror.*--schema-mirror/,
    );
    const { fetchContext } = fakeFetch({});
    const failing = createContextLoader({ cacheDir: path.join(root, "empty"), fetchContext });
    const err = await failing(URL_A).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextUnavailableError);
    expect((err as ContextUnavailableError).url).toBe(URL_A);
    expect((err as Error).message).toMatch(/fetching it failed \(it answered 404\)/);
    await expect(offline("file:///etc/passwd")).rejects.toThrow(/not an http\(s\) URL/);
  });

  it("refuses a file that is not JSON, naming it", async () => {
    const mirror = path.join(root, "m3");
    const file = path.join(mirror, "contexts.example", "a.jsonld");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, "<html>");
    await expect(createContextLoader({ mirror })(URL_A)).rejects.toThrow(/is not JSON.*replace the file/);
  });

  it("fetches no more than its bound of distinct URLs", async () => {
    const table = Object.fromEntries(
      [1, 2, 3].map((i) => [`https://contexts.example/${i}`, contextNamed(`${i}`)]),
    );
    const { asked, fetchContext } = fakeFetch(table);
    const loader = createContextLoader({ cacheDir: path.join(root, "empty"), fetchContext, maxFetches: 2 });
    await loader("https://contexts.example/1");
    await loader("https://contexts.example/2");
    await expect(loader("https://contexts.example/3")).rejects.toThrow(
      /2 remote contexts were already fetched/,
    );
    expect(asked).toHaveLength(2);
  });
});

describe("runContextLoader", () => {
  let server: Server;
  let base: string;
  const seen: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      if (req.url === "/context.jsonld") {
        res.writeHead(200, { "content-type": "application/ld+json" });
        res.end(JSON.stringify({ "@context": { gs1: "https://gs1.org/voc/" } }));
      } else {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("no such context");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("fetches through the run's client without the key, even from the target's own origin", async () => {
    const ctx = {
      eventsBase: base,
      resolverBase: base,
      apiKey: "secret-key-123",
      allowOrigins: [],
      timeoutMs: 5000,
      concurrency: 2,
      ratePerSecond: 0,
      schemaMirror: path.join(root, "empty"),
    } as unknown as RunContext;
    const loader = runContextLoader(ctx);
    expect((await loader(`${base}/context.jsonld`)).document).toEqual({
      "@context": { gs1: "https://gs1.org/voc/" },
    });
    await expect(loader(`${base}/missing.jsonld`)).rejects.toThrow(/it answered 404/);
    expect(seen).toHaveLength(2);
    for (const headers of seen) expect(headers["x-api-key"]).toBeUndefined();
  });
});
