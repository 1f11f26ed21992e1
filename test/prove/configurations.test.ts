// The named configurations of the reference: each reaches the sender it names, through `run` and `serve` alike.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import { resolveRunOptions, UsageError } from "../../src/harness/options.ts";
import { canonicalId, rebaseDigitalLink } from "../../src/model/index.ts";
import {
  REFERENCE_CONFIGURATION_NAMES,
  REFERENCE_CONFIGURATIONS,
  referenceConfiguration,
} from "../../src/reference/configurations.ts";
import { DEFAULT_CONFIG, type RunningReference, startReference } from "../../src/reference/index.ts";
import { runCli } from "../support/cli.ts";
import { type ServeProcess, startServe } from "../support/serve.ts";

describe("named configurations", () => {
  test("those of the issues exist, each changing only settings the reference knows", () => {
    expect([...REFERENCE_CONFIGURATION_NAMES]).toEqual(
      expect.arrayContaining([
        "digital-link",
        "forbidden-403",
        "paged",
        "refuse-broad",
        "split-resolver",
        "open-events",
        "open-refuses-wrong",
      ]),
    );
    for (const c of REFERENCE_CONFIGURATIONS) {
      expect(Object.keys(c.config).length, c.name).toBeGreaterThan(0);
      for (const [k, v] of Object.entries(c.config)) {
        expect(Object.keys(DEFAULT_CONFIG), `${c.name}.${k}`).toContain(k);
        expect(v, `${c.name}.${k} is the default`).not.toEqual(
          DEFAULT_CONFIG[k as keyof typeof DEFAULT_CONFIG],
        );
      }
    }
    expect(referenceConfiguration("split-resolver").resolverPort).toBe(0);
  });

  test("an unknown name is refused with the known ones listed", () => {
    expect(() => referenceConfiguration("fast")).toThrow(
      /Unknown reference configuration "fast"; use one of paged/,
    );
    expect(() => resolveRunOptions({ "reference-config": "fast" }, {}, {})).toThrow(UsageError);
    expect(() => resolveRunOptions({ "reference-config": "fast" }, {}, {})).toThrow(
      /known: paged, digital-link/,
    );
  });

  test("a named configuration needs the embedded reference", () => {
    expect(() =>
      resolveRunOptions({ "reference-config": "paged", target: "http://127.0.0.1:9" }, {}, {}),
    ).toThrow(/leave out --target/);
    expect(resolveRunOptions({ "reference-config": "paged" }, {}, {}).referenceConfig).toBe("paged");
    expect(resolveRunOptions({}, { "reference-config": "paged" }, {}).referenceConfig).toBe("paged");
  });

  test("tracecheck run refuses an unknown configuration with exit 2 and one sentence", async () => {
    const r = await runCli(["run", "--reference-config", "nope", "--suite", "auth"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(
      /^tracecheck: --reference-config: unknown configuration "nope"; known: .*\.$/,
    );
  });
});

/**
 * The status of GET /events with the key given, or none when `key` is undefined. The body is read, so that the
 * connection is free again and the sender can close when the test ends.
 */
const eventsStatus = async (eventsBase: string, key?: string) => {
  const answer = await fetch(`${eventsBase}/events`, {
    headers: key === undefined ? {} : { "X-API-Key": key },
  });
  await answer.arrayBuffer();
  return answer.status;
};

// What each name makes the sender do, on the reference as `run` and `serve` start it: the named configuration's
// settings, a generated dataset and one issued key.
describe("the sender each name starts", () => {
  const started: RunningReference[] = [];
  const reference = async (name: string) => {
    const named = referenceConfiguration(name);
    const ref = await startReference({
      dataset: generateDataset({ seed: 2, events: 30 }),
      apiKeys: ["right"],
      config: named.config,
      ...(named.resolverPort !== undefined ? { resolverPort: named.resolverPort } : {}),
    });
    started.push(ref);
    return ref;
  };
  afterAll(async () => {
    await Promise.all(started.map((r) => r.close()));
  });

  test("open-events answers GET /events without a key and with any key (spec 5.6)", async () => {
    const open = await reference("open-events");
    expect(await eventsStatus(open.eventsBase)).toBe(200);
    expect(await eventsStatus(open.eventsBase, "wrong")).toBe(200);
    expect(await eventsStatus(open.eventsBase, "right")).toBe(200);
  });

  test("open-refuses-wrong answers GET /events without a key but refuses a key it did not issue", async () => {
    const open = await reference("open-refuses-wrong");
    expect(await eventsStatus(open.eventsBase)).toBe(200);
    expect(await eventsStatus(open.eventsBase, "wrong")).toBe(401);
    expect(await eventsStatus(open.eventsBase, "right")).toBe(200);
  });

  test("forbidden-403 refuses a wrong key with 403", async () => {
    const forbidden = await reference("forbidden-403");
    expect(await eventsStatus(forbidden.eventsBase, "wrong")).toBe(403);
    expect(await eventsStatus(forbidden.eventsBase, "right")).toBe(200);
  });

  test("paged pages GET /events", async () => {
    const paged = await reference("paged");
    const answer = await fetch(`${paged.eventsBase}/events`, { headers: { "X-API-Key": "right" } });
    await answer.arrayBuffer();
    expect(answer.headers.get("link")).toMatch(/rel="next"/);
  });
});

// A name given to `serve` reaches the sender it starts, settings of its own port included, and a flag given
// beside it overrides it. (`run` is shown to in the no-false-verdict runs, which start every name.)
describe("tracecheck serve --reference-config", () => {
  const common = ["--seed", "2", "--events", "30"];
  let split: ServeProcess;
  let overridden: ServeProcess;
  // Started together: each serve pays its start-up once, at the same time as the other.
  beforeAll(async () => {
    [split, overridden] = await Promise.all([
      startServe([...common, "--reference-config", "split-resolver"]),
      startServe([...common, "--reference-config", "paged", "--page-size", "100"]),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([split, overridden].filter(Boolean).map((s) => s.stop()));
  });

  test("split-resolver serves the resolver on its own port with canonical anchors", async () => {
    expect(new URL(split.resolverBase).port).not.toBe(new URL(split.eventsBase).port);
    const events = (await (await fetch(`${split.eventsBase}/events`)).json()) as {
      epcisBody: { queryResults: { resultsBody: { eventList: { epcList?: string[] }[] } } };
    };
    const epc = events.epcisBody.queryResults.resultsBody.eventList.find((e) => e.epcList?.length)
      ?.epcList?.[0];
    expect(epc).toBeDefined();
    const asked = rebaseDigitalLink(canonicalId(epc!), split.resolverBase);
    const answer = await fetch(`${asked}?linkType=linkset`);
    expect(answer.status).toBe(200);
    const { linkset } = (await answer.json()) as { linkset: { anchor: string }[] };
    expect(linkset[0]?.anchor).toBe(rebaseDigitalLink(canonicalId(epc!), "https://id.gs1.org"));
  });

  test("a flag given beside a name overrides the name's setting", async () => {
    expect(await eventsStatus(overridden.eventsBase)).toBe(200);
    const answer = await fetch(`${overridden.eventsBase}/events`);
    await answer.arrayBuffer();
    expect(answer.headers.get("link")).toBeNull();
  });
});
