// The Digital Link resolver of the reference sender over real HTTP (spec 2.3, 4.2): the six path forms, the
// link set and its links, redirects by link type, and the refusals.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import Fastify, { type FastifyInstance } from "fastify";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createValidators, loadDefinition } from "../../src/definition/index.ts";
import {
  CANONICAL_DL_BASE,
  type Dataset,
  type EpcisEvent,
  epcUrnToDigitalLink,
  parseQueryString,
  rebaseDigitalLink,
  runOracle,
} from "../../src/model/index.ts";
import { registerMasterData } from "../../src/reference/masterdata/index.ts";
import {
  LINK_TYPE_NAMES,
  linkTypeOf,
  linkTypeUri,
  RESOLVER_FAULTS,
  registerResolver,
} from "../../src/reference/resolver/index.ts";
import { isOwnKey, ownIdentifiers } from "../../src/reference/resolver/own.ts";
import { DEFAULT_CONFIG, startReference } from "../../src/reference/server.ts";
import type { ReferenceConfig, ReferenceContext } from "../../src/reference/types.ts";
import { REPO_ROOT } from "../support/cli.ts";
import { observedEvent } from "../support/events.ts";
import { registryEntries } from "../support/registry.ts";
import {
  GLN,
  GLN_EVENTS_ONLY,
  GTIN,
  ORGANIZATION,
  PGLN,
  PLACE,
  PRODUCT,
  withCheck,
} from "./sender-fixture.ts";

const SHARED = path.resolve(REPO_ROOT, "../shared");

const dl = (urn: string) => {
  const uri = epcUrnToDigitalLink(urn);
  if (uri === undefined) throw new Error(`test data: ${urn} has no Digital Link form`);
  return uri;
};

const GTIN_B = withCheck("1950600077777");
const SERIAL_URN = "urn:epc:id:sgtin:9506000.013435.S%2F1";
const SSCC_URN = "urn:epc:id:sscc:9506000.0000000042";
const LOT_URN = "urn:epc:class:lgtin:9506000.013435.L+7";
const SSCC = dl(SSCC_URN).split("/").pop() ?? "";
const SERIAL_B_DL = `${CANONICAL_DL_BASE}/01/${GTIN_B}/21/777`;

const DATASET: Dataset = {
  events: [
    observedEvent("00000000-0000-4000-8000-000000000001", {
      action: "ADD",
      bizStep: "commissioning",
      epcList: [SERIAL_URN],
      bizLocation: { id: "urn:epc:id:sgln:9506000.00001.0" },
    }),
    observedEvent("00000000-0000-4000-8000-000000000002", {
      type: "AggregationEvent",
      action: "ADD",
      bizStep: "packing",
      parentID: SSCC_URN,
      childEPCs: [SERIAL_B_DL],
      childQuantityList: [{ epcClass: LOT_URN, quantity: 10, uom: "KGM" }],
      readPoint: { id: `${CANONICAL_DL_BASE}/414/${GLN_EVENTS_ONLY}` },
    }),
  ],
  masterData: [
    PRODUCT,
    PLACE,
    // The sender's name as a language-tagged JSON-LD value: the link set still describes the party by it.
    { ...ORGANIZATION, organizationName: [{ "@value": "Sender Fisheries", "@language": "en" }] },
  ],
};

const EPCIS = linkTypeUri("epcis");
const MASTER_DATA = linkTypeUri("masterData");
const DEFAULT_LINK = linkTypeUri("defaultLink");

/** The six paths of spec 4.2 with the link types its table names and what the entry describes. */
const PATHS: { path: string; linkTypes: string[]; description: string | null; events: string[] }[] = [
  { path: `/00/${SSCC}`, linkTypes: [EPCIS], description: null, events: ["2"] },
  {
    path: `/417/${PGLN}`,
    linkTypes: [MASTER_DATA, EPCIS],
    description: "Sender Fisheries",
    events: ["1", "2"],
  },
  { path: `/414/${GLN}`, linkTypes: [MASTER_DATA, EPCIS], description: "Harbour plant", events: ["1"] },
  { path: `/01/${GTIN}`, linkTypes: [MASTER_DATA], description: "Frozen cod fillets", events: [] },
  { path: `/01/${GTIN}/10/L%2B7`, linkTypes: [EPCIS], description: "Frozen cod fillets", events: ["2"] },
  { path: `/01/${GTIN}/21/S%2F1`, linkTypes: [EPCIS], description: "Frozen cod fillets", events: ["1"] },
];

interface Running {
  base: string;
  close(): Promise<void>;
}

/** The resolver and master data registrars beside an /events route that answers from the query oracle. */
async function startResolver(
  config: Partial<ReferenceConfig> = {},
  faults: string[] = [],
  dataset: Dataset = DATASET,
): Promise<Running> {
  const app: FastifyInstance = Fastify({ logger: false });
  let base = "";
  const ctx: ReferenceContext = {
    config: { ...DEFAULT_CONFIG, ...config },
    faults: new Set(faults),
    apiKeys: [],
    dataset,
    eventsBase: () => base,
    resolverBase: () => base,
  };
  app.get("/events", (req, reply) => {
    const raw = req.raw.url ?? "";
    const parsed = parseQueryString(raw.includes("?") ? raw.slice(raw.indexOf("?") + 1) : "");
    if (parsed.unknown.length > 0) return reply.code(400).send({ unknown: parsed.unknown });
    const eventList = runOracle(dataset.events, parsed.query);
    return reply.send({
      type: "EPCISQueryDocument",
      epcisBody: { queryResults: { resultsBody: { eventList } } },
    });
  });
  registerResolver(app, ctx);
  registerMasterData(app, ctx);
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("test server has no port");
  base = `http://127.0.0.1:${address.port}`;
  return { base, close: () => app.close() };
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) as unknown };
}

function mediaType(headers: Record<string, string | string[] | undefined>): string | undefined {
  return String(headers["content-type"]).split(";")[0]?.trim();
}

/** Spec 2.3, as rules: what a link set must be, whatever else it carries. Returns the problems found. */
function linksetProblems(body: unknown): string[] {
  const problems: string[] = [];
  const linkset = (body as { linkset?: unknown })?.linkset;
  if (!Array.isArray(linkset) || linkset.length === 0) return ["linkset is not a non-empty array"];
  for (const entry of linkset as Record<string, unknown>[]) {
    if (typeof entry.anchor !== "string" || !URL.canParse(entry.anchor)) problems.push("anchor is not a URI");
    if (!(typeof entry.itemDescription === "string" || entry.itemDescription === null)) {
      problems.push("itemDescription is neither a string nor null");
    }
    for (const name of LINK_TYPE_NAMES) {
      const links = entry[linkTypeUri(name)];
      if (links === undefined) continue;
      if (!Array.isArray(links)) {
        problems.push(`${name} is not an array`);
        continue;
      }
      for (const link of links as Record<string, unknown>[]) {
        if (typeof link.href !== "string" || !URL.canParse(link.href))
          problems.push(`${name} href is not a URL`);
        if (typeof link.title !== "string") problems.push(`${name} link has no string title`);
      }
    }
  }
  return problems;
}

type Entry = Record<string, { href: string; title: string; type?: string }[] | string | null>;

function entryOf(body: unknown): Entry {
  const entry = (body as { linkset: Entry[] }).linkset[0];
  if (entry === undefined) throw new Error("empty link set");
  return entry;
}

function hrefOf(entry: Entry, linkType: string): string {
  const links = entry[linkType];
  if (!Array.isArray(links) || links[0] === undefined) throw new Error(`no ${linkType} link`);
  return links[0].href;
}

let server: Running;
beforeAll(async () => {
  server = await startResolver();
});
afterAll(async () => {
  await server.close();
});

describe("link sets of the six path forms (spec 2.3, 4.2)", () => {
  for (const p of PATHS) {
    it(`GET ${p.path}?linkType=linkset answers a well-formed link set with the table's link types`, async () => {
      const res = await get(`${server.base}${p.path}?linkType=linkset`);
      expect(res.status).toBe(200);
      expect(mediaType(res.headers)).toBe("application/linkset+json");
      const body = res.json();
      expect(linksetProblems(body)).toEqual([]);
      const entry = entryOf(body);
      expect(entry.anchor).toBe(`${server.base}${p.path}`);
      expect(entry.itemDescription).toBe(p.description);
      const offered = Object.keys(entry).filter((k) => k !== DEFAULT_LINK && k.startsWith("https://"));
      expect(offered.sort()).toEqual([...p.linkTypes].sort());
      const preferred = p.linkTypes.includes(MASTER_DATA) ? MASTER_DATA : EPCIS;
      expect(hrefOf(entry, DEFAULT_LINK)).toBe(hrefOf(entry, preferred));
    });
  }

  it("validates against the GS1 link-set schema where itemDescription is a string", async () => {
    const schema = JSON.parse(
      readFileSync(path.join(SHARED, "epcis/digital-link/linkset/gs1-linkset-schema.json"), "utf8"),
    );
    const validate = new Ajv({ strict: false }).compile(schema);
    for (const p of PATHS.filter((x) => x.description !== null)) {
      const body = (await get(`${server.base}${p.path}?linkType=linkset`)).json();
      expect(validate(body), `${p.path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it("validates against the definition's link-set schema, with the definition's x-link-types", async () => {
    const definition = await loadDefinition();
    const { validateLinkset } = await createValidators({ definition, network: false });
    for (const p of PATHS) {
      const body = (await get(`${server.base}${p.path}?linkType=linkset`)).json();
      expect(validateLinkset(body), p.path).toEqual({ valid: true, errors: [] });
      const ais = p.path.split("/").filter((_, i) => i % 2 === 1);
      const declared = definition.resolverPaths.find((r) => r.ais.join("/") === ais.join("/"));
      expect(declared, p.path).toBeDefined();
      const expanded = (declared?.linkTypes ?? []).map((t) => linkTypeUri(linkTypeOf(t) ?? "defaultLink"));
      expect([...p.linkTypes].sort()).toEqual(expanded.sort());
    }
  });

  it("every epcis href answers 200 with the identifier's events", async () => {
    for (const p of PATHS.filter((x) => x.linkTypes.includes(EPCIS))) {
      const entry = entryOf((await get(`${server.base}${p.path}?linkType=linkset`)).json());
      const href = hrefOf(entry, EPCIS);
      expect(href.startsWith(`${server.base}/events`)).toBe(true);
      expect(href).not.toContain("|");
      const res = await get(href);
      expect(res.status, href).toBe(200);
      const ids = (
        res.json() as { epcisBody: { queryResults: { resultsBody: { eventList: EpcisEvent[] } } } }
      ).epcisBody.queryResults.resultsBody.eventList.map((e) => e.eventID?.slice(-1));
      expect(ids.sort(), href).toEqual(p.events);
    }
  });

  it("every masterData href answers 200 with the type the identifier calls for", async () => {
    const expected: Record<string, string> = {
      "01": "gs1:Product",
      "414": "gs1:Place",
      "417": "gs1:Organization",
    };
    for (const p of PATHS.filter((x) => x.linkTypes.includes(MASTER_DATA))) {
      const entry = entryOf((await get(`${server.base}${p.path}?linkType=linkset`)).json());
      const res = await get(hrefOf(entry, MASTER_DATA));
      expect(res.status).toBe(200);
      const doc = res.json() as Record<string, unknown>;
      expect(doc["@type"]).toBe(expected[p.path.split("/")[1] ?? ""]);
      expect(doc["@id"]).toBe(`${CANONICAL_DL_BASE}${p.path}`);
    }
  });

  it("identifiers seen only in events resolve, with generated master data and a null description", async () => {
    for (const p of [`/01/${GTIN_B}`, `/01/${GTIN_B}/21/777`, `/414/${GLN_EVENTS_ONLY}`]) {
      const res = await get(`${server.base}${p}?linkType=linkset`);
      expect(res.status, p).toBe(200);
      expect(entryOf(res.json()).itemDescription).toBeNull();
    }
    const entry = entryOf((await get(`${server.base}/01/${GTIN_B}?linkType=linkset`)).json());
    const doc = (await get(hrefOf(entry, MASTER_DATA))).json() as Record<string, unknown>;
    expect(doc).toMatchObject({ "@type": "gs1:Product", gtin: GTIN_B });
  });

  it("decodes percent-encoded lots and serials, in either hex case", async () => {
    const lower = await get(`${server.base}/01/${GTIN}/21/S%2f1?linkType=linkset`);
    expect(lower.status).toBe(200);
    expect(entryOf(lower.json()).anchor).toBe(`${server.base}/01/${GTIN}/21/S%2F1`);
    expect((await get(`${server.base}/01/${GTIN}/21/S1?linkType=linkset`)).status).toBe(404);
  });

  it("accepts a GTIN-13 and anchors it as the GTIN-14", async () => {
    const res = await get(`${server.base}/01/${GTIN.slice(1)}?linkType=linkset`);
    expect(res.status).toBe(200);
    expect(entryOf(res.json()).anchor).toBe(`${server.base}/01/${GTIN}`);
  });

  it("resolves an identifier issued under https://id.gs1.org once rebased to the resolver", async () => {
    const canonical = dl(SERIAL_URN);
    expect(canonical.startsWith(CANONICAL_DL_BASE)).toBe(true);
    const rebased = await get(`${rebaseDigitalLink(canonical, server.base)}?linkType=linkset`);
    const direct = await get(`${server.base}/01/${GTIN}/21/S%2F1?linkType=linkset`);
    expect(rebased.status).toBe(200);
    expect(rebased.json()).toEqual(direct.json());
  });

  it("answers the link set to Accept: application/linkset+json without linkType", async () => {
    const res = await get(`${server.base}/00/${SSCC}`, { accept: "application/linkset+json" });
    expect(res.status).toBe(200);
    expect(linksetProblems(res.json())).toEqual([]);
  });

  it("anchors under https://id.gs1.org when configured to", async () => {
    const canonical = await startResolver({ canonicalAnchors: true });
    try {
      for (const p of PATHS) {
        const entry = entryOf((await get(`${canonical.base}${p.path}?linkType=linkset`)).json());
        expect(entry.anchor).toBe(`${CANONICAL_DL_BASE}${p.path}`);
      }
    } finally {
      await canonical.close();
    }
  });
});

describe("redirects by link type", () => {
  it("without linkType, 307 to the default link", async () => {
    for (const p of PATHS) {
      const entry = entryOf((await get(`${server.base}${p.path}?linkType=linkset`)).json());
      const res = await get(`${server.base}${p.path}`);
      expect(res.status, p.path).toBe(307);
      expect(res.headers.location).toBe(hrefOf(entry, DEFAULT_LINK));
    }
  });

  it("a linkType naming an offered link type, in any of its spellings, 307s to that link", async () => {
    const entry = entryOf((await get(`${server.base}/414/${GLN}?linkType=linkset`)).json());
    const cases: [string, string][] = [
      ["gs1:epcis", EPCIS],
      ["https://ref.gs1.org/voc/epcis", EPCIS],
      ["https://gs1.org/voc/masterData", MASTER_DATA],
      ["gs1:masterData", MASTER_DATA],
      ["gs1:defaultLink", DEFAULT_LINK],
    ];
    for (const [value, member] of cases) {
      const res = await get(`${server.base}/414/${GLN}?linkType=${encodeURIComponent(value)}`);
      expect(res.status, value).toBe(307);
      expect(res.headers.location).toBe(hrefOf(entry, member));
    }
  });

  it("an unknown link type, or one not offered for the path, is 404 problem+json", async () => {
    for (const url of [
      `/414/${GLN}?linkType=gs1:pip`,
      `/414/${GLN}?linkType=all`,
      `/00/${SSCC}?linkType=gs1:masterData`,
      `/01/${GTIN}?linkType=gs1:epcis`,
    ]) {
      const res = await get(`${server.base}${url}`);
      expect(res.status, url).toBe(404);
      expect(mediaType(res.headers)).toBe("application/problem+json");
      expect(res.json()).toMatchObject({ status: 404, type: "urn:tracecheck:problem:unknown-link-type" });
    }
  });

  it("accepts every spelling the GS1 Web Vocabulary gives the three link types", () => {
    const vocabulary = JSON.parse(
      readFileSync(path.join(SHARED, "epcis/digital-link/gs1-linktypes.v1.16.derived.json"), "utf8"),
    ) as { linkTypes: { curie: string; uri: string; equivalent: string[] }[] };
    for (const name of LINK_TYPE_NAMES) {
      const term = vocabulary.linkTypes.find((t) => t.curie === `gs1:${name}`);
      expect(term, name).toBeDefined();
      for (const spelling of [term?.curie ?? "", term?.uri ?? "", ...(term?.equivalent ?? [])]) {
        expect(linkTypeOf(spelling), spelling).toBe(name);
      }
      expect(term?.uri).toBe(linkTypeUri(name));
    }
    expect(linkTypeOf("gs1:pip")).toBeUndefined();
  });
});

describe("refusals", () => {
  const badGtin = GTIN.slice(0, 13) + String((Number(GTIN.slice(13)) + 1) % 10);
  const invalid: [string, string][] = [
    ["alphabetic AI", `/gtin/${GTIN}`],
    ["alphabetic AI for an SSCC", `/sscc/${SSCC}`],
    ["alphabetic qualifier", `/01/${GTIN}/ser/S%2F1`],
    ["qualifier first", `/21/S%2F1/01/${GTIN}`],
    ["lot alone", `/10/L%2B7`],
    ["GTIN of 3 digits", "/01/123"],
    ["SSCC of 17 digits", `/00/${SSCC.slice(1)}`],
    ["GLN of 14 digits", `/414/0${GLN}`],
    ["bad check digit", `/01/${badGtin}`],
    ["not an AI", "/favicon/x"],
  ];
  for (const [what, url] of invalid) {
    it(`${what} (${url}) is 400 problem+json`, async () => {
      const res = await get(`${server.base}${url}?linkType=linkset`);
      expect(res.status).toBe(400);
      expect(mediaType(res.headers)).toBe("application/problem+json");
      const body = res.json() as Record<string, unknown>;
      expect(body).toMatchObject({ status: 400, type: "urn:tracecheck:problem:invalid-digital-link" });
      expect(typeof body.detail).toBe("string");
    });
  }

  const unknown: [string, string][] = [
    ["unknown GTIN", `/01/${withCheck("0950600055555")}`],
    ["unknown serial of a known GTIN", `/01/${GTIN}/21/NOPE`],
    ["unknown lot of a known GTIN", `/01/${GTIN}/10/NOPE`],
    ["unknown SSCC", `/00/${withCheck("09506000999999999")}`],
    ["unknown PGLN", `/417/${withCheck("950600088888")}`],
    ["GLN with an extension (not one of the six forms)", `/414/${GLN}/254/7`],
  ];
  for (const [what, url] of unknown) {
    it(`${what} (${url}) is 404 problem+json`, async () => {
      const res = await get(`${server.base}${url}?linkType=linkset`);
      expect(res.status).toBe(404);
      expect(mediaType(res.headers)).toBe("application/problem+json");
      expect(res.json()).toMatchObject({ status: 404, type: "urn:tracecheck:problem:unknown-identifier" });
    });
  }
});

describe("resolver faults: each changes the behaviour it names", () => {
  const serial = `/01/${GTIN}/21/S%2F1`;
  const linkset = async (base: string, p: string) => get(`${base}${p}?linkType=linkset`);
  const entryAt = async (base: string, p: string) => entryOf((await linkset(base, p)).json());
  const eventIdsAt = async (href: string) =>
    (
      (await get(href)).json() as {
        epcisBody: { queryResults: { resultsBody: { eventList: EpcisEvent[] } } };
      }
    ).epcisBody.queryResults.resultsBody.eventList.map((e) => e.eventID);

  const pathFault = (p: string) => async (base: string) => (await linkset(base, p)).status === 404;

  /** Whether the named defect shows on the server at `base`. */
  const observe: Record<string, (base: string) => Promise<boolean>> = {
    "res-no-sscc": pathFault(`/00/${SSCC}`),
    "res-no-pgln": pathFault(`/417/${PGLN}`),
    "res-no-gln": pathFault(`/414/${GLN}`),
    "res-no-gtin": pathFault(`/01/${GTIN}`),
    "res-no-gtin-lot": pathFault(`/01/${GTIN}/10/L%2B7`),
    "res-no-gtin-serial": pathFault(serial),
    "res-alphabetic-accepted": async (base) =>
      (await linkset(base, `/gtin/${GTIN}/ser/S%2F1`)).status === 200,
    "res-anchor-wrong": async (base) => (await entryAt(base, serial)).anchor === base,
    "res-no-title": async (base) => linksetProblems((await linkset(base, `/414/${GLN}`)).json()).length > 0,
    "res-itemdescription-number": async (base) =>
      typeof (await entryAt(base, `/01/${GTIN}`)).itemDescription === "number",
    "res-no-linkset-array": async (base) =>
      !Array.isArray(((await linkset(base, `/00/${SSCC}`)).json() as { linkset: unknown }).linkset),
    "res-missing-epcis-link": async (base) => !(EPCIS in (await entryAt(base, `/01/${GTIN}/10/L%2B7`))),
    "res-missing-masterdata-link": async (base) => !(MASTER_DATA in (await entryAt(base, `/01/${GTIN}`))),
    "res-epcis-link-broken": async (base) =>
      (await get(hrefOf(await entryAt(base, `/00/${SSCC}`), EPCIS))).status !== 200,
    "res-epcis-link-wrong-id": async (base) =>
      !(await eventIdsAt(hrefOf(await entryAt(base, serial), EPCIS))).includes(DATASET.events[0]?.eventID),
    "res-product-epcis-empty": async (base) => {
      const entry = await entryAt(base, `/01/${GTIN}`);
      return EPCIS in entry && (await eventIdsAt(hrefOf(entry, EPCIS))).length === 0;
    },
    "res-lot-anchor-gtin": async (base) =>
      (await entryAt(base, `/01/${GTIN}/10/L%2B7`)).anchor === `/01/${GTIN}`,
    // GTIN is the only product with a lot, so its lot's link selects that lot under GTIN_B.
    "res-last-product-lots": async (base) =>
      !(await eventIdsAt(hrefOf(await entryAt(base, `/01/${GTIN}/10/L%2B7`), EPCIS))).includes(
        DATASET.events[1]?.eventID,
      ),
    // GTIN_B is the last product in numeric order; its masterData link leads to GTIN's document.
    "res-last-product-masterdata": async (base) => {
      const doc = (await get(hrefOf(await entryAt(base, `/01/${GTIN_B}`), MASTER_DATA))).json();
      return (doc as Record<string, unknown>)["@id"] !== `${CANONICAL_DL_BASE}/01/${GTIN_B}`;
    },
    "res-masterdata-wrong-type": async (base) => {
      const doc = (await get(hrefOf(await entryAt(base, `/01/${GTIN}`), MASTER_DATA))).json();
      return (doc as Record<string, unknown>)["@type"] !== "gs1:Product";
    },
  };

  it("every resolver fault has a test here, and names requirements of the registry", () => {
    // A SHOULD requirement's fault is caught by its warning, as the kill matrix counts it.
    const musts = new Set(
      registryEntries()
        .filter((r) => r.level !== "MAY")
        .map((r) => r.id),
    );
    expect(RESOLVER_FAULTS.map((f) => f.id).sort()).toEqual(Object.keys(observe).sort());
    for (const fault of RESOLVER_FAULTS) {
      expect(fault.id).toMatch(/^[a-z]+(-[a-z0-9]+)+$/);
      expect(fault.violates.length).toBeGreaterThan(0);
      for (const id of fault.violates) expect(musts.has(id), `${fault.id} names ${id}`).toBe(true);
    }
  });

  for (const [fault, shows] of Object.entries(observe)) {
    it(`${fault}: the defect shows with the fault on and not without it`, async () => {
      const faulty = await startResolver({}, [fault]);
      try {
        expect(await shows(faulty.base)).toBe(true);
        expect(await shows(server.base)).toBe(false);
      } finally {
        await faulty.close();
      }
    });
  }

  it("a path fault leaves the other path forms answering", async () => {
    const faulty = await startResolver({}, ["res-no-sscc"]);
    try {
      for (const p of PATHS.filter((x) => !x.path.startsWith("/00/"))) {
        expect((await linkset(faulty.base, p.path)).status, p.path).toBe(200);
      }
    } finally {
      await faulty.close();
    }
  });
});

describe("inside the reference sender", () => {
  for (const resolverPort of [undefined, 0]) {
    const where = resolverPort === undefined ? "on the events port" : "on its own port";
    it(`every href of every link set answers 200 through the real routes (resolver ${where})`, async () => {
      const reference = await startReference({ dataset: DATASET, resolverPort });
      try {
        if (resolverPort !== undefined) expect(reference.resolverBase).not.toBe(reference.eventsBase);
        for (const p of PATHS) {
          const res = await get(`${reference.resolverBase}${p.path}?linkType=linkset`);
          expect(res.status, p.path).toBe(200);
          expect(linksetProblems(res.json())).toEqual([]);
          const entry = entryOf(res.json());
          for (const name of LINK_TYPE_NAMES) {
            const links = entry[linkTypeUri(name)];
            if (!Array.isArray(links)) continue;
            for (const link of links) {
              const answer = await get(link.href);
              expect(answer.status, link.href).toBe(200);
            }
          }
          if (p.linkTypes.includes(EPCIS)) {
            const href = hrefOf(entry, EPCIS);
            expect(href.startsWith(`${reference.eventsBase}/events`)).toBe(true);
            const body = (await get(href)).json() as {
              epcisBody: { queryResults: { resultsBody: { eventList: EpcisEvent[] } } };
            };
            const ids = body.epcisBody.queryResults.resultsBody.eventList.map((e) => e.eventID?.slice(-1));
            expect(ids.sort(), href).toEqual(p.events);
          }
        }
      } finally {
        await reference.close();
      }
    });
  }
});

describe("a party's GLN as a location (spec 1, step 1: the party's location number)", () => {
  it("/414/{the party's GLN} resolves to a gs1:Place with the party's name", async () => {
    const entry = entryOf((await get(`${server.base}/414/${PGLN}?linkType=linkset`)).json());
    expect(entry.anchor).toBe(`${server.base}/414/${PGLN}`);
    const doc = (await get(hrefOf(entry, MASTER_DATA))).json() as Record<string, unknown>;
    expect(doc).toMatchObject({
      "@type": "gs1:Place",
      "@id": `${CANONICAL_DL_BASE}/414/${PGLN}`,
      globalLocationNumber: PGLN,
      name: [{ "@value": "Sender Fisheries", "@language": "en" }],
    });
  });

  it("the generated fixture's sender GLN resolves at /414/ to master data", async () => {
    const { generateDataset } = await import("../../src/generate/index.ts");
    const dataset = generateDataset({ seed: 1, events: 50 });
    const sender = ownIdentifiers(dataset.events).party ?? "";
    const gln = sender.split("/").pop() ?? "";
    const reference = await startReference({ dataset });
    try {
      const res = await get(`${reference.resolverBase}/414/${gln}?linkType=linkset`);
      expect(res.status).toBe(200);
      const doc = (await get(hrefOf(entryOf(res.json()), MASTER_DATA))).json() as Record<string, unknown>;
      expect(doc["@type"]).toBe("gs1:Place");
    } finally {
      await reference.close();
    }
  });
});

// A sender of company prefix 9506001 that records the events, and another company (4012345) whose goods it
// receives: the named configurations that treat the sender's own identifiers apart.
const OWN = {
  pgln: withCheck("950600100000"),
  gln: withCheck("950600100001"),
  gtin: withCheck("0950600100012"),
  sscc: withCheck("09506001000000042"),
};
const OTHER = {
  pgln: withCheck("401234500000"),
  gln: withCheck("401234500017"),
  gtin: withCheck("1401234500016"),
};
const OWNED: Dataset = {
  events: [
    observedEvent("00000000-0000-4000-8000-00000000000a", {
      epcList: [`${CANONICAL_DL_BASE}/01/${OTHER.gtin}/21/5`],
      bizLocation: { id: `${CANONICAL_DL_BASE}/414/${OTHER.gln}` },
      "cbvmda:informationProvider": `${CANONICAL_DL_BASE}/417/${OWN.pgln}`,
      "gdst:productOwner": `${CANONICAL_DL_BASE}/417/${OTHER.pgln}`,
    }),
    observedEvent("00000000-0000-4000-8000-00000000000b", {
      type: "AggregationEvent",
      action: "ADD",
      parentID: `${CANONICAL_DL_BASE}/00/${OWN.sscc}`,
      childEPCs: [`${CANONICAL_DL_BASE}/01/${OWN.gtin}/21/7`],
      bizLocation: { id: "urn:epc:id:sgln:9506001.00001.0" },
      "cbvmda:informationProvider": `urn:epc:id:pgln:9506001.00000`,
    }),
  ],
  masterData: [],
};

describe("the sender's own identifiers", () => {
  it("are those under the company prefix of the party that records most events", () => {
    const own = ownIdentifiers(OWNED.events);
    expect(own).toEqual({ party: `${CANONICAL_DL_BASE}/417/${OWN.pgln}`, prefix: "9506001" });
    expect(isOwnKey(own, { ai: "414", value: OWN.gln })).toBe(true);
    expect(isOwnKey(own, { ai: "01", value: OWN.gtin })).toBe(true);
    expect(isOwnKey(own, { ai: "00", value: OWN.sscc })).toBe(true);
    expect(isOwnKey(own, { ai: "01", value: OTHER.gtin })).toBe(false);
    expect(isOwnKey(own, { ai: "417", value: OTHER.pgln })).toBe(false);
    expect(ownIdentifiers([])).toEqual({});
  });

  it("a party GLN with trailing zeros in its prefix still gives at least six digits", () => {
    const party = withCheck("950000000000");
    const own = ownIdentifiers([
      observedEvent("c", { "cbvmda:informationProvider": `${CANONICAL_DL_BASE}/417/${party}` }),
    ]);
    expect(own.prefix).toBe("950000");
  });
});

describe("named configurations: the freedoms a correct sender may use", () => {
  const linksetAt = async (base: string, p: string) => get(`${base}${p}?linkType=linkset`);

  it("linkTypeNamespace writes every member under https://gs1.org/voc/, and linkType still selects by any spelling", async () => {
    const gs1voc = await startResolver({ linkTypeNamespace: "https://gs1.org/voc/" });
    try {
      const entry = entryOf((await linksetAt(gs1voc.base, `/414/${GLN}`)).json());
      expect(Object.keys(entry).sort()).toEqual(
        [
          "anchor",
          "itemDescription",
          "https://gs1.org/voc/defaultLink",
          "https://gs1.org/voc/epcis",
          "https://gs1.org/voc/masterData",
        ].sort(),
      );
      const res = await get(`${gs1voc.base}/414/${GLN}?linkType=${encodeURIComponent(EPCIS)}`);
      expect(res.headers.location).toBe(hrefOf(entry, "https://gs1.org/voc/epcis"));
    } finally {
      await gs1voc.close();
    }
  });

  it("epcisLinks query-interface gives the query interface itself, which answers the identifier's events when asked", async () => {
    const plain = await startResolver({ epcisLinks: "query-interface" });
    try {
      for (const p of PATHS.filter((x) => x.linkTypes.includes(EPCIS))) {
        const href = hrefOf(entryOf((await linksetAt(plain.base, p.path)).json()), EPCIS);
        expect(href, p.path).toBe(`${plain.base}/events`);
      }
    } finally {
      await plain.close();
    }
  });

  it("resolves own answers for the sender's party, its seat, locations, products and units, and 404 for another company's", async () => {
    const own = await startResolver({ resolves: "own" }, [], OWNED);
    const all = await startResolver({}, [], OWNED);
    try {
      const mine = [
        `/417/${OWN.pgln}`,
        `/414/${OWN.pgln}`,
        `/414/${OWN.gln}`,
        `/01/${OWN.gtin}`,
        `/01/${OWN.gtin}/21/7`,
        `/00/${OWN.sscc}`,
      ];
      const theirs = [
        `/417/${OTHER.pgln}`,
        `/414/${OTHER.gln}`,
        `/01/${OTHER.gtin}`,
        `/01/${OTHER.gtin}/21/5`,
      ];
      for (const p of mine) expect((await linksetAt(own.base, p)).status, p).toBe(200);
      for (const p of theirs) {
        const res = await linksetAt(own.base, p);
        expect(res.status, p).toBe(404);
        expect(res.json()).toMatchObject({ type: "urn:tracecheck:problem:unknown-identifier" });
        expect((await linksetAt(all.base, p)).status, p).toBe(200);
      }
    } finally {
      await own.close();
      await all.close();
    }
  });

  it("partyLocationMasterData own offers only epcis for another company's party and location, both for its own", async () => {
    const server = await startResolver({ partyLocationMasterData: "own" }, [], OWNED);
    try {
      for (const p of [`/417/${OTHER.pgln}`, `/414/${OTHER.gln}`]) {
        const entry = entryOf((await linksetAt(server.base, p)).json());
        expect(MASTER_DATA in entry, p).toBe(false);
        expect(hrefOf(entry, DEFAULT_LINK)).toBe(hrefOf(entry, EPCIS));
      }
      for (const p of [`/417/${OWN.pgln}`, `/414/${OWN.pgln}`, `/414/${OWN.gln}`]) {
        const entry = entryOf((await linksetAt(server.base, p)).json());
        expect(MASTER_DATA in entry, p).toBe(true);
        expect(EPCIS in entry, p).toBe(true);
      }
      const product = entryOf((await linksetAt(server.base, `/01/${OTHER.gtin}`)).json());
      expect(MASTER_DATA in product).toBe(true);
    } finally {
      await server.close();
    }
  });
});
