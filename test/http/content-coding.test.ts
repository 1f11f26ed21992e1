// Bodies served with a Content-Encoding are read as the server meant them (RFC 9110 8.4): a sender whose stored
// master data comes back gzipped is judged on its JSON, and a compressed body is held to the cap once decoded.
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { servingForTests } from "./servers.ts";

const CAP = 64 * 1024;
const DOC = {
  "@context": "https://ref.gs1.org/standards/epcis/epcis-context.jsonld",
  type: "EPCISQueryDocument",
};
const TEXT = Buffer.from(JSON.stringify(DOC));

const served = servingForTests(
  (req, res) => {
    const send = (encoding: string, body: Buffer) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": encoding });
      res.end(body);
    };
    if (req.url === "/gzip") send("gzip", gzipSync(TEXT));
    else if (req.url === "/deflate") send("deflate", deflateSync(TEXT));
    else if (req.url === "/br") send("br", brotliCompressSync(TEXT));
    else if (req.url === "/twice") send("deflate, gzip", gzipSync(deflateSync(TEXT)));
    else if (req.url === "/bomb") send("gzip", gzipSync(Buffer.alloc(4 * CAP, "a")));
    else if (req.url === "/unknown") send("compress", TEXT);
    else if (req.url === "/garbled") send("gzip", TEXT);
    else {
      res.writeHead(404);
      res.end();
    }
  },
  () => ({ allowedOrigins: [], maxBodyBytes: CAP }),
);

describe("a body with a Content-Encoding", () => {
  it("is decoded, for gzip, deflate, br and codings applied one after another", async () => {
    for (const path of ["/gzip", "/deflate", "/br", "/twice"]) {
      const result = await served.client.get(`${served.server.origin}${path}`);
      expect(result.json(), path).toEqual(DOC);
      expect(result.truncated, path).toBe(false);
      expect(result.exchange.response?.bodyBytes, path).toBe(TEXT.length);
      expect(result.exchange.response?.bodyExcerpt, path).toBe(TEXT.toString("utf8"));
    }
  });

  it("is held to the cap once decoded", async () => {
    const result = await served.client.get(`${served.server.origin}/bomb`);
    expect(result.truncated).toBe(true);
    expect(result.exchange.response?.truncated).toBe(true);
    expect(result.body.length).toBeLessThanOrEqual(CAP);
    expect(() => result.json()).toThrow();
  });

  it("is left as it came where the coding is unknown or the bytes do not decode", async () => {
    const unknown = await served.client.get(`${served.server.origin}/unknown`);
    expect(unknown.body.equals(TEXT)).toBe(true);
    const garbled = await served.client.get(`${served.server.origin}/garbled`);
    expect(garbled.body.equals(TEXT)).toBe(true);
    expect(garbled.exchange.response?.headers["content-encoding"]).toBe("gzip");
  });
});
