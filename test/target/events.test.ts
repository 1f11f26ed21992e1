// The one reader of GET /events: how each kind of answer is classified, and an answer that runs far past the
// discovered repository stopped there, as a failure when the repository was discovered whole and as undecided
// when it may not have been or may have grown since (not when one page alone holds more than the whole answer
// may); and the order answers are read in. The reader keeps a
// client and a baseline per worker, so each context is read through a fresh copy of the modules.

import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunContext } from "../../src/engine/context.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { undecidedBy } from "../../src/engine/suite.ts";
import type { EpcisEvent } from "../../src/model/types.ts";
import { writeBaselineFile } from "../../src/target/baseline-file.ts";
import type { EventsAnswer } from "../../src/target/events.ts";
import { queryDocument } from "../support/events.ts";

function event(n: number): EpcisEvent {
  return {
    type: "ObjectEvent",
    eventID: `urn:uuid:00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    action: "OBSERVE",
    eventTime: "2026-01-01T00:00:00.000Z",
    eventTimeZoneOffset: "+00:00",
    epcList: [`urn:epc:id:sgtin:0614141.107346.${n}`],
  };
}

const REPOSITORY = [1, 2, 3].map(event);
/** Pages served before the endless answer is given up on by the test server itself: the reader must stop first. */
const SERVER_PAGE_LIMIT = 50_000;
/** Events on each page of dense-endless: past twice the three discovered events and a thousand (1,006). */
const DENSE_PAGE_EVENTS = 1_100;

let server: Server;
let base: string;
let dir: string;
let pagesServed = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "tracecheck-answer-"));
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const what = url.searchParams.get("what");
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(body);
    };
    if (what === "moved") {
      // A server that puts a slash after /events, as some frameworks do, by a redirect keeping the query.
      res.writeHead(301, {
        location: `/events/?${url.search.slice(1).replace("what=moved", "what=arrived")}`,
      });
      return res.end();
    }
    if (what === "too-broad") return send(413, '{"error":"too broad"}');
    if (what === "bad") return send(400, '{"error":"bad"}');
    if (what === "later") return send(429, '{"error":"later"}');
    if (what === "html") {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end("<html></html>");
    }
    if (what === "empty-endless") {
      // Pages with no event, each linking to the next, without end.
      const page = Number(url.searchParams.get("page") ?? "0");
      pagesServed += 1;
      return send(200, JSON.stringify(queryDocument([])), {
        link: `</events?what=empty-endless&page=${page + 1}>; rel="next"`,
      });
    }
    if (what === "large") {
      // One page of some 6 MiB: more than the repository and its slack, and refused before it is parsed.
      pagesServed += 1;
      const big = { ...event(9), "ext:note": "x".repeat(6 * 1024 ** 2) };
      return send(200, JSON.stringify(queryDocument([big])));
    }
    if (what === "growing") {
      // Pages of one known event each, every one some 1.5 MiB and linking to the next: whole pages until the bytes
      // of the answer pass the repository's room, then one read only in part.
      const page = Number(url.searchParams.get("page") ?? "0");
      pagesServed += 1;
      const padded = { ...event(1 + (page % 3)), "ext:note": "y".repeat(1.5 * 1024 ** 2) };
      return send(200, JSON.stringify(queryDocument([padded])), {
        link: `</events?what=growing&page=${page + 1}>; rel="next"`,
      });
    }
    if (what === "endless-known") {
      // Each page holds the repository's three events again, a hundred in all, and links to the next, without end.
      const page = Number(url.searchParams.get("page") ?? "0");
      pagesServed += 1;
      const events = Array.from({ length: 100 }, (_, i) => REPOSITORY[i % 3] as EpcisEvent);
      const next: Record<string, string> = {};
      if (page < SERVER_PAGE_LIMIT) next.link = `</events?what=endless-known&page=${page + 1}>; rel="next"`;
      return send(200, JSON.stringify(queryDocument(events)), next);
    }
    if (what === "endless") {
      // Each page holds a hundred events never seen before and links to the next page, without end.
      const page = Number(url.searchParams.get("page") ?? "0");
      pagesServed += 1;
      const events = Array.from({ length: 100 }, (_, i) => event(1_000 + page * 100 + i));
      const next: Record<string, string> = {};
      if (page < SERVER_PAGE_LIMIT) next.link = `</events?what=endless&page=${page + 1}>; rel="next"`;
      return send(200, JSON.stringify(queryDocument(events)), next);
    }
    if (what === "dense-endless") {
      // Each page alone holds 1,100 events never seen before, more than the whole answer may, and links to the next.
      const page = Number(url.searchParams.get("page") ?? "0");
      pagesServed += 1;
      const events = Array.from({ length: DENSE_PAGE_EVENTS }, (_, i) =>
        event(1_000_000 + page * 10_000 + i),
      );
      return send(200, JSON.stringify(queryDocument(events)), {
        link: `</events?what=dense-endless&page=${page + 1}>; rel="next"`,
      });
    }
    if (what === "variants") {
      // The first event as the baseline holds it; the second with its members in another order; the third with a
      // member changed; and an event with no eventID.
      const [first, second, third] = REPOSITORY as [EpcisEvent, EpcisEvent, EpcisEvent];
      const reordered = Object.fromEntries(Object.entries(second).reverse()) as EpcisEvent;
      const changed = { ...third, action: "ADD" };
      const { eventID: _, ...anonymous } = event(7);
      return send(200, JSON.stringify(queryDocument([first, reordered, changed, anonymous as EpcisEvent])));
    }
    return send(200, JSON.stringify(queryDocument(REPOSITORY)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

let lastContext: RunContext | undefined;

/** A reader over a baseline of the repository's three events, discovered whole or not. */
async function readerFor(complete: boolean) {
  const baselineFile = path.join(dir, `baseline-${complete}.jsonl`);
  await writeBaselineFile(baselineFile, {
    method: "unfiltered",
    complete,
    note: complete ? "the unfiltered query" : "windows, some refused",
    events: REPOSITORY,
    requests: 1,
  });
  const ctx = {
    eventsBase: base,
    resolverBase: base,
    allowOrigins: [],
    timeoutMs: 30_000,
    concurrency: 4,
    ratePerSecond: 0,
    baselineFile,
  } as unknown as RunContext;
  vi.resetModules();
  const { queryEvents } = await import("../../src/target/events.ts");
  lastContext = ctx;
  return (q: string) => queryEvents(ctx, q);
}

/** A reader and the baseline as that reader holds it, from the same fresh copy of the modules. */
async function readerWithBaseline() {
  const read = await readerFor(true);
  const { loadBaseline } = await import("../../src/target/client.ts");
  const { knownEventReader } = await import("../../src/target/events.ts");
  const ctx = lastContext as RunContext;
  return { read, baseline: () => loadBaseline(ctx), remembered: () => knownEventReader(ctx).remembered };
}

function brokenOf(answer: EventsAnswer): Extract<EventsAnswer, { kind: "broken" }> {
  if (answer.kind !== "broken") throw new Error(`expected a broken answer, got ${answer.kind}`);
  return answer;
}

describe("readEventsAnswer", () => {
  it("tells events, a 413, another refusal, a 429 and a body that is not a query document apart", async () => {
    const read = await readerFor(true);
    const events = await read("");
    expect(events.kind).toBe("events");
    if (events.kind === "events")
      expect(events.events.map((e) => e.eventID)).toEqual(REPOSITORY.map((e) => e.eventID));
    expect((await read("what=too-broad")).kind).toBe("refused");
    expect((await read("what=bad")).kind).toBe("rejected");
    expect((await read("what=later")).kind).toBe("throttled");
    const html = brokenOf(await read("what=html"));
    expect(html.status).toBe(200);
    expect(html.paging).toBeUndefined();
  });

  it("follows a redirect of GET /events, as HTTP lets a server answer (spec 1: HTTP following REST)", async () => {
    const read = await readerFor(true);
    const answer = await read("what=moved");
    expect(answer.kind).toBe("events");
    if (answer.kind !== "events") return;
    expect(answer.events.map((e) => e.eventID)).toEqual(REPOSITORY.map((e) => e.eventID));
    expect(answer.pages[0]?.url).toBe(`${base}/events/?what=arrived`);
  });

  it.each([1, 2])(
    "holds an event served exactly as the baseline holds it as the baseline's own object, and any other as served (read %i times)",
    async (times) => {
      const { read, baseline, remembered } = await readerWithBaseline();
      let answer = await read("what=variants");
      for (let again = 1; again < times; again++) answer = await read("what=variants");
      if (answer.kind !== "events") throw new Error(`expected events, got ${answer.kind}`);
      // The first event's bytes are remembered, and a second read finds it by them.
      expect(remembered()).toBe(1);
      const known = baseline().events;
      const [same, reordered, changed, anonymous] = answer.events;
      expect(same).toBe(known[0]);
      // Equal as JSON, but not written alike: left as served, members in the order they came.
      expect(reordered).not.toBe(known[1]);
      expect(reordered).toEqual(known[1]);
      expect(Object.keys(reordered ?? {})).toEqual(Object.keys(known[1] ?? {}).reverse());
      expect(changed).not.toBe(known[2]);
      expect(changed?.action).toBe("ADD");
      expect(anonymous?.eventID).toBeUndefined();
      // The page's document holds the same objects as the answer's events.
      const page = answer.pages[0]?.json() as {
        epcisBody: { queryResults: { resultsBody: { eventList: unknown[] } } };
      };
      expect(page.epcisBody.queryResults.resultsBody.eventList[0]).toBe(known[0]);
    },
  );

  it("stops an answer that runs past twice the whole discovered repository and says so, as a decided failure", async () => {
    const read = await readerFor(true);
    pagesServed = 0;
    const answer = brokenOf(await read("what=endless-known"));
    expect(answer.paging).toBe("beyond-repository");
    expect(answer.message).toMatch(/the whole repository/);
    // Twice three events and a thousand more are 1,006: the reader stops on the eleventh page of a hundred.
    expect(pagesServed).toBe(11);
    expect(undecidedBy(exchangeEvidence(answer.exchange))).toBeUndefined();
  });

  it("leaves an answer past twice the whole repository undecided when it holds events discovery did not find", async () => {
    // A repository that grows while it is checked may have grown that far: the answer is not shown to be wrong.
    const read = await readerFor(true);
    pagesServed = 0;
    const answer = brokenOf(await read("what=endless"));
    expect(answer.paging).toBe("beyond-repository");
    expect(answer.message).toMatch(/may have outgrown since, as it holds events discovery did not find/);
    expect(pagesServed).toBe(11);
    expect(undecidedBy(exchangeEvidence(answer.exchange))).toMatch(/cut short/);
  });

  it("decides an answer one page of which alone holds more new events than the whole answer may", async () => {
    // A repository that grows while it is paged shows as pages that keep coming, not as one page holding more
    // than twice the whole repository and a thousand events: new events or not, that is not growth.
    const read = await readerFor(true);
    pagesServed = 0;
    const answer = brokenOf(await read("what=dense-endless"));
    expect(pagesServed).toBe(1);
    expect(answer.paging).toBe("beyond-repository");
    expect(answer.message).toContain(`that page alone holds ${DENSE_PAGE_EVENTS} events`);
    expect(answer.message).toMatch(/the whole repository/);
    expect(answer.message).not.toMatch(/may have outgrown/);
    expect(undecidedBy(exchangeEvidence(answer.exchange))).toBeUndefined();
  });

  it("leaves that answer undecided when the repository may not have been discovered whole", async () => {
    const read = await readerFor(false);
    const answer = brokenOf(await read("what=dense-endless"));
    expect(answer.paging).toBe("beyond-repository");
    expect(answer.message).toMatch(/may not be the whole repository/);
    expect(undecidedBy(exchangeEvidence(answer.exchange))).toMatch(/cut short/);
  });

  it("stops pages that hold nothing but never end, by their number", async () => {
    const read = await readerFor(true);
    pagesServed = 0;
    const answer = brokenOf(await read("what=empty-endless"));
    expect(answer.paging).toBe("beyond-repository");
    // Twice three events and a thousand more: no honest answer has more pages than that.
    expect(pagesServed).toBe(1_007);
  });

  it("weighs a page before holding it: one larger than the repository allows is not taken in", async () => {
    const read = await readerFor(true);
    pagesServed = 0;
    const answer = brokenOf(await read("what=large"));
    expect(pagesServed).toBe(1);
    // Read only one byte past the room the repository leaves (four times its bytes and 4 MiB), not its 6 MiB.
    const received = answer.exchange?.response?.bodyBytes ?? 0;
    expect(received).toBeLessThan(4.5 * 1024 ** 2);
    expect(answer.message).toContain(`more than ${received - 1} bytes`);
    // No page had ended, so not a paging defect: the answer itself is larger than the whole repository allows,
    // which the bytes that arrived show, so it is decided where the repository is known whole.
    expect(answer.paging).toBeUndefined();
    expect(answer.message).toMatch(/first page.*more than four times .* cannot be that large/);
    expect(answer.exchange?.response?.readStopped).toBe(true);
    expect(undecidedBy(exchangeEvidence(answer.exchange))).toBeUndefined();
  });

  it("leaves a first page that large undecided when the repository may not have been discovered whole", async () => {
    const read = await readerFor(false);
    const answer = brokenOf(await read("what=large"));
    expect(answer.paging).toBeUndefined();
    expect(answer.message).toMatch(/may not be the whole repository/);
    expect(answer.exchange?.response?.readStopped).toBeUndefined();
    expect(undecidedBy(exchangeEvidence(answer.exchange))).toMatch(/cut short/);
  });

  it("decides pages that run past the repository's bytes once some have been read whole", async () => {
    const read = await readerFor(true);
    pagesServed = 0;
    const answer = brokenOf(await read("what=growing"));
    expect(answer.paging).toBe("beyond-repository");
    expect(answer.message).toMatch(/more bytes than four times/);
    // Cut on purpose after pages read whole: what arrived decides, the verdict is not left open.
    expect(answer.exchange?.response?.readStopped).toBe(true);
    expect(undecidedBy(exchangeEvidence(answer.exchange))).toBeUndefined();
    expect(pagesServed).toBeLessThan(10);
  });

  it("leaves the same answer undecided when the repository may not have been discovered whole", async () => {
    const read = await readerFor(false);
    pagesServed = 0;
    const answer = brokenOf(await read("what=endless"));
    expect(answer.paging).toBe("beyond-repository");
    expect(answer.message).toMatch(/may not be the whole repository/);
    expect(pagesServed).toBe(11);
    expect(undecidedBy(exchangeEvidence(answer.exchange))).toMatch(/cut short/);
  });
});

describe("the order answers are read in", () => {
  it("numbers each answer when its request is sent and once it is read, in the run's order", async () => {
    const read = await readerFor(true);
    const [first, second] = await Promise.all([read(""), read("what=variants")]);
    const third = await read("");
    if (first.kind !== "events" || second.kind !== "events" || third.kind !== "events")
      throw new Error("expected three answers of events");
    // Both sent before either was read.
    expect(Math.max(first.sent, second.sent)).toBeLessThan(Math.min(first.read, second.read));
    expect(third.sent).toBeGreaterThan(Math.max(first.read, second.read));
    expect(third.read).toBeGreaterThan(third.sent);
  });
});
