// A report of one seed reads the same run after run, but for times and ports (CONTRACT.md: teams re-run tracecheck
// after an upgrade and diff the reports). A pass shows the evidence of its first recorded pass and a failure lists
// its evidence in recorded order, so a check that records from cases run at once must record in a fixed order, not
// in the order the answers come back. The embedded reference is checked twice with seed 1 as it is, and twice with
// faults that fail several requirements, and each pair of reports must be equal once normalised. The embedded
// reference answers requests sent at once mostly in the order they came, which hides such a check; so the reference
// is also checked twice behind a proxy that holds each answer back a few milliseconds, differently in each run, as a
// network would.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/engine/types.ts";
import { generateDataset } from "../../src/generate/index.ts";
import { resolveRunOptions } from "../../src/harness/options.ts";
import { runTracecheck } from "../../src/harness/run.ts";
import { startReference } from "../../src/reference/index.ts";
import { tempDir } from "../support/cli.ts";

// Two faults whose defects fail requirements of the resolver and of master data, each with evidence of its own.
const FAULTS = "res-lot-anchor-gtin,md-no-context";
// Six whole runs, one at a time; the bound only catches a hang on a loaded machine.
const RUNS = 120_000;
const KEY = "report-stable-key";
// A fault of GET /events that checks of other requirements meet in passing: the time probes at other offsets each
// note a finding for the bound at fault, which its requirement records after its own verdict.
const HELD_FAULTS = ["time-ignores-offset"];
/** The longest an answer is held back, in milliseconds: enough to reorder answers to requests sent at once. */
const MOST_HELD = 8;

let dir: string;
let remove: () => Promise<void>;
const reports = new Map<string, Report>();

const quiet = { out: () => {}, err: () => {}, color: false };

async function readReport(reportDir: string): Promise<Report> {
  return JSON.parse(await readFile(path.join(reportDir, "report.json"), "utf8")) as Report;
}

/** Checks the embedded reference with seed 1, in this process, and reads the report.json the run wrote. */
async function run(label: string, faults?: string): Promise<Report> {
  const reportDir = path.join(dir, label);
  const flags = { seed: "1", "report-dir": reportDir, quiet: true, ...(faults ? { faults } : {}) };
  await runTracecheck(resolveRunOptions(flags, {}, {}), quiet);
  return readReport(reportDir);
}

/** Milliseconds to hold the answer to `url` back: fixed by the URL and `salt`, so each salt orders answers its way. */
function heldFor(url: string, salt: string): number {
  return createHash("sha256").update(`${salt} ${url}`).digest()[0]! % MOST_HELD;
}

/**
 * Checks a reference holding seed 1's dataset, with `faults`, through a proxy that holds each answer back for
 * heldFor(url, salt). The reference names the proxy in its links, so that every request the run makes passes it.
 */
async function runHeldBack(label: string, salt: string, faults: string[]): Promise<Report> {
  let upstream = "";
  const proxy = http.createServer((req, res) => {
    const forwarded = http.request(
      new URL(req.url ?? "/", upstream),
      { method: req.method, headers: req.headers, agent: false },
      (answer) => {
        const body: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => body.push(chunk));
        answer.on("end", () => {
          setTimeout(
            () => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(body));
            },
            heldFor(req.url ?? "", salt),
          );
        });
      },
    );
    forwarded.on("error", () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  try {
    const ref = await startReference({
      dataset: generateDataset({ seed: 1, events: 200 }),
      apiKeys: [KEY],
      faults,
      origin,
    });
    upstream = ref.listensOn;
    try {
      const reportDir = path.join(dir, label);
      const flags = { target: origin, "api-key": KEY, seed: "1", "report-dir": reportDir, quiet: true };
      await runTracecheck(resolveRunOptions(flags, {}, {}), quiet);
      return await readReport(reportDir);
    } finally {
      await ref.close();
    }
  } finally {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
  }
}

beforeAll(async () => {
  ({ dir, remove } = await tempDir("report-stable"));
  for (const label of ["plain-1", "plain-2"]) reports.set(label, await run(label));
  for (const label of ["faults-1", "faults-2"]) reports.set(label, await run(label, FAULTS));
  for (const salt of ["1", "2"])
    reports.set(`held-${salt}`, await runHeldBack(`held-${salt}`, salt, HELD_FAULTS));
}, RUNS);
afterAll(() => remove());

const RUN_TIME = "<run time>";
const DAY_MS = 86_400_000;

/**
 * A date-time as a report writes it: in JSON, in a URL (":" and "+" percent-encoded), or cut off at the end of a body
 * excerpt. Group 1 is its date.
 */
const DATE_TIME = /(\d{4}-\d{2}-\d{2})T(?:\d|:|\.|%3A|%2B|Z|[+-](?=\d))*/gi;
/** An HTTP date (RFC 9110 5.6.7), as a Date header writes it. */
const HTTP_DATE = /(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT/g;

/**
 * The report as two runs of one seed must write it alike: without its start and duration, with every port on
 * 127.0.0.1 the same, and every date-time of the run's own day replaced. The reference stamps its events'
 * recordTime when it loads them, so these times, the bounds the checks build from them and the Date headers differ
 * from run to run; a time of the run written at another UTC offset may fall on the day before or after.
 */
function normalised(report: Report): unknown {
  const { startedAt, durationMs: _, ...rest } = report;
  const started = Date.parse(startedAt);
  const days = new Set([-1, 0, 1].map((d) => new Date(started + d * DAY_MS).toISOString().slice(0, 10)));
  const text = JSON.stringify(rest)
    .replace(/\b127\.0\.0\.1:\d+/g, "127.0.0.1:PORT")
    .replace(DATE_TIME, (written, date: string) => (days.has(date) ? RUN_TIME : written))
    .replace(HTTP_DATE, (written) =>
      days.has(new Date(Date.parse(written)).toISOString().slice(0, 10)) ? RUN_TIME : written,
    );
  return JSON.parse(text);
}

describe("normalised", () => {
  it("replaces the run's own times in every spelling, and leaves the dataset's times alone", () => {
    const evidence = {
      request: {
        method: "GET",
        url: "http://127.0.0.1:41234/events?GE_recordTime=2026-11-28T23%3A50%3A00.330500-05%3A00",
      },
      response: { status: 200, headers: { date: "Sun, 29 Nov 2026 04:50:01 GMT" } },
      actual: ["2026-11-29T04:50:00.330500Z", "2026-11-29T13:50:00.3305+09:00", "2026-11-29T04:50:00.33"],
      expected: "2024-02-23T10:34:26-05:00",
    };
    const report = {
      startedAt: "2026-11-29T04:49:59.900Z",
      durationMs: 700,
      requirements: [{ id: "X", evidence: [evidence] }],
    } as unknown as Report;
    expect(normalised(report)).toEqual({
      requirements: [
        {
          id: "X",
          evidence: [
            {
              request: { method: "GET", url: `http://127.0.0.1:PORT/events?GE_recordTime=${RUN_TIME}` },
              response: { status: 200, headers: { date: RUN_TIME } },
              actual: [RUN_TIME, RUN_TIME, RUN_TIME],
              expected: "2024-02-23T10:34:26-05:00",
            },
          ],
        },
      ],
    });
  });
});

describe("two runs of one seed", () => {
  it("write the same report of the reference as it is", () => {
    const [first, second] = [reports.get("plain-1")!, reports.get("plain-2")!];
    expect(first.exitCode).toBe(0);
    expect(normalised(second)).toEqual(normalised(first));
  });

  it("write the same report of the reference with faults, failures and their evidence in the same order", () => {
    const [first, second] = [reports.get("faults-1")!, reports.get("faults-2")!];
    const failed = first.requirements.filter((r) => r.status === "fail");
    expect(failed.length).toBeGreaterThan(1);
    expect(normalised(second)).toEqual(normalised(first));
  });

  it("write the same report when the answers come back in another order", () => {
    const [first, second] = [reports.get("held-1")!, reports.get("held-2")!];
    expect(first.requirements.find((r) => r.id === "EVT-TIME-GE-RECORD")?.status).toBe("fail");
    expect(normalised(second)).toEqual(normalised(first));
  });
});
