// Compiled validators kept between runs: a run that finds the code Ajv generated for the same schemas loads it
// instead of compiling, and what it loads judges every document exactly as a fresh compile does.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createValidators,
  loadDefinition,
  MASTER_DATA_TYPES,
  REPO_ROOT,
  type ValidationResult,
  type Validators,
} from "../../src/definition/index.ts";
import { runNode, tempDir } from "../support/cli.ts";
import { EPCIS_EXAMPLES, filesUnder } from "../support/examples.ts";

/** Every published example and invalid capture document, and each of their events. */
function documents(): { name: string; doc: unknown; events: unknown[] }[] {
  return [...filesUnder(EPCIS_EXAMPLES, ".jsonld"), ...filesUnder(EPCIS_EXAMPLES, ".json")].map((file) => {
    const doc = JSON.parse(readFileSync(file, "utf8")) as {
      epcisBody?: { eventList?: unknown[]; queryResults?: { resultsBody?: { eventList?: unknown[] } } };
    };
    const events = doc.epcisBody?.eventList ?? doc.epcisBody?.queryResults?.resultsBody?.eventList ?? [];
    return { name: path.relative(EPCIS_EXAMPLES, file), doc, events };
  });
}

/** What a set of validators says about every example, event by event, and about made-up link sets and master data. */
function verdicts(v: Validators): Record<string, ValidationResult> {
  const out: Record<string, ValidationResult> = {};
  for (const { name, doc, events } of documents()) {
    out[name] = v.validateEpcisDocument(doc);
    for (const [n, event] of events.entries()) {
      out[`${name} event ${n}`] = v.validateEvent(event);
      for (const m of v.modules) out[`${name} event ${n} module ${m}`] = v.validateModule(m, event);
    }
  }
  const link = { href: "https://epcis.example.com/events", title: "Events" };
  for (const [n, body] of [
    {
      linkset: [{ anchor: "https://id.gs1.org/01/09506000134352", "https://ref.gs1.org/voc/epcis": [link] }],
    },
    { linkset: [{ anchor: "not a uri", itemDescription: 4 }] },
    { linkset: {} },
    {},
  ].entries()) {
    out[`linkset ${n}`] = v.validateLinkset(body);
  }
  for (const type of MASTER_DATA_TYPES) {
    out[`master data ${type} empty`] = v.validateMasterData(type, {});
    out[`master data ${type} typed`] = v.validateMasterData(type, { "@context": {}, "@type": type });
  }
  return out;
}

let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  work = await tempDir("validator-cache");
});
afterAll(async () => {
  await work?.remove();
});

const cacheFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".cjs"));

/**
 * In a process of its own, as a run: the validators kept in `dir`, loaded (or compiled), and what they say of every
 * example.
 */
async function verdictsInProcess(dir: string): Promise<string> {
  const source = path.join(REPO_ROOT, "src", "definition", "index.ts");
  const script = `
    const { createValidators } = await import(${JSON.stringify(source)});
    const v = await createValidators({ network: false, validatorCache: ${JSON.stringify(dir)} });
    const examples = ${JSON.stringify(filesUnder(EPCIS_EXAMPLES, ".jsonld"))};
    const { readFileSync } = await import("node:fs");
    const out = examples.map((f) => v.validateEpcisDocument(JSON.parse(readFileSync(f, "utf8"))));
    out.push(v.validateLinkset({}), v.validateLinkset({ linkset: [] }));
    process.stdout.write(JSON.stringify(out));`;
  const result = await runNode(["--import", "tsx", "--input-type=module", "-e", script]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

describe("validators kept between runs", () => {
  it("are loaded by the next process, which judges as the one that compiled them", async () => {
    const dir = path.join(work.dir, "in-process");
    const compiling = await verdictsInProcess(dir);
    expect(cacheFiles(dir)).toHaveLength(2);
    const loading = await verdictsInProcess(dir);
    expect(JSON.parse(compiling)).toEqual(
      expect.arrayContaining([expect.objectContaining({ valid: false })]),
    );
    expect(JSON.parse(compiling)).toEqual(expect.arrayContaining([expect.objectContaining({ valid: true })]));
    expect(loading).toBe(compiling);
  }, 60_000);

  it("are written by the first run and judge every document as a fresh compile does when loaded", async () => {
    const dir = path.join(work.dir, "kept");
    const fresh = await createValidators({ network: false, validatorCache: dir });
    // One file for the EPCIS schema, one for the definition's own schemas.
    expect(cacheFiles(dir)).toHaveLength(2);
    const loaded = await createValidators({ network: false, validatorCache: dir });
    const expected = verdicts(fresh);
    expect(Object.keys(expected).length).toBeGreaterThan(500);
    expect(Object.values(expected).some((r) => !r.valid)).toBe(true);
    expect(Object.values(expected).some((r) => r.valid)).toBe(true);
    expect(verdicts(loaded)).toEqual(expected);
  });

  it("are loaded, not compiled, when the code for the same schemas is there", async () => {
    const first = path.join(work.dir, "first");
    await createValidators({ network: false, validatorCache: first });
    // Code that accepts everything, put where the code for these schemas is kept: a later run must use it.
    const planted = path.join(work.dir, "planted");
    const names = cacheFiles(first);
    const accepting = (file: string) =>
      [...readFileSync(path.join(first, file), "utf8").matchAll(/exports\["([^"]+)"\]/g)]
        .map(([, name]) => `exports[${JSON.stringify(name)}] = () => true;`)
        .join("\n");
    mkdirSync(planted);
    for (const f of names) writeFileSync(path.join(planted, f), accepting(f));
    const v = await createValidators({ network: false, validatorCache: planted });
    expect(v.validateEpcisDocument({ type: "EPCISDocument" }).valid).toBe(true);
    expect(v.validateLinkset({}).valid).toBe(true);
  });

  it("are compiled again when the schemas change, and when what is kept is broken or cannot be kept", async () => {
    const dir = path.join(work.dir, "changing");
    const definition = await loadDefinition();
    const base = await createValidators({ network: false, definition, validatorCache: dir });
    const before = cacheFiles(dir);
    const stricter = {
      ...definition,
      linksetSchema: { ...(definition.linksetSchema as object), required: ["linkset", "extra"] },
    };
    const changed = await createValidators({ network: false, definition: stricter, validatorCache: dir });
    expect(cacheFiles(dir)).toHaveLength(before.length + 1);
    const body = { linkset: [] };
    expect(changed.validateLinkset(body).valid).not.toBe(base.validateLinkset(body).valid);

    const broken = path.join(work.dir, "broken");
    await createValidators({ network: false, validatorCache: broken });
    for (const f of cacheFiles(broken)) writeFileSync(path.join(broken, f), "this is not JavaScript (");
    const again = await createValidators({ network: false, validatorCache: broken });
    expect(again.validateLinkset({}).valid).toBe(false);
    expect(again.validateEpcisDocument({ type: "EPCISDocument" }).valid).toBe(false);

    // A cache under a file cannot be made: the run compiles and goes on.
    const blocked = path.join(work.dir, "a-file");
    writeFileSync(blocked, "");
    const unkept = await createValidators({ network: false, validatorCache: path.join(blocked, "cache") });
    expect(unkept.validateLinkset({}).valid).toBe(false);
  });
});
