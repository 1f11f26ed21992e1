// startReference: one port or two, fault ids checked, auth wired on the query interface, nothing logged, closed
// cleanly.
import { afterEach, describe, expect, it, vi } from "vitest";
import { type RunningReference, startReference } from "../../src/reference/index.ts";
import { eventsOf, getEvents, getUrl } from "./events-answers.ts";
import { DL, fixtureDataset } from "./events-fixture.ts";

const started: RunningReference[] = [];
async function start(opts: Partial<Parameters<typeof startReference>[0]> = {}): Promise<RunningReference> {
  const ref = await startReference({ dataset: fixtureDataset(), ...opts });
  started.push(ref);
  return ref;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
  vi.restoreAllMocks();
});

const itemPath = new URL(DL.itemA1).pathname;

describe("startReference", () => {
  it("serves events, resolver and master data on one loopback port by default", async () => {
    const ref = await start();
    expect(ref.eventsBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ref.resolverBase).toBe(ref.eventsBase);
    expect((await getEvents(ref.eventsBase, "")).status).toBe(200);
    expect((await getUrl(`${ref.resolverBase}${itemPath}?linkType=linkset`)).status).toBe(200);
  });

  it("puts the resolver and master data on their own port when resolverPort is given", async () => {
    const ref = await start({ resolverPort: 0 });
    expect(ref.resolverBase).not.toBe(ref.eventsBase);
    expect((await getUrl(`${ref.resolverBase}${itemPath}?linkType=linkset`)).status).toBe(200);
    expect((await getUrl(`${ref.eventsBase}${itemPath}?linkType=linkset`)).status).toBe(404);
    expect((await getUrl(`${ref.resolverBase}/events`)).status).toBe(404);
    expect((await getEvents(ref.eventsBase, "")).status).toBe(200);
  });

  it("refuses unknown fault ids, naming them and the command that lists the known ones", async () => {
    await expect(
      startReference({ dataset: fixtureDataset(), faults: ["no-such-fault", "lt-record-inclusive"] }),
    ).rejects.toThrow(/no-such-fault.*tracecheck faults/);
  });

  it("refuses a page size that is not a positive whole number", async () => {
    await expect(startReference({ dataset: fixtureDataset(), config: { pageSize: 0 } })).rejects.toThrow(
      /page size/,
    );
  });

  it("checks X-API-Key on the query interface and leaves the resolver public unless configured", async () => {
    const ref = await start({ apiKeys: ["s3cret-key"] });
    const missing = await getEvents(ref.eventsBase, "");
    expect(missing.status).toBe(401);
    expect(missing.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect((await getEvents(ref.eventsBase, "", { "X-API-Key": "wrong" })).status).toBe(401);
    const ok = await getEvents(ref.eventsBase, "", { "x-api-key": "s3cret-key" });
    expect(eventsOf(ok.body)).toHaveLength(8);
    expect((await getUrl(`${ref.resolverBase}${itemPath}?linkType=linkset`)).status).toBe(200);
  });

  it("writes nothing to stdout or stderr while serving, so the key is never logged", async () => {
    const out = vi.spyOn(process.stdout, "write");
    const err = vi.spyOn(process.stderr, "write");
    const ref = await start({ apiKeys: ["s3cret-key"] });
    await getEvents(ref.eventsBase, "", { "X-API-Key": "s3cret-key" });
    await getEvents(ref.eventsBase, "EQ_bizStep=a&EQ_bizStep=b", { "X-API-Key": "s3cret-key" });
    await getEvents(ref.eventsBase, "", { "X-API-Key": "wrong" });
    expect(out).not.toHaveBeenCalled();
    expect(err).not.toHaveBeenCalled();
  });

  it("answers next links under its own base and stops listening when closed", async () => {
    // Listening sockets of this process, counted rather than probed: a request to the port once closed could
    // reach another process that has since been given it.
    const listening = () => process.getActiveResourcesInfo().filter((r) => r === "TCPServerWrap").length;
    const before = listening();
    const ref = await startReference({ dataset: fixtureDataset(), config: { pageSize: 5 } });
    expect(listening()).toBeGreaterThan(before);
    const first = await getEvents(ref.eventsBase, "");
    expect(String(first.headers.link)).toContain(`<${ref.eventsBase}/events?`);
    await ref.close();
    expect(listening()).toBe(before);
  });

  it("advertises the origin it is given in its bases and links, and listens where it says", async () => {
    const origin = "http://proxy.invalid:8080";
    const ref = await start({ origin, config: { pageSize: 5 } });
    expect(ref.eventsBase).toBe(origin);
    expect(ref.resolverBase).toBe(origin);
    expect(ref.listensOn).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const first = await getEvents(ref.listensOn, "");
    expect(String(first.headers.link)).toContain(`<${origin}/events?`);
    const linkset = await getUrl(`${ref.listensOn}${itemPath}?linkType=linkset`);
    expect(JSON.stringify(linkset.body)).toContain(`"${origin}/`);
    expect(JSON.stringify(linkset.body)).not.toContain(ref.listensOn);
  });
});
