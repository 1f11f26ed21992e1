import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ALL_CLASSES,
  DEFAULT_RUNS,
  readConfigFile,
  resolveRunOptions,
  UsageError,
} from "../../src/harness/options.ts";
import { tempDir } from "../support/cli.ts";
import { expectOneSentence } from "../support/sentence.ts";

type Raw = Parameters<typeof resolveRunOptions>[0];

let dir: string;
let remove: () => Promise<void>;
let existing: string;

beforeAll(async () => {
  ({ dir, remove } = await tempDir("options"));
  existing = path.join(dir, "dataset.json");
  writeFileSync(existing, "{}");
});
afterAll(() => remove());

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    expectOneSentence((err as Error).message);
    return err as UsageError;
  }
  throw new Error("expected a UsageError, but the call returned");
}

function resolve(flags: Raw = {}, config: Raw = {}, env: NodeJS.ProcessEnv = {}) {
  return resolveRunOptions({ seed: "1", ...flags }, config, env);
}

describe("precedence: flags, then the config file, then the environment", () => {
  it("the key comes from the flag before the file before TRACECHECK_API_KEY", () => {
    const env = { TRACECHECK_API_KEY: "from-env" };
    expect(resolve({ "api-key": "from-flag" }, { "api-key": "from-file" }, env).apiKey).toBe("from-flag");
    expect(resolve({}, { "api-key": "from-file" }, env).apiKey).toBe("from-file");
    expect(resolve({}, {}, env).apiKey).toBe("from-env");
    expect(resolve({}, {}, {}).apiKey).toBeUndefined();
  });

  it("an empty key is no key: the target is public", () => {
    expect(resolve({ "api-key": "" }).apiKey).toBeUndefined();
  });

  it("the schema mirror comes from the flag before the file before TRACECHECK_SCHEMA_MIRROR", () => {
    const [flag, file, fromEnv] = ["flag", "file", "env"].map((name) => {
      const folder = path.join(dir, `mirror-${name}`);
      mkdirSync(folder, { recursive: true });
      return folder;
    });
    const env = { TRACECHECK_SCHEMA_MIRROR: fromEnv };
    expect(resolve({ "schema-mirror": flag }, { "schema-mirror": file }, env).schemaMirror).toBe(flag);
    expect(resolve({}, { "schema-mirror": file }, env).schemaMirror).toBe(file);
    expect(resolve({}, {}, env).schemaMirror).toBe(fromEnv);
  });

  it("every other option: the flag wins over the file, the file applies without a flag", () => {
    const file: Raw = {
      target: "http://file.example:8080",
      runs: "7",
      seed: "11",
      suite: ["auth", "resolver"],
      timeout: "500",
      "report-dir": "file-reports",
    };
    const fromFile = resolveRunOptions({}, file, {});
    expect(fromFile).toMatchObject({
      target: "http://file.example:8080",
      runs: 7,
      seed: 11,
      suites: ["auth", "resolver"],
      timeoutMs: 500,
      reportDir: "file-reports",
    });
    const fromFlags = resolveRunOptions(
      {
        target: "http://flag.example",
        runs: "3",
        seed: "12",
        suite: ["events"],
        timeout: "900",
        "report-dir": "r",
      },
      file,
      {},
    );
    expect(fromFlags).toMatchObject({
      target: "http://flag.example",
      runs: 3,
      seed: 12,
      suites: ["events"],
      timeoutMs: 900,
      reportDir: "r",
    });
  });
});

describe("defaults and lists", () => {
  it("without options: every class, the core module, the default runs, reports/", () => {
    const o = resolve();
    expect(o.suites).toEqual(ALL_CLASSES);
    expect(o.modules).toEqual(["core"]);
    expect(o.runs).toBe(DEFAULT_RUNS);
    expect(o.reportDir).toBe("reports");
    expect(o.target).toBeUndefined();
    expect(o.allowOrigins).toEqual([]);
    expect(o.quiet).toBe(false);
  });

  it("the page budget of an answer: defaults far beyond an honest answer, changed with --max-pages and --max-answer-bytes", () => {
    const o = resolve();
    // 10,000,000 events paged at 100 must fit.
    expect(o.maxPages).toBeGreaterThanOrEqual(100_000);
    expect(o.maxAnswerBytes).toBeGreaterThanOrEqual(10_000_000 * 1000);
    const set = resolve({ "max-pages": "5", "max-answer-bytes": "1048576" });
    expect([set.maxPages, set.maxAnswerBytes]).toEqual([5, 1_048_576]);
    expect(resolve({}, { "max-pages": "7" }).maxPages).toBe(7);
    expect(usageError(() => resolve({ "max-pages": "0" })).message).toContain("--max-pages");
    expect(usageError(() => resolve({ "max-answer-bytes": "1.5" })).message).toContain("--max-answer-bytes");
  });

  it("a random seed is a whole number when none is given", () => {
    const { seed } = resolveRunOptions({}, {}, {});
    expect(Number.isInteger(seed)).toBe(true);
    expect(seed).toBeGreaterThanOrEqual(0);
  });

  it("comma lists and repeated flags add up; core stays first and once", () => {
    const o = resolve({ suite: ["events,auth", "resolver"], modules: ["seafood, core", "wildcatch"] });
    expect(o.suites).toEqual(["events", "auth", "resolver"]);
    expect(o.modules).toEqual(["core", "seafood", "wildcatch"]);
  });

  it("the resolver defaults to the target, both without a trailing slash", () => {
    const o = resolve({ target: "https://epcis.example/api/" });
    expect(o.target).toBe("https://epcis.example/api");
    expect(o.resolver).toBe("https://epcis.example/api");
    expect(resolve({ target: "https://a.example", resolver: "https://dl.example/" }).resolver).toBe(
      "https://dl.example",
    );
  });

  it("--allow-origin is normalised to origins", () => {
    const o = resolve({
      "allow-origin": [
        "https://Partner.Example:8443/some/path?q=1",
        "http://md.example:80/",
        "https://x.example",
      ],
    });
    expect(o.allowOrigins).toEqual([
      "https://partner.example:8443",
      "http://md.example",
      "https://x.example",
    ]);
  });

  it("quiet is read from a flag and from a file", () => {
    expect(resolve({ quiet: true }).quiet).toBe(true);
    expect(resolve({}, { quiet: "true" }).quiet).toBe(true);
    expect(resolve({}, { quiet: false }).quiet).toBe(false);
  });

  it("embedded-only options: events and faults", () => {
    const o = resolve({ events: "50", faults: ["lt-event-inclusive,ge-record-exclusive"] });
    expect(o.embeddedEvents).toBe(50);
    expect(o.embeddedFaults).toEqual(["lt-event-inclusive", "ge-record-exclusive"]);
  });

  it("a file that exists is accepted for --dataset, --definition and --baseline", () => {
    const o = resolve({ dataset: existing, definition: existing, baseline: existing });
    expect(o.dataset).toBe(existing);
    expect(o.definition).toBe(existing);
    expect(o.baseline).toBe(existing);
  });
});

describe("mistakes are a UsageError with one sentence", () => {
  it.each<[string, string]>([
    ["runs", "0"],
    ["runs", "-2"],
    ["runs", "abc"],
    ["runs", "2.5"],
    ["timeout", "0"],
    ["concurrency", "many"],
    ["rate", "-1"],
    ["seed", "x"],
    ["seed", "-3"],
    ["events", "0"],
  ])("--%s %s", (name, value) => {
    const err = usageError(() => resolve({ [name]: value }));
    expect(err.message).toContain(`--${name}`);
    expect(err.message).toContain(value);
  });

  it("a bad number in the config file is named like the flag", () => {
    expect(usageError(() => resolve({}, { runs: "none" })).message).toContain("--runs");
  });

  it("zero is allowed where it means something: --rate 0 is unlimited, --seed 0 a seed", () => {
    expect(resolve({ rate: "0" }).rate).toBe(0);
    expect(resolveRunOptions({ seed: "0" }, {}, {}).seed).toBe(0);
  });

  it("an unknown conformance class names the known ones", () => {
    const err = usageError(() => resolve({ suite: ["events,nope"] }));
    expect(err.message).toContain('"nope"');
    for (const c of ALL_CLASSES) expect(err.message).toContain(c);
  });

  it("an unknown module", () => {
    expect(usageError(() => resolve({ modules: ["salmon"] })).message).toContain('"salmon"');
  });

  it.each([
    ["target", "not a url"],
    ["target", "ftp://files.example/x"],
    ["resolver", "//no-scheme.example"],
    ["allow-origin", "partner.example"],
    ["allow-origin", "file:///etc/passwd"],
  ])("--%s %s is not an http(s) URL", (name, value) => {
    const flags: Raw =
      name === "resolver" ? { target: "http://t.example", resolver: value } : { [name]: value };
    const err = usageError(() => resolve(flags));
    expect(err.message).toContain(`--${name}`);
  });

  it("--resolver without --target", () => {
    expect(usageError(() => resolve({ resolver: "http://dl.example" })).message).toContain("--target");
  });

  it.each(["dataset", "definition", "baseline"])("--%s naming a missing file", (name) => {
    const missing = path.join(dir, "nowhere", `${name}.json`);
    const err = usageError(() => resolve({ [name]: missing }));
    expect(err.message).toContain(missing);
  });

  it("--suite naming no class, as an empty variable expands, is refused rather than read as every class", () => {
    for (const suite of ["", ",", " , "]) {
      const err = usageError(() => resolve({ suite: [suite] }));
      expect(err.message).toContain("--suite names no conformance class");
    }
    expect(usageError(() => resolve({}, { suite: "" })).message).toContain("--suite");
  });

  it("a schema mirror that is not a folder, named by the flag or by the environment", () => {
    const missing = path.join(dir, "no-mirror");
    expect(usageError(() => resolve({ "schema-mirror": missing })).message).toBe(
      `--schema-mirror ${missing}: no such folder.`,
    );
    expect(usageError(() => resolve({ "schema-mirror": existing })).message).toContain(existing);
    const fromEnv = usageError(() => resolve({}, {}, { TRACECHECK_SCHEMA_MIRROR: missing }));
    expect(fromEnv.message).toBe(`TRACECHECK_SCHEMA_MIRROR ${missing}: no such folder.`);
  });

  it("--dataset with --events: the one names a dataset, the other sizes a generated one", () => {
    const err = usageError(() => resolve({ dataset: existing, events: "5" }));
    expect(err.message).toContain("--dataset");
    expect(err.message).toContain("--events");
  });

  it("an unknown key in the config file", () => {
    const err = usageError(() => resolve({}, { targett: "http://x.example" }));
    expect(err.message).toContain('"targett"');
  });
});

describe("the config file", () => {
  it("is read from --config: YAML, keys are the long option names, lists and booleans kept", () => {
    const file = path.join(dir, "given.yaml");
    writeFileSync(
      file,
      [
        "target: https://epcis.example",
        "runs: 9",
        "suite: [events, auth]",
        "allow-origin:",
        "  - https://md.example/x",
        "quiet: true",
        "gln:",
      ].join("\n"),
    );
    const raw = readConfigFile(file, "/nonexistent");
    expect(raw).toEqual({
      target: "https://epcis.example",
      runs: "9",
      suite: ["events", "auth"],
      "allow-origin": ["https://md.example/x"],
      quiet: true,
      gln: undefined,
    });
    const o = resolveRunOptions({ seed: "1" }, raw, {});
    expect(o).toMatchObject({ runs: 9, suites: ["events", "auth"], allowOrigins: ["https://md.example"] });
  });

  it("tracecheck.config.yaml in the working directory is read when no --config is given", () => {
    const cwd = path.join(dir, "project");
    mkdirSync(cwd, { recursive: true });
    writeFileSync(path.join(cwd, "tracecheck.config.yaml"), "seed: 42\n");
    expect(readConfigFile(undefined, cwd)).toEqual({ seed: "42" });
  });

  it("no file in the working directory is no options", () => {
    const cwd = path.join(dir, "empty-project");
    mkdirSync(cwd, { recursive: true });
    expect(readConfigFile(undefined, cwd)).toEqual({});
  });

  it("an empty file is no options", () => {
    const file = path.join(dir, "empty.yaml");
    writeFileSync(file, "");
    expect(readConfigFile(file, dir)).toEqual({});
  });

  it("a --config file that does not exist", () => {
    const missing = path.join(dir, "missing.yaml");
    expect(usageError(() => readConfigFile(missing, dir)).message).toContain(missing);
  });

  it("a file that is not YAML", () => {
    const file = path.join(dir, "broken.yaml");
    writeFileSync(file, "runs: [1,\n  seed: : x\n");
    expect(usageError(() => readConfigFile(file, dir)).message).toContain(file);
  });

  it.each([
    ["a list", "- events\n- auth\n"],
    ["a scalar", "just text\n"],
  ])("a file holding %s rather than a mapping", (_, text) => {
    const file = path.join(dir, `not-a-mapping-${text.length}.yaml`);
    writeFileSync(file, text);
    expect(usageError(() => readConfigFile(file, dir)).message).toContain("mapping");
  });
});
