// One defect, one failure, for a filter of GET /events that breaks (spec 4.1): a proxy in front of the reference
// answers 500 to some queries. Where MATCH_anyEPC on SSCCs breaks, its own requirements (EVT-EPC-*) fail, and what
// meets the broken filter on its way (the trace-back's hops, pipe-joined and combined queries whose part is such
// an SSCC) is blocked or inconclusive; where only the pipe-joined or combined queries break, every value alone
// answering, it is EVT-PIPE-OR's and EVT-AND's own failure.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import { type RunningReference, startReference } from "../../src/reference/index.ts";
import { startServer, type TestServer } from "../http/servers.ts";
import { runForReport, tempDir, verdictIn } from "../support/cli.ts";

// Runs of one or two classes; the bound only catches a hang on a loaded machine.
const RUN = 300_000;

/** Which GET /events queries the proxy answers 500, by their parameters. */
type Breaks = (params: URLSearchParams) => boolean;

const SSCC = /^(urn:epc:id:sscc:|https:\/\/id\.gs1\.org\/00\/)/;
const ssccQueries: Breaks = (params) =>
  (params.get("MATCH_anyEPC") ?? "").split("|").some((v) => SSCC.test(v));
const pipeJoined: Breaks = (params) => [...params.values()].some((v) => v.includes("|"));
const combined: Breaks = (params) => new Set(params.keys()).size > 1;

let breaks: Breaks = () => false;
/** Which GET /events queries the proxy refuses with 413 as too broad, as spec 7 lets a sender. */
let tooBroad: Breaks = () => false;
let proxy: TestServer;
let reference: RunningReference;
let dir: string;
let remove: () => Promise<void>;

async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", proxy.origin);
  if (url.pathname.endsWith("/events") && breaks(url.searchParams)) {
    res.writeHead(500, { "content-type": "text/plain" });
    res.end("internal error");
    return;
  }
  if (url.pathname.endsWith("/events") && tooBroad(url.searchParams)) {
    res.writeHead(413, { "content-type": "text/plain" });
    res.end("too broad");
    return;
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host") headers[k] = v;
  const upstream = await fetch(`${reference.listensOn}${req.url ?? "/"}`, { headers, redirect: "manual" });
  const out: Record<string, string> = {};
  upstream.headers.forEach((v, k) => {
    if (k !== "content-length" && k !== "content-encoding" && k !== "transfer-encoding") out[k] = v;
  });
  res.writeHead(upstream.status, out);
  res.end(Buffer.from(await upstream.arrayBuffer()));
}

beforeAll(async () => {
  ({ dir, remove } = await tempDir("broken-filter-runs"));
  proxy = await startServer((req, res) => {
    forward(req, res).catch((err: unknown) => {
      res.writeHead(502);
      res.end(String(err));
    });
  });
  // The reference writes the proxy's origin into the links it serves, so that the harness stays behind the proxy.
  reference = await startReference({
    dataset: generateDataset({ seed: 1, events: 200 }),
    origin: proxy.origin,
  });
}, RUN);
afterAll(async () => {
  await proxy?.close();
  await reference?.close();
  await remove();
});

function run(label: string, suites: string) {
  return runForReport(dir, label, ["--seed", "1", "--quiet", "--target", proxy.origin, "--suite", suites]);
}

describe("MATCH_anyEPC on SSCCs answered 500", () => {
  let events: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    breaks = ssccQueries;
    events = await run("sscc-events", "events,workflow");
  }, RUN);

  it("fails the filter's own requirements", () => {
    expect(events.code, events.stderr).toBe(1);
    expect(verdictIn(events.report, "EVT-EPC-EPCLIST").status).toBe("fail");
  });

  it("blocks FLOW-TRACEBACK by them: its hop on an SSCC got no usable answer", () => {
    const traceBack = verdictIn(events.report, "FLOW-TRACEBACK");
    expect(traceBack.status).toBe("skip");
    expect(traceBack.blockedBy).toMatch(/^EVT-EPC-/);
    expect(traceBack.reason).toContain("answered status 500");
  });

  it("leaves EVT-PIPE-OR and EVT-AND inconclusive on the cases with a part on an SSCC", () => {
    for (const id of ["EVT-PIPE-OR", "EVT-AND"]) {
      const relation = verdictIn(events.report, id);
      expect(relation.status, id).not.toBe("fail");
      expect(relation.reason, id).toContain("a part of the query got no answer of its own");
    }
  });

  it(
    "still fails FLOW-TRACEBACK where no requirement of the filter is judged in the run",
    async () => {
      breaks = ssccQueries;
      const r = await run("sscc-workflow", "workflow");
      expect(r.code, r.stderr).toBe(1);
      const traceBack = verdictIn(r.report, "FLOW-TRACEBACK");
      expect(traceBack.status).toBe("fail");
      expect(traceBack.reason).toContain("answered status 500");
    },
    RUN,
  );
});

describe("only the pipe-joined or combined queries answered 500, every part alone answering", () => {
  it.each([
    ["EVT-PIPE-OR", "pipe", pipeJoined],
    ["EVT-AND", "and", combined],
  ] as const)(
    "fails %s",
    async (id, label, broken) => {
      breaks = broken;
      const r = await run(label, "events");
      expect(r.code, r.stderr).toBe(1);
      const relation = verdictIn(r.report, id);
      expect(relation.status).toBe("fail");
      expect(relation.reason).toContain("got no usable answer");
    },
    RUN,
  );
});

describe("the combined queries answered 500, their filters alone refused with 413 as too broad", () => {
  it(
    "fails EVT-AND: a part refused as too broad explains no failure of the whole",
    async () => {
      breaks = combined;
      // Every query of one filter is refused as too broad; the unfiltered one, discovery's, is answered.
      tooBroad = (params) => new Set(params.keys()).size === 1;
      try {
        const r = await run("and-parts-413", "events");
        expect(r.code, r.stderr).toBe(1);
        const relation = verdictIn(r.report, "EVT-AND");
        expect(relation.status).toBe("fail");
        expect(relation.reason).toContain("got no usable answer");
      } finally {
        tooBroad = () => false;
      }
    },
    RUN,
  );
});
