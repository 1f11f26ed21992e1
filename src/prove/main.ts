// `npm run prove`: the kill matrix over every named fault, the runs of a correct sender that must come out clean,
// the reference loaded with each real document, and the receiver matrix (the reference receiver judged by
// tracecheck receiver), written to reports/ as JSON and as readable tables. Exit 0 only when every fault is caught
// by a requirement it names, every clean run is clean, every document gets exactly the verdicts its table row
// gives, and the reference receiver is clean in every configuration and each client fault caught.
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadRegistry } from "../harness/registry.ts";
import { REPO_ROOT } from "../harness/repo.ts";
import { FAULTS } from "../reference/faults.ts";
import { FULL_EFFORT, QUICK_EFFORT } from "./effort.ts";
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

const USAGE = `Usage: npm run prove -- [--quick] [--concurrency <n>] [--out <dir>]

  --quick            the effort of npm test: fewer property cases, smaller datasets, one seed per shape,
                     a sample of the real documents
  --concurrency <n>  runs at once (default: up to 3, by the machine's cores)
  --out <dir>        where kill-matrix, no-false-verdicts, real-documents and receiver-matrix
                     (.json, .txt) go (default reports/)
`;

/** A full run of every class at default effort ends well within this; one that does not is stopped. */
const RUN_TIMEOUT_MS = 15 * 60_000;

async function main(argv: string[]): Promise<number> {
  let values: { quick?: boolean; concurrency?: string; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        quick: { type: "boolean" },
        concurrency: { type: "string" },
        out: { type: "string" },
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
  const effort = values.quick ? QUICK_EFFORT : FULL_EFFORT;
  const out = path.resolve(values.out ?? path.join(REPO_ROOT, "reports"));
  const workDir = path.join(out, "prove-runs");
  await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  const onRun = (o: TracecheckOutcome) =>
    process.stderr.write(
      `prove: ${o.label} exit ${o.exitCode ?? "-"} (${Math.round(o.durationMs / 1000)} s)\n`,
    );
  const opts = { effort, concurrency, workDir, runTimeoutMs: RUN_TIMEOUT_MS, onRun };

  const matrix = await runKillMatrix(FAULTS, await loadRegistry(), opts);
  const matrixText = formatKillMatrix(matrix);
  await writeFile(path.join(out, "kill-matrix.json"), `${JSON.stringify(matrix, null, 2)}\n`);
  await writeFile(path.join(out, "kill-matrix.txt"), `${matrixText}\n`);
  process.stdout.write(`${matrixText}\n\n`);

  const clean = await runNoFalseVerdicts(opts);
  const cleanText = formatNoFalseVerdicts(clean);
  await writeFile(path.join(out, "no-false-verdicts.json"), `${JSON.stringify(clean, null, 2)}\n`);
  await writeFile(path.join(out, "no-false-verdicts.txt"), `${cleanText}\n`);
  process.stdout.write(`${cleanText}\n\n`);

  const documents = await runRealDocuments(opts);
  const documentsText = formatRealDocuments(documents);
  await writeFile(path.join(out, "real-documents.json"), `${JSON.stringify(documents, null, 2)}\n`);
  await writeFile(path.join(out, "real-documents.txt"), `${documentsText}\n`);
  process.stdout.write(`${documentsText}\n`);
  // The other role: the reference receiver judged by tracecheck receiver, clean and with each client fault.
  const receivers = await runReceiverMatrix({
    effort: values.quick ? QUICK_RECEIVER_EFFORT : FULL_RECEIVER_EFFORT,
    concurrency,
    workDir: path.join(workDir, "receiver"),
    runTimeoutMs: RUN_TIMEOUT_MS,
    onRow: (r) =>
      process.stderr.write(
        `prove: receiver ${r.label} exit ${r.exitCode ?? "-"} (${Math.round(r.durationMs / 1000)} s)\n`,
      ),
  });
  const receiversText = formatReceiverMatrix(receivers);
  await writeFile(path.join(out, "receiver-matrix.json"), `${JSON.stringify(receivers, null, 2)}\n`);
  await writeFile(path.join(out, "receiver-matrix.txt"), `${receiversText}\n`);
  process.stdout.write(`${receiversText}\n`);
  process.stdout.write(
    `reports written to ${out} (kill-matrix, no-false-verdicts, real-documents and receiver-matrix, each .json and .txt)\n`,
  );

  const proven =
    matrix.caught === matrix.total &&
    matrix.clean.ok &&
    clean.clean === clean.total &&
    documents.ok === documents.total &&
    receivers.ok === receivers.total;
  return proven ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
