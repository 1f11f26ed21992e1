// Receiver mode's hrefs no client can build (src/reference/opaque-hrefs.ts): the master data and the query
// interface the epcis links name live at paths of one start of the sender alone, reached through link sets and
// the resolver's redirects; and the proof that this is what lets RCV-MASTERDATA-HREF tell a receiver that builds
// master data paths from one that reads hrefs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import { runReceiverSession } from "../../src/harness/receiver/session.ts";
import type { Dataset } from "../../src/model/types.ts";
import { runTrace } from "../../src/receiver/index.ts";
import { startReference } from "../../src/reference/index.ts";
import { tempDir } from "../support/cli.ts";

const KEY = "opaque-key";
const dataset: Dataset = generateDataset({ seed: 1, events: 40 });
const running: Awaited<ReturnType<typeof startReference>>[] = [];

async function start(opaqueHrefs?: boolean) {
  const reference = await startReference({
    dataset,
    apiKeys: [KEY],
    config: { pageSize: 2 },
    ...(opaqueHrefs === undefined ? {} : { opaqueHrefs }),
  });
  running.push(reference);
  return reference;
}

afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
});

const PARTY = dataset.masterData.find((d) => String(d["@id"]).startsWith("https://id.gs1.org/417/"))!;
const PARTY_PATH = String(PARTY["@id"]).slice("https://id.gs1.org".length);
const ITEM_PATH = dataset.events
  .flatMap((e) => e.epcList ?? [])
  .find((id) => id.startsWith("https://id.gs1.org/01/") && id.includes("/21/"))!
  .slice("https://id.gs1.org".length);

async function get(url: string, redirect: "follow" | "manual" = "follow") {
  const answer = await fetch(url, { headers: { "X-API-Key": KEY }, redirect });
  const text = await answer.text();
  return { status: answer.status, headers: answer.headers, json: () => JSON.parse(text) as unknown };
}

async function linkOf(resolverBase: string, path: string, type: "masterData" | "epcis"): Promise<string> {
  const answer = await get(`${resolverBase}${path}?linkType=linkset`);
  expect(answer.status).toBe(200);
  const entry = (answer.json() as { linkset: Record<string, { href: string }[]>[] }).linkset[0]!;
  return entry[`https://ref.gs1.org/voc/${type}`]![0]!.href;
}

describe("the reference sender with opaque hrefs", () => {
  let reference: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    reference = await start(true);
  });

  it("serves master data at an href that names no identifier, and nothing at the path a client would build", async () => {
    const href = await linkOf(reference.resolverBase, PARTY_PATH, "masterData");
    expect(href).not.toContain(PARTY_PATH.split("/")[2]);
    const doc = await get(href);
    expect(doc.status).toBe(200);
    expect(doc.json()).toMatchObject({ "@id": PARTY["@id"], "@type": "gs1:Organization" });
    expect((await get(`${reference.resolverBase}/masterdata${PARTY_PATH}`)).status).toBe(404);
    const forged = href.replace(/[^/]$/, (c) => (c === "A" ? "B" : "A"));
    expect((await get(forged)).status).toBe(404);
  });

  it("names a query interface of the session's own in its epcis links, whose next pages stay there", async () => {
    const href = await linkOf(reference.resolverBase, ITEM_PATH, "epcis");
    const at = new URL(href);
    expect(at.origin + at.pathname).toMatch(new RegExp(`^${reference.eventsBase}/s[^/]+/events$`));
    const page = await get(href);
    expect(page.status).toBe(200);
    const next = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get("link") ?? "")?.[1];
    expect(next).toBeDefined();
    expect(new URL(next!).pathname).toBe(at.pathname);
    // The base given at setup still answers: taking it instead of the link is RCV-EPCIS-LINK's to judge.
    expect((await get(`${reference.eventsBase}/events${at.search}`)).status).toBe(200);
  });

  it("redirects a request for one link type to that link's href", async () => {
    const href = await linkOf(reference.resolverBase, PARTY_PATH, "masterData");
    const redirect = await get(`${reference.resolverBase}${PARTY_PATH}?linkType=gs1:masterData`, "manual");
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get("location")).toBe(href);
    const epcis = await get(`${reference.resolverBase}${ITEM_PATH}?linkType=gs1:epcis`, "manual");
    expect(epcis.status).toBe(307);
    expect(epcis.headers.get("location")).toBe(await linkOf(reference.resolverBase, ITEM_PATH, "epcis"));
  });

  it("gives each start paths of its own, and none without the option", async () => {
    const other = await start(true);
    const mine = await linkOf(reference.resolverBase, PARTY_PATH, "masterData");
    const theirs = await linkOf(other.resolverBase, PARTY_PATH, "masterData");
    expect(new URL(mine).pathname).not.toBe(new URL(theirs).pathname);
    const plain = await start();
    expect(new URL(await linkOf(plain.resolverBase, PARTY_PATH, "masterData")).pathname).toBe(
      `/masterdata${PARTY_PATH}`,
    );
    expect(new URL(await linkOf(plain.resolverBase, ITEM_PATH, "epcis")).pathname).toBe("/events");
  });
});

/** RCV-MASTERDATA-HREF of a session with the reference receiver in this process, with the faults given. */
async function hrefVerdict(faults: string[], opaqueHrefs: boolean): Promise<string | undefined> {
  const tmp = await tempDir("receiver-opaque");
  const end = new AbortController();
  try {
    const outcome = await runReceiverSession(
      { port: 0, reportDir: tmp.dir, seed: 1, events: 60, timeoutMs: 10_000, opaqueHrefs },
      {
        setup: (s) => {
          void runTrace({
            identifier: s.task,
            eventsBase: s.eventsUrl,
            resolverBase: s.resolverUrl,
            apiKey: s.apiKey,
            faults,
          }).finally(() => end.abort());
        },
        note: () => {},
        summary: () => {},
        color: false,
        commandOutput: "notes",
      },
      end.signal,
    );
    return outcome.report?.requirements.find((r) => r.id === "RCV-MASTERDATA-HREF")?.status;
  } finally {
    await tmp.remove();
  }
}

describe("RCV-MASTERDATA-HREF against a receiver that builds its master data paths", () => {
  it("has no evidence where the sender serves master data at the paths a client would build", async () => {
    expect(await hrefVerdict(["guessed-masterdata"], false)).toBe("pass");
  }, 60_000);

  it("fails it where the hrefs are opaque, as they are by default, and passes the receiver that reads them", async () => {
    expect(await hrefVerdict(["guessed-masterdata"], true)).toBe("fail");
    expect(await hrefVerdict([], true)).toBe("pass");
  }, 60_000);
});
