// A pass of the core-events class carries the answer that serves the event it judged (ARCHITECTURE.md "Evidence or
// it did not happen"), also where no identifier selects the event or the narrow query on one does not serve it
// again: the window of the event's own eventTime, then the unfiltered query, are asked for it. Only a target that
// serves the event to none of them leaves the pass without an exchange, and its note says so.

import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scopeOf } from "../../src/engine/run-scope.ts";
import type { Checks } from "../../src/engine/suite.ts";
import type { Evidence } from "../../src/engine/types.ts";
import type { EpcisEvent } from "../../src/model/types.ts";
import { writeBaselineFile } from "../../src/target/baseline-file.ts";
import { checkEvery } from "../../suites/core-events/support/served.ts";
import { queryDocument } from "../support/events.ts";
import { testRunContext } from "../support/run-context.ts";

/** An event no EPC, class or transformationID selects: only its eventTime or the unfiltered query serve it. */
const ANONYMOUS: EpcisEvent = {
  type: "ObjectEvent",
  eventID: "urn:uuid:00000000-0000-4000-8000-000000000001",
  action: "OBSERVE",
  eventTime: "2026-01-01T00:00:00.5-05:00",
  eventTimeZoneOffset: "-05:00",
  bizStep: "https://ref.gs1.org/cbv/BizStep-shipping",
};

/** An event with an EPC, which the narrow query on that EPC may or may not serve again. */
const TAGGED: EpcisEvent = {
  type: "ObjectEvent",
  eventID: "urn:uuid:00000000-0000-4000-8000-000000000002",
  action: "OBSERVE",
  eventTime: "2026-01-02T00:00:00Z",
  eventTimeZoneOffset: "+00:00",
  epcList: ["urn:epc:id:sgtin:0614141.107346.2"],
};

/** How the test server answers, set by each test: by the kind of query asked. */
interface Behaviour {
  epc: "serve" | "empty";
  window: "serve" | "refuse";
  unfiltered: "serve" | "empty";
}

let server: Server;
let base: string;
let dir: string;
let behaviour: Behaviour;
const asked: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "tracecheck-core-served-"));
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    asked.push(url.search);
    const send = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(body);
    };
    const all = [ANONYMOUS, TAGGED];
    if (url.searchParams.has("MATCH_anyEPC")) {
      return send(200, JSON.stringify(queryDocument(behaviour.epc === "serve" ? [TAGGED] : [])));
    }
    if (url.searchParams.has("GE_eventTime")) {
      if (behaviour.window === "refuse") return send(400, '{"error":"no windows here"}');
      // The window the harness asks is the event's own instant in UTC, one tenth of a second wide.
      const ge = url.searchParams.get("GE_eventTime");
      const lt = url.searchParams.get("LT_eventTime");
      const hit = ge === "2026-01-01T05:00:00.5Z" && lt === "2026-01-01T05:00:00.6Z";
      return send(200, JSON.stringify(queryDocument(hit ? [ANONYMOUS] : [])));
    }
    return send(200, JSON.stringify(queryDocument(behaviour.unfiltered === "serve" ? all : [])));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

interface Verdict {
  status: string;
  note?: string;
  evidence?: Evidence;
}

function recordingChecks(verdicts: Verdict[]): Checks {
  const record =
    (status: string) =>
    (note?: string, evidence?: Evidence): void => {
      verdicts.push({ status, ...(note === undefined ? {} : { note }), ...(evidence ? { evidence } : {}) });
    };
  const checks: Checks = {
    id: "CORE-TEST",
    pass: record("pass"),
    fail: record("fail"),
    warn: record("warn"),
    skip: record("skip"),
    blocked: (byId, why) => record("skip")(`blocked by ${String(byId)}: ${why}`),
    failUnlessBlocked: (_byId, reason, evidence) => record("fail")(reason, evidence),
    error: record("error"),
    for: () => checks,
  };
  return checks;
}

/** Judges a baseline of one event by a rule every event holds, as the core-events checks do. */
async function passOver(event: EpcisEvent, how: Behaviour): Promise<Verdict[]> {
  behaviour = how;
  asked.length = 0;
  const baselineFile = path.join(
    dir,
    `${event.eventID?.slice(-1)}-${how.epc}-${how.window}-${how.unfiltered}.jsonl`,
  );
  await writeBaselineFile(baselineFile, {
    method: "unfiltered",
    complete: true,
    note: "the unfiltered query",
    events: [event],
    requests: 1,
  });
  const ctx = testRunContext(base, base, { baselineFile, classes: ["core-events"] });
  const verdicts: Verdict[] = [];
  try {
    await checkEvery(recordingChecks(verdicts), ctx, {
      rule: () => undefined,
      summary: (count, total) => `${count} of ${total}`,
      shown: (e) => `event ${e.eventID} as judged`,
    });
  } finally {
    await scopeOf(ctx).client?.close();
  }
  return verdicts;
}

function onlyPass(verdicts: Verdict[]): Verdict {
  expect(verdicts.map((v) => v.status)).toEqual(["pass"]);
  return verdicts[0]!;
}

describe("a core-events pass shows the answer that serves the event it judged", () => {
  it("an event no identifier selects is shown by the window of its own eventTime", async () => {
    const pass = onlyPass(await passOver(ANONYMOUS, { epc: "empty", window: "serve", unfiltered: "serve" }));
    const url = new URL(pass.evidence?.request?.url ?? "http://none/");
    expect(url.searchParams.get("GE_eventTime")).toBe("2026-01-01T05:00:00.5Z");
    expect(url.searchParams.get("LT_eventTime")).toBe("2026-01-01T05:00:00.6Z");
    expect(pass.evidence?.response?.status).toBe(200);
    expect(pass.evidence?.actual).toEqual(ANONYMOUS);
    expect(pass.evidence?.message).toBe(`event ${ANONYMOUS.eventID} as judged`);
  });

  it("the narrow query is shown when it serves the event, and nothing wider is asked", async () => {
    const pass = onlyPass(await passOver(TAGGED, { epc: "serve", window: "serve", unfiltered: "serve" }));
    expect(new URL(pass.evidence?.request?.url ?? "http://none/").searchParams.has("MATCH_anyEPC")).toBe(
      true,
    );
    expect(asked).toHaveLength(1);
  });

  it("an event its narrow query does not serve, where windows are refused, is shown by the unfiltered query", async () => {
    const pass = onlyPass(await passOver(TAGGED, { epc: "empty", window: "refuse", unfiltered: "serve" }));
    const url = new URL(pass.evidence?.request?.url ?? "http://none/");
    expect(`${url.pathname}${url.search}`).toBe("/events");
    expect(pass.evidence?.response?.status).toBe(200);
    expect(pass.evidence?.actual).toEqual(TAGGED);
    expect(pass.note).not.toContain("no query served");
  });

  it("a target that serves the event to no query leaves the pass without an exchange, and its note says so", async () => {
    const pass = onlyPass(await passOver(ANONYMOUS, { epc: "empty", window: "refuse", unfiltered: "empty" }));
    expect(pass.evidence).toBeUndefined();
    expect(pass.note).toContain(`no query served ${ANONYMOUS.eventID} again`);
  });
});
