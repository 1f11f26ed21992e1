// The reference loaded with documents nobody here wrote, judged against the table in src/prove/real-documents.ts
// (docs/real-documents.md for people). npm test runs the quick sample: a document for each kind of verdict the
// table gives and every GDST document; `npm run prove` runs every document.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TracecheckOutcome } from "../../src/prove/outcome.ts";
import { defaultConcurrency } from "../../src/prove/pool.ts";
import {
  DUPLICATED_IDS_DOCUMENT,
  documentsOnDisk,
  EXPECTED,
  judgeDocument,
  QUICK_DOCUMENTS,
  realDocumentRuns,
} from "../../src/prove/real-documents.ts";
import { RunPool } from "../../src/prove/run-pool.ts";
import { tempDir } from "../support/cli.ts";

const outcomes = new Map<string, TracecheckOutcome>();
let work: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  work = await tempDir("real-documents");
  const pool = new RunPool({ size: defaultConcurrency(), workDir: work.dir, runTimeoutMs: 3 * 60_000 });
  try {
    const results = await pool.runAll(realDocumentRuns(QUICK_DOCUMENTS));
    for (const [n, r] of results.entries()) outcomes.set(QUICK_DOCUMENTS[n]!, r);
  } finally {
    pool.close();
  }
}, 30 * 60_000);

afterAll(async () => {
  await work?.remove();
});

test("the table names every example document on disk, and only those", () => {
  expect(Object.keys(EXPECTED).sort()).toEqual(documentsOnDisk());
  expect(documentsOnDisk().length).toBeGreaterThanOrEqual(50);
});

test("the sample holds a document for every kind of verdict the table gives, and every GDST document", () => {
  for (const doc of QUICK_DOCUMENTS) expect(EXPECTED[doc], doc).toBeDefined();
  const kinds = (docs: readonly string[]) =>
    new Set(docs.flatMap((d) => Object.values(EXPECTED[d]!).map((e) => e.why)));
  expect([...kinds(QUICK_DOCUMENTS)].sort()).toEqual([...kinds(Object.keys(EXPECTED))].sort());
  expect(QUICK_DOCUMENTS.some((d) => Object.keys(EXPECTED[d]!).length === 0)).toBe(true);
  const gdst = Object.keys(EXPECTED).filter((d) => d.startsWith("gdst/"));
  for (const doc of gdst) expect(QUICK_DOCUMENTS).toContain(doc);
  expect(QUICK_DOCUMENTS).toContain(DUPLICATED_IDS_DOCUMENT);
});

describe("each sampled document gets exactly the verdicts the table gives, each saying why", () => {
  for (const doc of QUICK_DOCUMENTS) {
    test(doc, () => {
      const outcome = outcomes.get(doc);
      expect(outcome, `${doc} was not run`).toBeDefined();
      const row = judgeDocument(doc, outcome!);
      expect(row.note, `${doc}: ${outcome!.stderr}`).toBe("");
      expect(row.unexpected, "verdicts the table does not give").toEqual([]);
      expect(row.wrong, "verdicts the table gives that did not come as given").toEqual([]);
      expect(row.exitCode).toBe(row.expectedExit);
      expect(row.ok).toBe(true);
    });
  }
});
