// X-API-Key authentication of the reference sender (spec 5): where keys are checked, how, and where keys come
// from.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANONICAL_DL_BASE, type Dataset } from "../../src/model/index.ts";
import { AUTH_FAULTS, keyMatches, loadKeys, SECURITY_EXCEPTION } from "../../src/reference/auth/index.ts";
import type { RunningReference } from "../../src/reference/server.ts";
import type { ReferenceConfig } from "../../src/reference/types.ts";
import { observedEvent } from "../support/events.ts";
import { type ReferenceOptions, referenceForTests, withReference } from "../support/reference.ts";
import { registryEntries } from "../support/registry.ts";
import { GTIN } from "./sender-fixture.ts";

const KEYS = ["first-key-7f3a", "second-key-91bc"];
const WRONG = "not-a-key-5d2e";

const DATASET: Dataset = {
  events: [
    observedEvent("00000000-0000-4000-8000-000000000001", {
      bizStep: "shipping",
      epcList: [`${CANONICAL_DL_BASE}/01/${GTIN}/21/1`],
    }),
  ],
  masterData: [
    {
      "@context": { "@vocab": "https://gs1.org/voc/" },
      "@type": "gs1:Product",
      "@id": `${CANONICAL_DL_BASE}/01/${GTIN}`,
      gtin: GTIN,
    },
  ],
};

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    headers: res.headers,
    text,
    type: String(res.headers["content-type"]).split(";")[0],
  };
}

interface Setup {
  keys?: string[];
  faults?: string[];
  config?: Partial<ReferenceConfig>;
}

/** The reference over DATASET: with both keys, no fault and the default configuration unless `setup` says. */
function options(setup: Setup = {}): ReferenceOptions {
  return {
    dataset: DATASET,
    apiKeys: setup.keys ?? KEYS,
    faults: setup.faults ?? [],
    config: setup.config ?? {},
  };
}

function using<T>(setup: Setup, use: (reference: RunningReference) => Promise<T>): Promise<T> {
  return withReference(options(setup), use);
}

const reference = referenceForTests(options());

describe("the query interface checks X-API-Key (spec 5)", () => {
  it("answers a request carrying either valid key", async () => {
    for (const key of KEYS) {
      expect((await get(`${reference().eventsBase}/events`, { "X-API-Key": key })).status).toBe(200);
    }
  });

  it("accepts the header name in any casing", async () => {
    for (const name of ["X-API-Key", "x-api-key", "X-API-KEY", "x-Api-kEY"]) {
      expect((await get(`${reference().eventsBase}/events`, { [name]: KEYS[0] ?? "" })).status, name).toBe(
        200,
      );
    }
  });

  it("refuses a missing key with 401 problem+json and a challenge", async () => {
    const res = await get(`${reference().eventsBase}/events`);
    expect(res.status).toBe(401);
    expect(res.type).toBe("application/problem+json");
    expect(JSON.parse(res.text)).toMatchObject({ status: 401, type: SECURITY_EXCEPTION });
    expect(res.headers["www-authenticate"]).toContain("X-API-Key");
  });

  it("refuses a wrong key, a truncated key and an extended key, and never echoes a key", async () => {
    const first = KEYS[0] ?? "";
    for (const key of [WRONG, first.slice(0, -1), `${first}x`, ""]) {
      const res = await get(`${reference().eventsBase}/events`, { "X-API-Key": key });
      expect(res.status, key).toBe(401);
      expect(res.type).toBe("application/problem+json");
      for (const secret of [...KEYS, WRONG]) expect(res.text).not.toContain(secret);
    }
  });

  it("does not take the key from the query string", async () => {
    for (const name of ["X-API-Key", "x-api-key", "api_key", "apiKey"]) {
      const url = `${reference().eventsBase}/events?${name}=${encodeURIComponent(KEYS[0] ?? "")}`;
      expect((await get(url)).status, name).toBe(401);
    }
  });

  it("answers 403 instead when so configured", async () => {
    await using({ config: { wrongKeyStatus: 403 } }, async (ref) => {
      const refused: Record<string, string>[] = [{}, { "X-API-Key": WRONG }];
      for (const headers of refused) {
        const res = await get(`${ref.eventsBase}/events`, headers);
        expect(res.status).toBe(403);
        expect(JSON.parse(res.text)).toMatchObject({ status: 403, type: SECURITY_EXCEPTION });
        expect(res.headers["www-authenticate"]).toBeUndefined();
      }
      expect((await get(`${ref.eventsBase}/events`, { "X-API-Key": KEYS[1] ?? "" })).status).toBe(200);
    });
  });

  it("answers without a key, and whatever key is given, when configured to ignore keys (spec 5.6)", async () => {
    await using({ config: { eventsKey: "ignored" } }, async (ref) => {
      const asked: Record<string, string>[] = [{}, { "X-API-Key": WRONG }, { "X-API-Key": KEYS[0] ?? "" }];
      for (const headers of asked) {
        expect((await get(`${ref.eventsBase}/events`, headers)).status).toBe(200);
      }
    });
  });

  it("answers without a key but refuses a key it did not issue when keys are optional", async () => {
    await using({ config: { eventsKey: "optional" } }, async (ref) => {
      expect((await get(`${ref.eventsBase}/events`)).status).toBe(200);
      expect((await get(`${ref.eventsBase}/events`, { "x-api-key": KEYS[1] ?? "" })).status).toBe(200);
      const wrong = await get(`${ref.eventsBase}/events`, { "X-API-Key": WRONG });
      expect(wrong.status).toBe(401);
      expect(JSON.parse(wrong.text)).toMatchObject({ status: 401, type: SECURITY_EXCEPTION });
    });
  });

  it("keeps the resolver's own key check whatever GET /events needs", async () => {
    await using({ config: { eventsKey: "ignored", authOnResolver: true } }, async (ref) => {
      expect((await get(`${ref.resolverBase}/01/${GTIN}?linkType=linkset`)).status).toBe(401);
    });
  });

  it("is public when no key is configured", async () => {
    await using({ keys: [] }, async (ref) => {
      expect((await get(`${ref.eventsBase}/events`)).status).toBe(200);
      expect((await get(`${ref.eventsBase}/events`, { "X-API-Key": WRONG })).status).toBe(200);
    });
  });
});

describe("the resolver and master data check keys only when configured (spec 5.6)", () => {
  const paths = [`/01/${GTIN}?linkType=linkset`, `/masterdata/01/${GTIN}`];

  it("are public by default even when the query interface has keys", async () => {
    for (const p of paths) expect((await get(`${reference().resolverBase}${p}`)).status, p).toBe(200);
  });

  for (const resolverPort of [undefined, 0]) {
    it(`check the key with authOnResolver (resolver ${resolverPort === undefined ? "shared" : "own"} port)`, async () => {
      const setup = { ...options({ config: { authOnResolver: true } }), resolverPort };
      await withReference(setup, async (guarded) => {
        for (const p of paths) {
          const url = `${guarded.resolverBase}${p}`;
          expect((await get(url)).status, p).toBe(401);
          expect((await get(url, { "X-API-Key": WRONG })).status, p).toBe(401);
          expect((await get(url, { "x-api-key": KEYS[1] ?? "" })).status, p).toBe(200);
        }
      });
    });
  }
});

describe("keyMatches", () => {
  it("matches exactly the listed keys, whatever their lengths", () => {
    expect(keyMatches("abc", ["x", "abc", "longer-key"])).toBe(true);
    expect(keyMatches("ab", ["abc"])).toBe(false);
    expect(keyMatches("abcd", ["abc"])).toBe(false);
    expect(keyMatches("abc", [])).toBe(false);
    expect(keyMatches("ÄBC", ["ÄBC"])).toBe(true);
  });
});

describe("loadKeys", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "tracecheck-keys-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("joins command-line keys, TRACECHECK_API_KEY and a keys file, without comments, blanks or repeats", async () => {
    const file = path.join(dir, "keys.txt");
    await writeFile(file, "# partner keys\r\nfile-key-1\n\n   \n  file-key-2  \n#file-key-3\ncli-key\n");
    const keys = await loadKeys({
      keys: ["cli-key"],
      env: { TRACECHECK_API_KEY: "env-key" },
      keysFile: file,
    });
    expect(keys).toEqual(["cli-key", "env-key", "file-key-1", "file-key-2"]);
  });

  it("gives no key when none is configured", async () => {
    expect(await loadKeys({ env: {} })).toEqual([]);
    expect(await loadKeys({ keys: [" "], env: { TRACECHECK_API_KEY: "" } })).toEqual([]);
  });

  it("says which keys file it cannot read", async () => {
    const missing = path.join(dir, "absent.txt");
    await expect(loadKeys({ env: {}, keysFile: missing })).rejects.toThrow(missing);
  });

  it("feeds the sender: a key from the file is accepted", async () => {
    const file = path.join(dir, "one.txt");
    await writeFile(file, "# one key\nfrom-file-3c1\n");
    const keys = await loadKeys({ env: {}, keysFile: file });
    await using({ keys }, async (ref) => {
      expect((await get(`${ref.eventsBase}/events`, { "X-API-Key": "from-file-3c1" })).status).toBe(200);
      expect((await get(`${ref.eventsBase}/events`, { "X-API-Key": "# one key" })).status).toBe(401);
    });
  });
});

describe("auth faults: each changes the behaviour it names", () => {
  const events = (ref: RunningReference) => `${ref.eventsBase}/events`;
  const observe: Record<string, (ref: RunningReference) => Promise<boolean>> = {
    "auth-wrong-accepted": async (ref) => (await get(events(ref), { "X-API-Key": WRONG })).status === 200,
    "auth-case-sensitive-header": async (ref) =>
      (await get(events(ref), { "x-api-key": KEYS[0] ?? "" })).status !== 200,
  };

  it("every auth fault has a test here, and names MUST requirements of the registry", () => {
    const musts = new Set(
      registryEntries()
        .filter((r) => r.level === "MUST")
        .map((r) => r.id),
    );
    expect(AUTH_FAULTS.map((f) => f.id).sort()).toEqual(Object.keys(observe).sort());
    for (const fault of AUTH_FAULTS) {
      for (const id of fault.violates) expect(musts.has(id), `${fault.id} names ${id}`).toBe(true);
    }
  });

  for (const [fault, shows] of Object.entries(observe)) {
    it(`${fault}: the defect shows with the fault on and not without it`, async () => {
      expect(await using({ faults: [fault] }, shows)).toBe(true);
      expect(await shows(reference())).toBe(false);
    });
  }

  it("each fault leaves the other checks in place", async () => {
    await using({ faults: ["auth-wrong-accepted"] }, async (ref) => {
      expect((await get(events(ref))).status).toBe(401);
    });
    await using({ faults: ["auth-case-sensitive-header"] }, async (ref) => {
      expect((await get(events(ref), { "X-API-Key": KEYS[0] ?? "" })).status).toBe(200);
      expect((await get(events(ref), { "X-API-Key": WRONG })).status).toBe(401);
    });
  });
});
