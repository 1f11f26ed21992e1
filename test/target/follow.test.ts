import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunContext } from "../../src/engine/context.ts";
import type { ExchangeRecord } from "../../src/http/record.ts";
import { targetClient } from "../../src/target/client.ts";
import { documentAt, linksetAt, withheldHint } from "../../src/target/follow.ts";
import { testRunContext } from "../support/run-context.ts";

const exchange = (url: string, keyWithheld?: boolean): ExchangeRecord => ({
  request: { method: "GET", url, headers: {} },
  durationMs: 1,
  curl: "",
  ...(keyWithheld === undefined ? {} : { keyWithheld }),
});

describe("withheldHint: why a refusal may be the harness's doing", () => {
  it("names the origin the key was withheld from when it refused with 401 or 403", () => {
    for (const status of [401, 403]) {
      expect(withheldHint(exchange("http://other.example:8080/events?x=1", true), status)).toBe(
        "the key was withheld because http://other.example:8080 is not an origin of the target: allow it with --allow-origin",
      );
    }
  });

  it("says nothing where the key was sent, or the refusal is of another kind", () => {
    expect(withheldHint(exchange("http://other.example/events"), 401)).toBeUndefined();
    expect(withheldHint(exchange("http://other.example/events", false), 403)).toBeUndefined();
    expect(withheldHint(exchange("http://other.example/events", true), 404)).toBeUndefined();
    expect(withheldHint(exchange("http://other.example/events", true), undefined)).toBeUndefined();
  });
});

// A resolver on the target's origin and another origin the key is withheld from, each answering by path.
const ANSWERS: Record<string, { status: number; type: string; body: string }> = {
  "/dl/linkset": { status: 200, type: "application/linkset+json", body: '{"linkset":[]}' },
  "/dl/other-json": { status: 200, type: "application/json", body: '{"other":1}' },
  "/dl/not-json": { status: 200, type: "application/json", body: "<html>" },
  "/dl/gone": { status: 404, type: "text/plain", body: "gone" },
  "/refuses": { status: 401, type: "text/plain", body: "no key" },
};

function answering(): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const answer = ANSWERS[new URL(req.url ?? "/", "http://x").pathname] ?? ANSWERS["/dl/gone"]!;
    res.writeHead(answer.status, { "content-type": answer.type });
    res.end(answer.body);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    ),
  );
}

describe("linksetAt and documentAt: a read as its JSON, or why there is none", () => {
  let target: { origin: string; server: Server };
  let elsewhere: { origin: string; server: Server };
  let ctx: RunContext;

  beforeAll(async () => {
    [target, elsewhere] = await Promise.all([answering(), answering()]);
    ctx = testRunContext(target.origin, `${target.origin}/dl`, { apiKey: "k" });
  });

  afterAll(async () => {
    await targetClient(ctx).close();
    await Promise.all(
      [target, elsewhere].map(
        ({ server }) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  });

  it("answers a link set's JSON with the answer it came in", async () => {
    const read = await linksetAt(ctx, `${target.origin}/dl/linkset`);
    expect(read.kind).toBe("json");
    if (read.kind !== "json") return;
    expect(read.body).toEqual({ linkset: [] });
    expect(read.result.status).toBe(200);
  });

  it("leaves JSON without a linkset member to the caller, where a document read takes it as the document", async () => {
    const url = `${target.origin}/dl/other-json`;
    const linkset = await linksetAt(ctx, url);
    expect(linkset.kind === "json" && linkset.body).toEqual({ other: 1 });
    const document = await documentAt(ctx, url);
    expect(document.kind === "document" && document.doc).toEqual({ other: 1 });
  });

  it("says why a status or a body broke the read, with the status and the exchange", async () => {
    const gone = await linksetAt(ctx, `${target.origin}/dl/gone`);
    expect(gone).toMatchObject({
      kind: "broken",
      problem: `${target.origin}/dl/gone answered 404 instead of a link set`,
      status: 404,
    });
    expect(gone.kind === "broken" && gone.exchange?.response?.status).toBe(404);
    expect(gone.kind === "broken" && gone.withheld).toBeUndefined();
    const notJson = await documentAt(ctx, `${target.origin}/dl/not-json`);
    expect(notJson).toMatchObject({ kind: "broken", status: 200 });
    expect(notJson.kind === "broken" && notJson.problem).toContain("with a body that is not JSON");
  });

  it("adds the hint when another origin, the key withheld from it, refused", async () => {
    const url = `${elsewhere.origin}/refuses`;
    for (const read of [await linksetAt(ctx, url), await documentAt(ctx, url)]) {
      expect(read).toMatchObject({ kind: "broken", status: 401 });
      expect(read.kind === "broken" && read.withheld).toBe(
        `the key was withheld because ${elsewhere.origin} is not an origin of the target: allow it with --allow-origin`,
      );
    }
  });
});
