// `npm run prove`: the kill matrix over every named fault, the runs of a correct sender that must come out clean,
// the reference loaded with each real document, the receiver matrix (the reference receiver judged by
// tracecheck receiver) and the hostile matrix (tracecheck run against targets that misbehave, at full size),
// written to reports/ as JSON and as readable tables. Exit 0 only when every fault is caught by a requirement it
// names and fails no requirement it does not name, every clean run is clean, every document gets exactly the
// verdicts its table row gives, the reference receiver is clean in every configuration and each client fault
// caught, and every hostile run ends as due.
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadRegistry } from "../engine/registry.ts";
import { REPO_ROOT } from "../engine/repo.ts";
import { FAULTS } from "../reference/faults.ts";
import { FULL_EFFORT, QUICK_EFFORT } from "./effort.ts";
import { runHostileMatrix } from "./hostile-matrix.ts";
import { FULL_HOSTILE_EFFORT, QUICK_HOSTILE_EFFORT } from "./hostile-table.ts";
import { formatHostileMatrix } from "./hostile-text.ts";
import { killMatrixHolds } from "./kill-matrix.ts";
import type { TracecheckOutcome } from "./outcome.ts";
import { defaultConcurrency } from "./pool.ts";
import {
  FULL_RECEIVER_EFFORT,
  formatReceiverMatrix,
  QUICK_RECEIVER_EFFORT,
  runReceiverMatrix,
} from "./receiver-matrix.ts";
import { runKillMatrix, runNoFalseVerdicts, runRealDocuments } from "./run-matrix.ts";
import { formatKillMatrix, formatNoFalseVerdicts, formatRealDocuments } from "./table.ts";

/** The sections of a proving run, in the order they run; --only picks some. */
const SECTIONS = [
  "kill-matrix",
  "no-false-verdicts",
  "real-documents",
  "receiver-matrix",
  "hostile-matrix",
] as const;
type Section = (typeof SECTIONS)[number];

const USAGE = `Usage: npm run prove -- [--quick] [--concurrency <n>] [--out <dir>] [--only <section,...>]

  --quick            the effort of npm test: fewer property cases, smaller datasets, one seed per shape,
                     a sample of the real documents, the hostile targets small with budgets through flags
  --concurrency <n>  runs at once (default: up to 3, by the machine's cores)
  --out <dir>        where kill-matrix, no-false-verdicts, real-documents, receiver-matrix and
                     hostile-matrix (.json, .txt) go (default reports/)
  --only <a,b>       run only these sections, each in its turn (default: all): kill-matrix,
                     no-false-verdicts, real-documents, receiver-matrix, hostile-matrix
`;

/** A full run of every class at default effort ends well within this; one that does not is stopped. */
const RUN_TIMEOUT_MS = 15 * 60_000;

async function main(argv: string[]): Promise<number> {
  let values: { quick?: boolean; concurrency?: string; out?: string; only?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        quick: { type: "boolean" },
        concurrency: { type: "string" },
        out: { type: "string" },
        only: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    process.stderr.write(`prove: ${(err as Error).message}; see npm run prove -- --help.\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const concurrency = values.concurrency === undefined ? defaultConcurrency() : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    process.stderr.write(
      `prove: --concurrency must be a whole number above 0, got "${values.concurrency}".\n`,
    );
    return 2;
  }
  const only = values.only === undefined ? [...SECTIONS] : values.only.split(",").map((s) => s.trim());
  const unknown = only.filter((s) => !(SECTIONS as readonly string[]).includes(s));
  if (unknown.length > 0 || only.length === 0) {
    process.stderr.write(
      `prove: --only takes sections among ${SECTIONS.join(", ")}, got "${values.only}".\n`,
    );
    return 2;
  }
  const runs = (section: Section) => only.includes(section);
  const effort = values.quick ? QUICK_EFFORT : FULL_EFFORT;
  const out = path.resolve(values.out ?? path.join(REPO_ROOT, "reports"));
  // Each section keeps its runs in a folder of its own, emptied when that section runs again: --only leaves the
  // runs of the other sections as an earlier proving wrote them, beside their reports.
  const workRoot = path.join(out, "prove-runs");
  const freshDir = async (section: Section) => {
    const dir = path.join(workRoot, section);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    return dir;
  };
  const onRun = (o: TracecheckOutcome) =>
    process.stderr.write(
      `prove: ${o.label} exit ${o.exitCode ?? "-"} (${Math.round(o.durationMs / 1000)} s)\n`,
    );
  const opts = { effort, concurrency, runTimeoutMs: RUN_TIMEOUT_MS, onRun };

  /** Whether each section that ran came out as it must. */
  const proven: boolean[] = [];
  const write = async (section: Section, result: unknown, text: string) => {
    await writeFile(path.join(out, `${section}.json`), `${JSON.stringify(result, null, 2)}\n`);
    await writeFile(path.join(out, `${section}.txt`), `${text}\n`);
    process.stdout.write(`${text}\n\n`);
  };

  if (runs("kill-matrix")) {
    const matrix = await runKillMatrix(FAULTS, await loadRegistry(), {
      ...opts,
      workDir: await freshDir("kill-matrix"),
    });
    await write("kill-matrix", matrix, formatKillMatrix(matrix));
    proven.push(killMatrixHolds(matrix));
  }
  if (runs("no-false-verdicts")) {
    const clean = await runNoFalseVerdicts({ ...opts, workDir: await freshDir("no-false-verdicts") });
    await write("no-false-verdicts", clean, formatNoFalseVerdicts(clean));
    proven.push(clean.clean === clean.total);
  }
  if (runs("real-documents")) {
    const documents = await runRealDocuments({ ...opts, workDir: await freshDir("real-documents") });
    await write("real-documents", documents, formatRealDocuments(documents));
    proven.push(documents.ok === documents.total);
  }
  if (runs("receiver-matrix")) {
    // The other role: the reference receiver judged by tracecheck receiver, clean and with each client fault.
    const receivers = await runReceiverMatrix({
      effort: values.quick ? QUICK_RECEIVER_EFFORT : FULL_RECEIVER_EFFORT,
      concurrency,
      workDir: await freshDir("receiver-matrix"),
      runTimeoutMs: RUN_TIMEOUT_MS,
      onRow: (r) =>
        process.stderr.write(
          `prove: receiver ${r.label} exit ${r.exitCode ?? "-"} (${Math.round(r.durationMs / 1000)} s)\n`,
        ),
    });
    await write("receiver-matrix", receivers, formatReceiverMatrix(receivers));
    proven.push(receivers.ok === receivers.total);
  }
  if (runs("hostile-matrix")) {
    // tracecheck run against targets that misbehave, each run in a process of its own so that its memory is its own.
    const hostile = await runHostileMatrix({
      effort: values.quick ? QUICK_HOSTILE_EFFORT : FULL_HOSTILE_EFFORT,
      concurrency,
      workDir: await freshDir("hostile-matrix"),
      onRow: (r) =>
        process.stderr.write(
          `prove: hostile ${r.label} exit ${r.exitCode ?? "-"} (${Math.round(r.durationMs / 1000)} s)${r.ok ? "" : ` FAILED: ${r.problems.join("; ")}`}\n`,
        ),
    });
    await write("hostile-matrix", hostile, formatHostileMatrix(hostile));
    proven.push(hostile.ok === hostile.total);
  }
  process.stdout.write(`reports written to ${out} (${only.join(", ")}, each .json and .txt)\n`);
  return proven.every(Boolean) ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
