import { describe, expect, it } from "vitest";
import { LARGE_BODIES_AT_ONCE, LARGE_BODY_BYTES, TRUNCATED_KEPT_BYTES } from "../../src/http/body.ts";
import { HttpClient, JsonBodyError } from "../../src/http/index.ts";
import { servingForTests } from "./servers.ts";

const CAP = 64 * 1024;
const capped = servingForTests(
  (req, res) => {
    const chunk = Buffer.alloc(16 * 1024, "a");
    if (req.url === "/large") {
      res.writeHead(200, { "content-type": "application/json" });
      for (let i = 0; i < 320; i++) res.write(chunk);
      res.end();
    } else if (req.url === "/endless") {
      res.writeHead(200, { "content-type": "text/plain" });
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    } else if (req.url === "/exact") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(Buffer.alloc(CAP, "b"));
    } else {
      res.writeHead(404);
      res.end();
    }
  },
  () => ({ allowedOrigins: [], maxBodyBytes: CAP }),
);

describe("the body cap", () => {
  it("cuts a large body at the cap and marks it truncated", async () => {
    const result = await capped.client.get(`${capped.server.origin}/large`);
    expect(result.status).toBe(200);
    expect(result.truncated).toBe(true);
    expect(result.body.length).toBeLessThanOrEqual(CAP);
    expect(result.exchange.response?.truncated).toBe(true);
    expect(result.exchange.response?.bodyBytes).toBeLessThanOrEqual(CAP);
    expect(result.exchange.response?.bodyExcerpt.length).toBe(2000);
    expect(() => result.json()).toThrow(JsonBodyError);
  });

  it("stops reading a body that never ends", async () => {
    const result = await capped.client.get(`${capped.server.origin}/endless`);
    expect(result.truncated).toBe(true);
    expect(result.body.length).toBeLessThanOrEqual(CAP);
  });

  it("keeps only the start of a body cut at a larger cap, for the evidence, and says how much arrived", async () => {
    const larger = new HttpClient({ allowedOrigins: [], maxBodyBytes: 4 * CAP });
    try {
      const result = await larger.get(`${capped.server.origin}/large`);
      expect(result.truncated).toBe(true);
      expect(result.body.length).toBe(TRUNCATED_KEPT_BYTES);
      expect(result.exchange.response?.bodyBytes).toBe(4 * CAP);
      expect(() => result.json()).toThrow(`cut at ${4 * CAP} bytes`);
    } finally {
      await larger.close();
    }
  });

  it("keeps a body of exactly the cap whole", async () => {
    const result = await capped.client.get(`${capped.server.origin}/exact`);
    expect(result.truncated).toBe(false);
    expect(result.body.length).toBe(CAP);
    expect(result.text).toBe("b".repeat(CAP));
  });
});

describe("large bodies", () => {
  const MiB = 1024 * 1024;
  // Each body's bytes tell it from the others, so that one read into another's buffer shows.
  const bodyOf = (n: number, size: number): Buffer => Buffer.alloc(size, String.fromCharCode(97 + n));
  const wide = servingForTests(
    (req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      const n = Number(url.searchParams.get("n") ?? "0");
      const size = Number(url.searchParams.get("size") ?? "0");
      const body = bodyOf(n, size);
      if (url.pathname === "/broken") {
        // Half the body, then the connection is dropped: the exchange fails mid-body.
        res.writeHead(200, { "content-type": "text/plain", "content-length": String(size) });
        res.write(body.subarray(0, size / 2), () => res.destroy());
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" });
      // In pieces, so that the body passes LARGE_BODY_BYTES partway.
      for (let at = 0; at < size; at += 256 * 1024) res.write(body.subarray(at, at + 256 * 1024));
      res.end();
    },
    () => ({ allowedOrigins: [], maxBodyBytes: 4 * MiB, retries: 0 }),
  );

  it("reads more large bodies at once than take turns, each whole and its own", async () => {
    expect(LARGE_BODIES_AT_ONCE).toBeLessThan(5);
    const sizes = [3 * MiB, 2 * MiB + 7, 3 * MiB - 1, 4 * MiB, LARGE_BODY_BYTES + 1];
    const results = await Promise.all(
      sizes.map((size, n) => wide.client.get(`${wide.server.origin}/whole?n=${n}&size=${size}`)),
    );
    results.forEach((result, n) => {
      expect(result.truncated).toBe(false);
      expect(result.body.equals(bodyOf(n, sizes[n]!))).toBe(true);
    });
  });

  it("cuts a large body at a cap past LARGE_BODY_BYTES, keeping its start", async () => {
    const result = await wide.client.get(`${wide.server.origin}/whole?n=1&size=${6 * MiB}`);
    expect(result.truncated).toBe(true);
    expect(result.exchange.response?.bodyBytes).toBe(4 * MiB);
    expect(result.body.equals(bodyOf(1, TRUNCATED_KEPT_BYTES))).toBe(true);
  });

  it("gives back the turns of large bodies whose exchanges fail", async () => {
    const failed = await Promise.allSettled(
      Array.from({ length: 6 }, (_, n) =>
        wide.client.get(`${wide.server.origin}/broken?n=${n}&size=${3 * MiB}`),
      ),
    );
    expect(failed.every((outcome) => outcome.status === "rejected")).toBe(true);
    // Were a turn kept by a failed exchange, these would wait for it past their timeout.
    const results = await Promise.all(
      [0, 1, 2].map((n) => wide.client.get(`${wide.server.origin}/whole?n=${n}&size=${2 * MiB}`)),
    );
    results.forEach((result, n) => {
      expect(result.body.equals(bodyOf(n, 2 * MiB))).toBe(true);
    });
  });
});
