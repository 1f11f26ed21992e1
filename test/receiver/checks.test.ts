// The receiver class's checks on recordings made by hand: each rule with a request that keeps it and one that
// breaks it, so that every verdict is shown to be able to go either way. The recordings are judged as a session
// judges them: the receiver suite files run by the engine, the recording in the run's context, and the master
// data the sender's link sets offer asked of a resolver that answers the product's link set.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReceiverRecording, RunContext } from "../../src/engine/context.ts";
import { runSuites } from "../../src/engine/engine.ts";
import { loadRegistry } from "../../src/engine/registry.ts";
import { aggregate, type CheckVerdict } from "../../src/engine/verdicts.ts";
import type { RecordedExchange } from "../../src/http/recorded.ts";
import type { EpcisEvent } from "../../src/model/index.ts";
import { REPO_ROOT } from "../support/cli.ts";
import { testRunContext } from "../support/run-context.ts";

const KEY = "key-0123456789abcdef";
/** The sender's origin: the resolver the grading asks for link sets, where the recorded requests went. */
let BASE = "";
const ITEM = "https://id.gs1.org/01/09506000134352/21/A1";
const LOT_CLASS = "https://id.gs1.org/01/09506000134352/10/L1";
const SSCC = "https://id.gs1.org/00/195060000000000012";
const GTIN = "https://id.gs1.org/01/09506000134352";
const ENC = encodeURIComponent;

const EVENTS: EpcisEvent[] = [
  { type: "ObjectEvent", eventID: "e1", action: "ADD", eventTime: "2024-01-01T00:00:00Z", epcList: [ITEM] },
  {
    type: "ObjectEvent",
    eventID: "e2",
    action: "OBSERVE",
    eventTime: "2024-01-02T00:00:00Z",
    epcList: [ITEM],
  },
  {
    type: "AggregationEvent",
    eventID: "e3",
    action: "ADD",
    eventTime: "2024-01-03T00:00:00Z",
    parentID: SSCC,
    childEPCs: [ITEM],
  },
  {
    type: "ObjectEvent",
    eventID: "e4",
    action: "OBSERVE",
    eventTime: "2024-01-04T00:00:00Z",
    epcList: [SSCC],
  },
  {
    type: "ObjectEvent",
    eventID: "e5",
    action: "ADD",
    eventTime: "2024-01-05T00:00:00Z",
    quantityList: [{ epcClass: LOT_CLASS, quantity: 1 }],
  },
];

function linkset(): string {
  return JSON.stringify({
    linkset: [
      {
        anchor: ITEM,
        "https://ref.gs1.org/voc/epcis": [
          { href: `${BASE}/events?MATCH_anyEPC=${ENC(ITEM)}`, title: "events" },
        ],
      },
    ],
  });
}

function productLinkset(): string {
  return JSON.stringify({
    linkset: [
      { anchor: GTIN, "https://ref.gs1.org/voc/masterData": [{ href: `${BASE}/md/01/09506000134352` }] },
    ],
  });
}

let resolver: Server;

beforeAll(async () => {
  // Of all the trace names, the sender's link sets offer master data for the product alone.
  resolver = createServer((request, response) => {
    if (request.url === "/01/09506000134352?linkType=linkset") {
      response.writeHead(200, { "content-type": "application/linkset+json" }).end(productLinkset());
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => resolver.listen(0, "127.0.0.1", resolve));
  BASE = `http://127.0.0.1:${(resolver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => resolver.close(resolve));
});

function page(ids: string[]): string {
  const eventList = EVENTS.filter((e) => ids.includes(e.eventID!));
  return JSON.stringify({
    type: "EPCISQueryDocument",
    epcisBody: { queryResults: { resultsBody: { eventList } } },
  });
}

let seq = 0;
function exchange(
  rawUrl: string,
  opts: Partial<RecordedExchange> & { key?: string | null } = {},
): RecordedExchange {
  const { key, ...rest } = opts;
  const headers: [string, string][] = [["host", "127.0.0.1:4000"]];
  if (key !== null) headers.push(["X-API-Key", key ?? KEY]);
  return {
    seq: seq++,
    at: 0,
    listener: "shared",
    method: "GET",
    rawUrl,
    rawHeaders: headers,
    status: 200,
    responseHeaders: {},
    ...rest,
  };
}

/** A receiver that does everything right: resolves, queries, fetches the master data. */
function goodSession(): RecordedExchange[] {
  return [
    exchange(`/01/09506000134352/21/A1?linkType=linkset`, { responseBody: linkset() }),
    exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, { responseBody: page(["e1", "e2", "e3"]) }),
    exchange(`/events?MATCH_anyEPC=${ENC(SSCC)}%7C${ENC(ITEM)}`, {
      responseBody: page(["e1", "e2", "e3", "e4"]),
    }),
    exchange(`/01/09506000134352?linkType=linkset`, { responseBody: productLinkset() }),
    exchange(`/md/01/09506000134352`, { responseBody: "{}" }),
  ];
}

/** A session as its recording reaches the checks, and the bases of the sender it was recorded at. */
interface Recorded {
  exchanges: RecordedExchange[];
  eventsBase?: string;
  resolverBase?: string;
  keyRequired?: ReceiverRecording["keyRequired"];
}

function recording(exchanges: RecordedExchange[], more: Omit<Recorded, "exchanges"> = {}): Recorded {
  return { exchanges, ...more };
}

/** The verdicts the receiver class's checks record over a session, run by the engine as a session runs them. */
async function grade(rec: Recorded): Promise<CheckVerdict[]> {
  const ctx: RunContext = testRunContext(rec.eventsBase ?? BASE, rec.resolverBase ?? BASE, {
    classes: ["receiver"],
    apiKey: KEY,
    receiver: {
      exchanges: rec.exchanges,
      task: ITEM,
      events: EVENTS,
      keyRequired: rec.keyRequired ?? { events: true, resolver: true },
    },
  });
  const result = await runSuites(ctx, REPO_ROOT);
  expect(result.errors).toEqual([]);
  return result.verdicts;
}

async function statuses(rec: Recorded): Promise<Record<string, string>> {
  const registry = await loadRegistry();
  const verdicts = await grade(rec);
  const out: Record<string, string> = {};
  for (const req of registry.requirements.filter((r) => r.class === "receiver")) {
    out[req.id] = aggregate(req, verdicts, "none").status;
  }
  return out;
}

describe("the receiver checks", () => {
  it("pass a receiver that resolves, queries with %7C and fetches master data at the href it was given", async () => {
    const s = await statuses(recording(goodSession()));
    for (const id of [
      "RCV-KEY-HEADER",
      "RCV-KEY-NOT-IN-URL",
      "RCV-PIPE-JOINED",
      "RCV-NO-REPEATED-KEY",
      "RCV-RESOLVER-PATH",
      "RCV-LINKSET",
      "RCV-CANONICAL-REBASE",
      "RCV-EPCIS-LINK",
      "RCV-MASTERDATA-HREF",
      "RCV-PRODUCT-EVENTS",
      "RCV-PRODUCT-MASTERDATA",
      "RCV-TRACE-EVENTS",
      "RCV-TRACE-MASTERDATA",
    ]) {
      expect(s[id], id).toBe("pass");
    }
    expect(s["RCV-TIME-UTC"]).toBe("skip");
    expect(s["RCV-PAGING"]).toBe("skip");
    expect(s["RCV-413-NARROW"]).toBe("skip");
  });

  it("take an escaped unreserved character as the character itself (RFC 3986 6.2.2.2)", async () => {
    const session = goodSession();
    // The master data href and the query interface's path, each with a letter escaped: the same URLs.
    session[1] = exchange(`/%65vents?MATCH_anyEPC=${ENC(ITEM)}`, { responseBody: page(["e1", "e2", "e3"]) });
    session[4] = exchange(`/md/01/0950600013435%32`, { responseBody: "{}" });
    const s = await statuses(recording(session));
    for (const id of [
      "RCV-EPCIS-LINK",
      "RCV-MASTERDATA-HREF",
      "RCV-PRODUCT-EVENTS",
      "RCV-PRODUCT-MASTERDATA",
    ]) {
      expect(s[id], id).toBe("pass");
    }
  });

  it("block RCV-PRODUCT-EVENTS on the wire defect of a refused broad query that selected the product's events", async () => {
    // The receiver's only query is a broad one, sent with a repeated key and refused: one defect.
    const session = goodSession().filter((x) => !x.rawUrl.startsWith("/events"));
    session.splice(
      1,
      0,
      exchange("/events?GE_eventTime=2000-01-01T00%3A00%3A00Z&GE_eventTime=2000-01-02T00%3A00%3A00Z", {
        status: 400,
        responseBody: "{}",
      }),
    );
    const s = await statuses(recording(session));
    expect(s["RCV-NO-REPEATED-KEY"]).toBe("fail");
    expect(s["RCV-PRODUCT-EVENTS"]).toBe("skip");
  });

  it("block RCV-PRODUCT-EVENTS on RCV-PIPE-JOINED where a comma-joined query was answered without the events it meant", async () => {
    // The sender read the comma-joined value as one value and answered no event: one defect, the comma.
    const session = goodSession().filter((x) => !x.rawUrl.startsWith("/events"));
    session.splice(
      1,
      0,
      exchange(`/events?MATCH_anyEPC=${ENC(SSCC)},${ENC(ITEM)}`, { responseBody: page([]) }),
    );
    const s = await statuses(recording(session));
    expect(s["RCV-PIPE-JOINED"]).toBe("fail");
    expect(s["RCV-PRODUCT-EVENTS"]).toBe("skip");
  });

  it("name as the block of RCV-PRODUCT-EVENTS only the defect of the query that meant the missing events", async () => {
    // A wrong key on a query for another identifier takes nothing from the product: the comma is the one defect.
    const session = goodSession().filter((x) => !x.rawUrl.startsWith("/events"));
    session.splice(
      1,
      0,
      exchange(`/events?MATCH_anyEPC=${ENC(GTIN)}`, { key: "another", status: 401, responseBody: "{}" }),
      exchange(`/events?MATCH_anyEPC=${ENC(SSCC)},${ENC(ITEM)}`, { responseBody: page([]) }),
    );
    const verdicts = await grade(recording(session));
    const blocks = verdicts
      .filter((v) => v.id === "RCV-PRODUCT-EVENTS" && v.status === "skip")
      .map((v) => v.blockedBy);
    expect(blocks).toEqual([["RCV-PIPE-JOINED"]]);
  });

  it("take %7c in lower case as the same escape as %7C", async () => {
    const session = goodSession();
    session[2] = exchange(`/events?MATCH_anyEPC=${ENC(SSCC)}%7c${ENC(ITEM)}`, { responseBody: page(["e4"]) });
    expect((await statuses(recording(session)))["RCV-PIPE-JOINED"]).toBe("pass");
  });

  it("fail a raw pipe, a repeated key, a missing or wrong key, and warn on a key in the URL", async () => {
    const session = goodSession();
    session.push(exchange(`/events?MATCH_anyEPC=${ENC(SSCC)}|${ENC(ITEM)}`));
    session.push(exchange(`/events?MATCH_anyEPC=${ENC(SSCC)}&MATCH_anyEPC=${ENC(ITEM)}`));
    session.push(exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, { key: null }));
    session.push(exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, { key: "another" }));
    session.push(exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}&api_key=${KEY}`));
    const s = await statuses(recording(session));
    expect(s["RCV-PIPE-JOINED"]).toBe("fail");
    expect(s["RCV-NO-REPEATED-KEY"]).toBe("fail");
    expect(s["RCV-KEY-HEADER"]).toBe("fail");
    // Spec 5.5 fixes only where the key is placed: a copy in the URL is a SHOULD.
    expect(s["RCV-KEY-NOT-IN-URL"]).toBe("warn");
  });

  it("fail values joined by a comma, raw or encoded, and not a single value that holds a comma", async () => {
    const URN = "urn:epc:id:sscc:9506000.0000000001";
    for (const query of [
      `MATCH_anyEPC=${ENC(SSCC)},${ENC(ITEM)}`,
      `MATCH_anyEPC=${ENC(SSCC)}%2C${ENC(ITEM)}`,
      `MATCH_anyEPC=${ENC(`${URN},${ITEM}`)}`,
      `EQ_bizStep=${ENC("urn:epcglobal:cbv:bizstep:shipping")},${ENC("https://ref.gs1.org/cbv/BizStep-receiving")}`,
    ]) {
      const session = [...goodSession(), exchange(`/events?${query}`)];
      expect((await statuses(recording(session)))["RCV-PIPE-JOINED"], query).toBe("fail");
    }
    // One URI whose serial holds a comma is one value: nothing is joined.
    const serial = ENC("https://id.gs1.org/01/09506000134352/21/A,B");
    for (const query of [`MATCH_anyEPC=${serial}`, `MATCH_anyEPC=${serial}%7C${ENC(ITEM)}`]) {
      const session = [...goodSession(), exchange(`/events?${query}`)];
      expect((await statuses(recording(session)))["RCV-PIPE-JOINED"], query).toBe("pass");
    }
    const alone = [goodSession()[0]!, exchange(`/events?MATCH_anyEPC=${serial}`)];
    expect((await statuses(recording(alone)))["RCV-PIPE-JOINED"]).toBe("skip");
  });

  it("judge repeats of the nine parameters only: a key beyond them is not shown by the spec", async () => {
    const session = goodSession();
    session.push(exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}&vendorTag=a&vendorTag=b`));
    expect((await statuses(recording(session)))["RCV-NO-REPEATED-KEY"]).toBe("pass");
    session.push(exchange(`/events?EQ_bizStep=shipping&vendorTag=a&EQ_bizStep=receiving`));
    expect((await statuses(recording(session)))["RCV-NO-REPEATED-KEY"]).toBe("fail");
  });

  it("warn, not fail, a request without the key where the sender does not ask it (spec 4.2)", async () => {
    const session = goodSession();
    session[0] = exchange(`/01/09506000134352/21/A1?linkType=linkset`, {
      responseBody: linkset(),
      key: null,
    });
    session[4] = exchange(`/md/01/09506000134352`, { responseBody: "{}", key: null });
    const open = await statuses(recording(session, { keyRequired: { events: true, resolver: false } }));
    expect(open["RCV-KEY-HEADER"]).toBe("warn");
    const guarded = await statuses(recording(session, { keyRequired: { events: true, resolver: true } }));
    expect(guarded["RCV-KEY-HEADER"]).toBe("fail");
    session[1] = exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, { responseBody: page(["e1"]), key: null });
    const eventsGuarded = await statuses(
      recording(session, { keyRequired: { events: true, resolver: false } }),
    );
    expect(eventsGuarded["RCV-KEY-HEADER"]).toBe("fail");
    // A wrong key is a failure wherever it goes.
    session[1] = exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, { responseBody: page(["e1"]) });
    session[0] = exchange(`/01/09506000134352/21/A1?linkType=linkset`, {
      responseBody: linkset(),
      key: "another",
    });
    const wrong = await statuses(recording(session, { keyRequired: { events: true, resolver: false } }));
    expect(wrong["RCV-KEY-HEADER"]).toBe("fail");
  });

  it("keep the key out of the evidence of a failure", async () => {
    const verdicts = await grade(
      recording([...goodSession(), exchange(`/events?key=${KEY}`, { key: null })]),
    );
    const text = JSON.stringify(verdicts);
    expect(text).not.toContain(KEY);
    expect(verdicts.some((v) => v.id === "RCV-KEY-NOT-IN-URL" && v.status === "warn")).toBe(true);
  });

  it.each([
    ["2024-01-01T00:00:00Z", "pass"],
    ["2024-01-01T00:00:00.5%2B00:00", "pass"],
    ["2024-01-01T02:00:00%2B02:00", "fail"],
    ["2024-01-01T00:00:00", "fail"],
    ["2024-01-01T00:00:00+00:00", "fail"],
  ])("judge the time bound %s: %s", async (bound, status) => {
    const session = [...goodSession(), exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}&GE_eventTime=${bound}`)];
    expect((await statuses(recording(session)))["RCV-TIME-UTC"]).toBe(status);
  });

  it("fail an alphabetic AI and a path outside the six forms, and a link set asked without linkType=linkset", async () => {
    const session = [
      ...goodSession(),
      exchange(`/gtin/09506000134352?linkType=linkset`),
      exchange(`/414/9506000134352/254/A?linkType=linkset`),
    ];
    expect((await statuses(recording(session)))["RCV-RESOLVER-PATH"]).toBe("fail");
    for (const query of ["linkType=linkSet", "linkType=all", "linkType=linkset&linkType=linkset"]) {
      const other = [...goodSession(), exchange(`/01/09506000134352?${query}`)];
      expect((await statuses(recording(other)))["RCV-LINKSET"], query).toBe("fail");
    }
    // A request for the default link or for one link type asks for no link set: RCV-LINKSET does not judge it.
    for (const query of ["", "?linkType=gs1:epcis", "?linkType=https%3A%2F%2Fgs1.org%2Fvoc%2FmasterData"]) {
      const notAsked = [...goodSession(), exchange(`/01/09506000134352${query}`, { status: 307 })];
      expect((await statuses(recording(notAsked)))["RCV-LINKSET"], query).toBe("pass");
    }
    const byMediaType = [
      ...goodSession(),
      exchange(`/01/09506000134352`, {
        rawHeaders: [
          ["X-API-Key", KEY],
          ["Accept", "application/linkset+json"],
        ],
      }),
    ];
    expect((await statuses(recording(byMediaType)))["RCV-LINKSET"]).toBe("warn");
  });

  it("fail a slash after the path's last value once, at RCV-RESOLVER-PATH: the identifier asked is still the task's", async () => {
    const registry = await loadRegistry();
    const epcisLink = registry.requirements.find((r) => r.id === "RCV-EPCIS-LINK")!;
    const refused = [
      exchange(`/01/09506000134352/21/A1/?linkType=linkset`, { status: 404 }),
      ...goodSession().slice(1),
    ];
    const s = await statuses(recording(refused));
    expect(s["RCV-RESOLVER-PATH"]).toBe("fail");
    expect(s["RCV-CANONICAL-REBASE"]).toBe("pass");
    expect(s["RCV-EPCIS-LINK"]).toBe("skip");
    expect(aggregate(epcisLink, await grade(recording(refused)), "none").reason).toMatch(
      /^blocked by RCV-RESOLVER-PATH, which failed: /,
    );
    // Answered all the same, it still fails the path alone, and nothing else.
    const answered = goodSession();
    answered[0] = exchange(`/01/09506000134352/21/A1/?linkType=linkset`, { responseBody: linkset(), seq: 0 });
    const a = await statuses(recording(answered));
    expect(a["RCV-RESOLVER-PATH"]).toBe("fail");
    for (const id of ["RCV-CANONICAL-REBASE", "RCV-EPCIS-LINK", "RCV-PRODUCT-EVENTS", "RCV-LINKSET"]) {
      expect(a[id], id).toBe("pass");
    }
  });

  it("fail a receiver that never asks the resolver for its task, or asks it at the query interface's server", async () => {
    const skipped = goodSession().slice(1);
    expect((await statuses(recording(skipped)))["RCV-CANONICAL-REBASE"]).toBe("fail");
    const split = goodSession().map((x, i) => (i === 0 ? { ...x, listener: "events" as const } : x));
    const s = await statuses(recording(split, { resolverBase: `${BASE}/resolver` }));
    expect(s["RCV-CANONICAL-REBASE"]).toBe("fail");
  });

  it("fail GET /events where no epcis link leads, and master data at a path no link set gave", async () => {
    const elsewhere = [...goodSession(), exchange(`/other/events?MATCH_anyEPC=${ENC(ITEM)}`)];
    expect((await statuses(recording(elsewhere)))["RCV-EPCIS-LINK"]).toBe("fail");
    const guessed = [...goodSession(), exchange(`/md/414/9506000134352`)];
    expect((await statuses(recording(guessed)))["RCV-MASTERDATA-HREF"]).toBe("fail");
    // The href counts only once a link set gave it: fetched before the product was resolved, it was guessed.
    const early = goodSession();
    const [md] = early.splice(4, 1);
    early.splice(1, 0, md!);
    for (const [i, x] of early.entries()) x.seq = i;
    expect((await statuses(recording(early)))["RCV-MASTERDATA-HREF"]).toBe("fail");
  });

  it("fail a receiver that misses the product's events or its master data, and warn on the rest of the trace", async () => {
    const partial = goodSession().slice(0, 2);
    const s = await statuses(recording(partial));
    expect(s["RCV-PRODUCT-EVENTS"]).toBe("pass");
    expect(s["RCV-PRODUCT-MASTERDATA"]).toBe("fail");
    expect(s["RCV-TRACE-EVENTS"]).toBe("warn");
    const nothing = await statuses(recording([goodSession()[0]!]));
    expect(nothing["RCV-PRODUCT-EVENTS"]).toBe("fail");
  });

  it("warn when a next page is never asked, and pass when it is, %7c or %7C", async () => {
    const next = `${BASE}/events?MATCH_anyEPC=${ENC(ITEM)}&nextPageToken=abc`;
    const paged = goodSession();
    paged[1] = { ...paged[1]!, responseHeaders: { link: `<${next}>; rel="next"` } };
    expect((await statuses(recording(paged)))["RCV-PAGING"]).toBe("warn");
    const followed = [
      ...paged,
      exchange(
        `/events?MATCH_anyEPC=${ENC(ITEM).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())}&nextPageToken=abc`,
      ),
    ];
    expect((await statuses(recording(followed)))["RCV-PAGING"]).toBe("pass");
  });

  it("warn when a query refused with 413 leaves events of the trace unfetched, and pass when narrower ones fetch them", async () => {
    const refused = exchange(`/events?MATCH_anyEPC=${ENC(SSCC)}%7C${ENC(ITEM)}`, { status: 413 });
    const gaveUp = [...goodSession().slice(0, 2), refused];
    expect((await statuses(recording(gaveUp)))["RCV-413-NARROW"]).toBe("warn");
    const narrowed = [
      ...gaveUp,
      exchange(`/events?MATCH_anyEPC=${ENC(SSCC)}`, { responseBody: page(["e3", "e4"]) }),
    ];
    expect((await statuses(recording(narrowed)))["RCV-413-NARROW"]).toBe("pass");
  });
});

/** A receiver that follows the resolver's redirects instead of reading link sets. */
function redirectSession(): RecordedExchange[] {
  const events = `${BASE}/s1/events?MATCH_anyEPC=${ENC(ITEM)}`;
  return [
    exchange(`/01/09506000134352/21/A1?linkType=gs1:epcis`, {
      status: 307,
      responseHeaders: { location: events },
    }),
    exchange(`/s1/events?MATCH_anyEPC=${ENC(ITEM)}`, { responseBody: page(["e1", "e2", "e3"]) }),
    exchange(`/s1/events?MATCH_anyEPC=${ENC(SSCC)}%7C${ENC(ITEM)}`, {
      responseBody: page(["e1", "e2", "e3", "e4"]),
    }),
    // A Location relative to the request, as a server may write it.
    exchange(`/01/09506000134352?linkType=gs1:masterData`, {
      status: 307,
      responseHeaders: { location: "/md/01/09506000134352" },
    }),
    exchange(`/md/01/09506000134352`, { responseBody: "{}" }),
  ];
}

async function proofs(rec: Recorded, id: string): Promise<string[]> {
  return (await grade(rec))
    .filter((v) => v.id === id && v.status === "pass" && v.evidence?.request !== undefined)
    .map((v) => v.evidence!.request!.url.slice(BASE.length));
}

describe("locations learned from the resolver's redirects", () => {
  it("count for RCV-EPCIS-LINK and RCV-MASTERDATA-HREF, and leave RCV-LINKSET undecided", async () => {
    const s = await statuses(recording(redirectSession()));
    expect(s["RCV-EPCIS-LINK"]).toBe("pass");
    expect(s["RCV-MASTERDATA-HREF"]).toBe("pass");
    expect(s["RCV-PRODUCT-MASTERDATA"]).toBe("pass");
    expect(s["RCV-CANONICAL-REBASE"]).toBe("pass");
    expect(s["RCV-RESOLVER-PATH"]).toBe("pass");
    expect(s["RCV-LINKSET"]).toBe("skip");
    expect(await proofs(recording(redirectSession()), "RCV-EPCIS-LINK")).toEqual([
      "/01/09506000134352/21/A1?linkType=gs1:epcis",
      `/s1/events?MATCH_anyEPC=${ENC(ITEM)}`,
    ]);
  });

  it("count a redirect for the default link or another link type too, but not a Location beside a 200", async () => {
    for (const [query, status, verdict] of [
      ["", 307, "pass"],
      ["?linkType=gs1:pip", 307, "pass"],
      ["?linkType=gs1:masterData", 200, "fail"],
    ] as const) {
      const session = redirectSession();
      session[3] = exchange(`/01/09506000134352${query}`, {
        status,
        responseHeaders: { location: "/md/01/09506000134352" },
      });
      for (const [i, x] of session.entries()) x.seq = i;
      expect((await statuses(recording(session)))["RCV-MASTERDATA-HREF"], `${query} ${status}`).toBe(verdict);
    }
    // Whatever link type was asked, a Location that leads to a query interface names it (spec 1 step 2).
    const session = redirectSession();
    session[0] = exchange(`/01/09506000134352/21/A1?linkType=gs1:masterData`, {
      status: 307,
      responseHeaders: { location: `${BASE}/s1/events?MATCH_anyEPC=${ENC(ITEM)}` },
      seq: 0,
    });
    expect((await statuses(recording(session)))["RCV-EPCIS-LINK"]).toBe("pass");
    // A Location that is no query interface names none.
    session[0] = exchange(`/01/09506000134352/21/A1`, {
      status: 307,
      responseHeaders: { location: `${BASE}/s1/about?id=1` },
      seq: 0,
    });
    expect((await statuses(recording(session)))["RCV-EPCIS-LINK"]).toBe("fail");
  });

  it("pass a receiver that resolves without linkType and follows the default link's redirects", async () => {
    const events = `${BASE}/s1/events?MATCH_anyEPC=${ENC(ITEM)}`;
    const session = [
      exchange(`/01/09506000134352/21/A1`, { status: 307, responseHeaders: { location: events } }),
      exchange(`/s1/events?MATCH_anyEPC=${ENC(ITEM)}`, { responseBody: page(["e1", "e2", "e3"]) }),
      exchange(`/01/09506000134352`, {
        status: 307,
        responseHeaders: { location: `${BASE}/md/01/09506000134352` },
      }),
      exchange(`/md/01/09506000134352`, { responseBody: "{}" }),
    ];
    const s = await statuses(recording(session));
    expect(s["RCV-EPCIS-LINK"]).toBe("pass");
    expect(s["RCV-MASTERDATA-HREF"]).toBe("pass");
    expect(s["RCV-PRODUCT-MASTERDATA"]).toBe("pass");
    expect(s["RCV-PRODUCT-EVENTS"]).toBe("pass");
  });
});

describe("requests that fetch no href", () => {
  it("leave a CORS preflight, the resolver's /.well-known/ description and /events/ out of RCV-MASTERDATA-HREF", async () => {
    const session = [
      ...goodSession(),
      exchange(`/md/01/09506000134352`, { method: "OPTIONS", key: null }),
      exchange(`/.well-known/gs1resolver`),
      exchange(`/events/?MATCH_anyEPC=${ENC(ITEM)}`, { responseBody: page(["e1"]) }),
    ];
    const s = await statuses(recording(session));
    expect(s["RCV-MASTERDATA-HREF"]).toBe("pass");
    expect(s["RCV-EPCIS-LINK"]).toBe("pass");
    // A preflight carries no custom header in any browser: RCV-KEY-HEADER judges the request it clears.
    expect(s["RCV-KEY-HEADER"]).toBe("pass");
    // A GET at a path no link set gave still fails, with or without a trailing slash on events elsewhere.
    const built = [...session, exchange(`/md/414/9506000134352`)];
    expect((await statuses(recording(built)))["RCV-MASTERDATA-HREF"]).toBe("fail");
  });
});

describe("requests that fetch no master data", () => {
  it("leave GET / and GET /openapi.json out of RCV-MASTERDATA-HREF: they name no key of AI 01, 414 or 417", async () => {
    const session = [...goodSession(), exchange(`/`), exchange(`/openapi.json`), exchange(`/status/01`)];
    const s = await statuses(recording(session));
    expect(s["RCV-MASTERDATA-HREF"]).toBe("pass");
    // Not blocked behind a built master data path: none was asked.
    expect(s["RCV-TRACE-MASTERDATA"]).toBe("pass");
    // With no master data asked at all, the requirement has nothing to judge.
    const alone = [goodSession()[0]!, goodSession()[1]!, exchange(`/`), exchange(`/openapi.json`)];
    expect((await statuses(recording(alone)))["RCV-MASTERDATA-HREF"]).toBe("skip");
    // A path that names a master data key, anywhere, in numeric or alphabetic spelling, is a fetch of it.
    for (const built of [
      `/masterdata/01/09506000134352`,
      `/api/v1/gtin/09506000134352/doc`,
      `/md/417/9506000134352`,
    ]) {
      const s2 = await statuses(recording([...session, exchange(built)]));
      expect(s2["RCV-MASTERDATA-HREF"], built).toBe("fail");
    }
  });
});

describe("the proof a pass carries", () => {
  it("is a recorded request for every requirement that passes", async () => {
    const registry = await loadRegistry();
    const paged = goodSession();
    const next = `${BASE}/events?MATCH_anyEPC=${ENC(ITEM)}&nextPageToken=abc`;
    paged[1] = { ...paged[1]!, responseHeaders: { link: `<${next}>; rel="next"` } };
    paged.push(exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}&nextPageToken=abc`, { responseBody: page([]) }));
    for (const session of [paged, redirectSession()]) {
      const verdicts = await grade(recording(session));
      for (const req of registry.requirements.filter((r) => r.class === "receiver")) {
        if (aggregate(req, verdicts, "none").status !== "pass") continue;
        const proven = verdicts.filter((v) => v.id === req.id && v.evidence?.request !== undefined);
        expect(proven.length, req.id).toBeGreaterThan(0);
      }
    }
    expect(await proofs(recording(paged), "RCV-PAGING")).toEqual([
      `/events?MATCH_anyEPC=${ENC(ITEM)}`,
      `/events?MATCH_anyEPC=${ENC(ITEM)}&nextPageToken=abc`,
    ]);
    expect(await proofs(recording(goodSession()), "RCV-MASTERDATA-HREF")).toEqual([
      "/01/09506000134352?linkType=linkset",
      "/md/01/09506000134352",
    ]);
    expect(await proofs(recording(goodSession()), "RCV-PRODUCT-EVENTS")).toEqual([
      `/events?MATCH_anyEPC=${ENC(ITEM)}`,
    ]);
    expect(await proofs(recording(goodSession()), "RCV-TRACE-EVENTS")).toEqual([
      `/events?MATCH_anyEPC=${ENC(ITEM)}`,
      `/events?MATCH_anyEPC=${ENC(SSCC)}%7C${ENC(ITEM)}`,
    ]);
  });

  it("names, for RCV-413-NARROW, the refused query and the narrower answers that delivered its events", async () => {
    const refused = exchange(`/events?MATCH_anyEPC=${ENC(SSCC)}%7C${ENC(ITEM)}`, { status: 413 });
    const narrowed = [
      ...goodSession().slice(0, 2),
      refused,
      exchange(`/events?MATCH_anyEPC=${ENC(SSCC)}`, { responseBody: page(["e3", "e4"]) }),
    ];
    expect(await proofs(recording(narrowed), "RCV-413-NARROW")).toEqual([
      `/events?MATCH_anyEPC=${ENC(SSCC)}%7C${ENC(ITEM)}`,
      `/events?MATCH_anyEPC=${ENC(ITEM)}`,
      `/events?MATCH_anyEPC=${ENC(SSCC)}`,
    ]);
  });
});

describe("what a refusal or another failure takes away", () => {
  it("leaves RCV-PRODUCT-EVENTS undecided when the sender refused with 413 every query for the missing events", async () => {
    const resolved = goodSession().slice(0, 1);
    const refused = exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, { status: 413 });
    expect((await statuses(recording([...resolved, refused])))["RCV-PRODUCT-EVENTS"]).toBe("skip");
    // A refusal of a query that selects other events explains nothing.
    const elsewhere = exchange(`/events?MATCH_anyEPC=${ENC(SSCC)}`, { status: 413 });
    expect((await statuses(recording([...resolved, elsewhere])))["RCV-PRODUCT-EVENTS"]).toBe("fail");
    // Nor does a refusal for another reason than 413.
    const forbidden = exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, { status: 401 });
    expect((await statuses(recording([...resolved, forbidden])))["RCV-PRODUCT-EVENTS"]).toBe("fail");
  });

  it("blocks RCV-PRODUCT-EVENTS behind the wire requirement that the refused query for the product fails", async () => {
    const registry = await loadRegistry();
    const product = registry.requirements.find((r) => r.id === "RCV-PRODUCT-EVENTS")!;
    const resolved = goodSession().slice(0, 1);
    for (const [refused, by] of [
      [exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, { status: 401, key: null }), "RCV-KEY-HEADER"],
      [
        exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}&GE_eventTime=2000-01-01T00:00:00+00:00`, { status: 400 }),
        "RCV-TIME-UTC",
      ],
      [
        exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}&MATCH_anyEPC=${ENC(SSCC)}`, { status: 400 }),
        "RCV-NO-REPEATED-KEY",
      ],
      [exchange(`/events?MATCH_anyEPC=${ENC(SSCC)}|${ENC(ITEM)}`, { status: 400 }), "RCV-PIPE-JOINED"],
    ] as const) {
      const verdicts = await grade(recording([...resolved, refused]));
      const s = await statuses(recording([...resolved, refused]));
      expect(s[by], by).toBe("fail");
      expect(s["RCV-PRODUCT-EVENTS"], by).toBe("skip");
      expect(aggregate(product, verdicts, "none").reason, by).toMatch(
        new RegExp(`^blocked by ${by}, which failed: `),
      );
    }
    // A refusal of a request that keeps every wire rule explains nothing: the events are the receiver's to fetch.
    const plain = exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, { status: 400 });
    expect((await statuses(recording([...resolved, plain])))["RCV-PRODUCT-EVENTS"]).toBe("fail");
    // Nor does a faulty request that did not ask for the product.
    const other = exchange(`/events?MATCH_anyEPC=${ENC(SSCC)}`, { status: 401, key: null });
    expect((await statuses(recording([...resolved, other])))["RCV-PRODUCT-EVENTS"]).toBe("fail");
  });

  it("fails RCV-PRODUCT-EVENTS when the only queries refused with 413 did not ask for the product", async () => {
    const registry = await loadRegistry();
    const product = registry.requirements.find((r) => r.id === "RCV-PRODUCT-EVENTS")!;
    const resolved = goodSession().slice(0, 1);
    // One broad query, refused, and nothing after: the lot's own epcis link was never asked.
    const broad = exchange(`/events?GE_eventTime=2024-01-01T00:00:00Z`, { status: 413 });
    const gaveUp = recording([...resolved, broad]);
    const s = await statuses(gaveUp);
    expect(s["RCV-PRODUCT-EVENTS"]).toBe("fail");
    expect(s["RCV-413-NARROW"]).toBe("warn");
    expect(aggregate(product, await grade(gaveUp), "none").reason).toMatch(
      /refused with 413 only queries that did not ask for/,
    );
    // The product's own identifier asked and refused leaves it undecided.
    const refused = exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, { status: 413 });
    expect((await statuses(recording([...resolved, broad, refused])))["RCV-PRODUCT-EVENTS"]).toBe("skip");
  });

  it("counts a refused query the resolver gave whole as a query for the product", async () => {
    const given = `/events?GE_eventTime=2024-01-01T00:00:00Z`;
    const session = [
      exchange(`/01/09506000134352/21/A1`, { status: 307, responseHeaders: { location: `${BASE}${given}` } }),
      exchange(given, { status: 413 }),
    ];
    expect((await statuses(recording(session)))["RCV-PRODUCT-EVENTS"]).toBe("skip");
  });

  it("leaves RCV-PRODUCT-EVENTS undecided, naming RCV-PAGING, for events on pages the receiver did not follow", async () => {
    const registry = await loadRegistry();
    const product = registry.requirements.find((r) => r.id === "RCV-PRODUCT-EVENTS")!;
    const next = `${BASE}/events?MATCH_anyEPC=${ENC(ITEM)}&nextPageToken=abc`;
    const paged = [
      goodSession()[0]!,
      exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, {
        responseBody: page(["e1", "e2"]),
        responseHeaders: { link: `<${next}>; rel="next"` },
      }),
    ];
    const s = await statuses(recording(paged));
    expect(s["RCV-PRODUCT-EVENTS"]).toBe("skip");
    expect(s["RCV-PAGING"]).toBe("warn");
    const reason = aggregate(product, await grade(recording(paged)), "none").reason;
    expect(reason).toMatch(/RCV-PAGING/);
    expect(reason).not.toMatch(/^blocked/);
    // An event of the product that no unfollowed page held back is still missed by the receiver.
    const partly = [
      goodSession()[0]!,
      exchange(`/events?MATCH_anyEPC=${ENC(SSCC)}`, {
        responseBody: page(["e4"]),
        responseHeaders: { link: `<${BASE}/events?MATCH_anyEPC=${ENC(SSCC)}&nextPageToken=abc>; rel="next"` },
      }),
      exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}&LT_eventTime=2024-01-02T00:00:00Z`, {
        responseBody: page(["e1"]),
      }),
    ];
    expect((await statuses(recording(partly)))["RCV-PRODUCT-EVENTS"]).toBe("fail");
  });

  it("leaves RCV-PRODUCT-EVENTS undecided for events a query for the product selects that the sender's last page left out", async () => {
    const registry = await loadRegistry();
    const product = registry.requirements.find((r) => r.id === "RCV-PRODUCT-EVENTS")!;
    // A sender that matches EPCs only as written answers the query for the item with part of its events.
    const short = [
      goodSession()[0]!,
      exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, { responseBody: page(["e1"]) }),
    ];
    expect((await statuses(recording(short)))["RCV-PRODUCT-EVENTS"]).toBe("skip");
    const reason = aggregate(product, await grade(recording(short)), "none").reason;
    expect(reason).toMatch(/held back by the sender/);
    expect(reason).not.toMatch(/^blocked/);
    // Left out of an answer to a query that did not ask for the product, they are the receiver's to fetch.
    const elsewhere = [
      goodSession()[0]!,
      exchange(`/events?MATCH_anyEPC=${ENC(SSCC)}`, { responseBody: page(["e4"]) }),
    ];
    expect((await statuses(recording(elsewhere)))["RCV-PRODUCT-EVENTS"]).toBe("fail");
    // Nor does a query for the product explain events its own time bound leaves out.
    const windowed = [
      goodSession()[0]!,
      exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}&LT_eventTime=2024-01-02T00:00:00Z`, {
        responseBody: page(["e1"]),
      }),
    ];
    expect((await statuses(recording(windowed)))["RCV-PRODUCT-EVENTS"]).toBe("fail");
    // Nor an answer refused: a 2xx is what says the sender answered the query.
    const refused = [goodSession()[0]!, exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, { status: 500 })];
    expect((await statuses(recording(refused)))["RCV-PRODUCT-EVENTS"]).toBe("fail");
  });

  it("blocks the master data checks behind RCV-MASTERDATA-HREF when the receiver built its master data paths", async () => {
    const built = goodSession();
    built[4] = exchange(`/masterdata/01/09506000134352`, { status: 404 });
    const s = await statuses(recording(built));
    expect(s["RCV-MASTERDATA-HREF"]).toBe("fail");
    expect(s["RCV-PRODUCT-MASTERDATA"]).toBe("skip");
    expect(s["RCV-TRACE-MASTERDATA"]).toBe("skip");
    const registry = await loadRegistry();
    const product = registry.requirements.find((r) => r.id === "RCV-PRODUCT-MASTERDATA")!;
    expect(aggregate(product, await grade(recording(built)), "none").reason).toMatch(
      /^blocked by RCV-MASTERDATA-HREF, which failed: /,
    );
  });

  it("blocks RCV-PRODUCT-MASTERDATA behind RCV-RESOLVER-PATH when the receiver asked for the product's link set only at a path that fails it", async () => {
    const registry = await loadRegistry();
    const product = registry.requirements.find((r) => r.id === "RCV-PRODUCT-MASTERDATA")!;
    const alphabetic = goodSession().slice(0, 3);
    alphabetic.push(exchange(`/gtin/09506000134352?linkType=linkset`, { status: 400 }));
    const s = await statuses(recording(alphabetic));
    expect(s["RCV-RESOLVER-PATH"]).toBe("fail");
    expect(s["RCV-PRODUCT-MASTERDATA"]).toBe("skip");
    expect(aggregate(product, await grade(recording(alphabetic)), "none").reason).toMatch(
      /^blocked by RCV-RESOLVER-PATH, which failed: the receiver asked the resolver for https:\/\/id\.gs1\.org\/01\/09506000134352 only at \/gtin\/09506000134352,/,
    );
    // Given the link set all the same, or asked at a numeric path too, the receiver had the href: not fetching it
    // is a failure of its own.
    const answered = goodSession().slice(0, 3);
    answered.push(exchange(`/gtin/09506000134352?linkType=linkset`, { responseBody: productLinkset() }));
    expect((await statuses(recording(answered)))["RCV-PRODUCT-MASTERDATA"]).toBe("fail");
    const both = [
      ...alphabetic,
      exchange(`/01/09506000134352?linkType=linkset`, { responseBody: productLinkset() }),
    ];
    expect((await statuses(recording(both)))["RCV-PRODUCT-MASTERDATA"]).toBe("fail");
    // A block stands only where RCV-RESOLVER-PATH failed: a receiver that never asked about the product fails it.
    expect((await statuses(recording(goodSession().slice(0, 3))))["RCV-PRODUCT-MASTERDATA"]).toBe("fail");
  });

  it("blocks what the resolver would have given behind RCV-LINKSET or RCV-RESOLVER-PATH when every request about it failed one and got no href", async () => {
    const registry = await loadRegistry();
    const reasonOf = async (exchanges: RecordedExchange[], id: string) =>
      aggregate(registry.requirements.find((r) => r.id === id)!, await grade(recording(exchanges)), "none")
        .reason;
    // linkType=all, refused with 404, for the item and for its product; events asked where the setup said.
    const all = [
      exchange(`/01/09506000134352/21/A1?linkType=all`, { status: 404 }),
      exchange(`/events?MATCH_anyEPC=${ENC(ITEM)}`, { responseBody: page(["e1", "e2", "e3"]) }),
      exchange(`/01/09506000134352?linkType=all`, { status: 404 }),
    ];
    const s = await statuses(recording(all));
    expect(s["RCV-LINKSET"]).toBe("fail");
    for (const id of ["RCV-EPCIS-LINK", "RCV-PRODUCT-MASTERDATA"]) {
      expect(s[id], id).toBe("skip");
      expect(await reasonOf(all, id), id).toMatch(/^blocked by RCV-LINKSET, which failed: /);
    }
    // Without any query, the product's events are blocked by it too.
    const noQuery = [all[0]!, all[2]!];
    expect((await statuses(recording(noQuery)))["RCV-PRODUCT-EVENTS"]).toBe("skip");
    expect(await reasonOf(noQuery, "RCV-PRODUCT-EVENTS")).toMatch(/^blocked by RCV-LINKSET, which failed: /);
    // An alphabetic AI refused with 400 blocks them behind RCV-RESOLVER-PATH.
    const alphabetic = [exchange(`/gtin/09506000134352/ser/A1?linkType=linkset`, { status: 400 })];
    expect(await reasonOf(alphabetic, "RCV-PRODUCT-EVENTS")).toMatch(
      /^blocked by RCV-RESOLVER-PATH, which failed: /,
    );
    // Given the link set all the same, the receiver learned what it needed: what it then misses is its own.
    const tolerated = [
      exchange(`/01/09506000134352/21/A1?linkType=all`, { responseBody: linkset() }),
      exchange(`/01/09506000134352?linkType=all`, { responseBody: productLinkset() }),
    ];
    const t = await statuses(recording(tolerated));
    expect(t["RCV-LINKSET"]).toBe("fail");
    expect(t["RCV-PRODUCT-EVENTS"]).toBe("fail");
    expect(t["RCV-PRODUCT-MASTERDATA"]).toBe("fail");
    // A receiver that asks the item right and only its product wrong still owes the item's events.
    const itemRight = [goodSession()[0]!, all[2]!];
    expect((await statuses(recording(itemRight)))["RCV-PRODUCT-EVENTS"]).toBe("fail");
  });

  it("fails only RCV-CANONICAL-REBASE for a receiver that never asks the resolver, and blocks what follows from it", async () => {
    const registry = await loadRegistry();
    const unresolved = goodSession().slice(1, 3);
    const verdicts = await grade(recording(unresolved));
    const s = await statuses(recording(unresolved));
    expect(s["RCV-CANONICAL-REBASE"]).toBe("fail");
    for (const id of ["RCV-EPCIS-LINK", "RCV-PRODUCT-MASTERDATA"]) {
      const req = registry.requirements.find((r) => r.id === id)!;
      expect(s[id], id).toBe("skip");
      expect(aggregate(req, verdicts, "none").reason, id).toMatch(
        /^blocked by RCV-CANONICAL-REBASE, which failed: /,
      );
    }
    // A receiver that asked the resolver, but not for what it queried, fails RCV-EPCIS-LINK on its own.
    const elsewhere = [
      exchange(`/01/09506000134352?linkType=linkset`, { responseBody: productLinkset() }),
      ...goodSession().slice(1, 3),
    ];
    for (const [i, x] of elsewhere.entries()) x.seq = i;
    expect((await statuses(recording(elsewhere)))["RCV-EPCIS-LINK"]).toBe("fail");
  });

  it("reads an href asked with the key in its query as the href: the key is RCV-KEY-*'s alone", async () => {
    const session = goodSession();
    session[4] = exchange(`/md/01/09506000134352?api_key=${KEY}`, { responseBody: "{}", key: null });
    const s = await statuses(recording(session));
    expect(s["RCV-MASTERDATA-HREF"]).toBe("pass");
    expect(s["RCV-PRODUCT-MASTERDATA"]).toBe("pass");
    expect(s["RCV-KEY-NOT-IN-URL"]).toBe("warn");
    expect(s["RCV-KEY-HEADER"]).toBe("fail");
  });
});
