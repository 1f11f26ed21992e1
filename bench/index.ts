// `npm run bench [-- <name> …]`: runs the benchmarks (all, or those named), writes reports/bench.json and prints
// the table. Exit status 1 when a benchmark could not finish; a target not met shows in the table, not in the
// status, since figures on a loaded machine are not a verdict.
import path from "node:path";
import { progress } from "./child.ts";
import { REPO_ROOT } from "./command.ts";
import { discoveryBenchmark } from "./discovery.ts";
import { fullRunBenchmark } from "./full-run.ts";
import { latencyBenchmark } from "./latency.ts";
import { describeMachine, machineLine } from "./machine.ts";
import { npmTestBenchmark } from "./npm-test.ts";
import { oracleBenchmark } from "./oracle.ts";
import { loadBenchmark } from "./reference-load.ts";
import { storeBenchmark } from "./reference-store.ts";
import { writeBenchReport } from "./report.ts";
import type { Benchmark, BenchRow } from "./row.ts";
import { validationBenchmark } from "./schema-validation.ts";
import { selectBenchmarks } from "./select.ts";
import { startupBenchmark } from "./startup.ts";
import { formatTable } from "./table.ts";

// npm-test last: it runs the project's tests on both cores for minutes, and would skew whatever ran beside it.
const BENCHMARKS: readonly Benchmark[] = [
  fullRunBenchmark,
  startupBenchmark,
  latencyBenchmark,
  validationBenchmark,
  oracleBenchmark,
  storeBenchmark,
  loadBenchmark,
  discoveryBenchmark,
  npmTestBenchmark,
];
const REPORT_FILE = path.join(REPO_ROOT, "reports", "bench.json");

async function main(names: string[]): Promise<number> {
  let selected: Benchmark[];
  try {
    selected = selectBenchmarks(names, BENCHMARKS);
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).message}\n`);
    return 2;
  }
  const machine = describeMachine();
  const date = new Date().toISOString();
  const rows: BenchRow[] = [];
  const errors: string[] = [];
  for (const b of selected) {
    const started = performance.now();
    try {
      rows.push(...(await b.run()));
    } catch (err) {
      errors.push(`${b.name}: ${(err as Error).message}`);
    }
    progress(`${b.name} took ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  await writeBenchReport(REPORT_FILE, {
    machine,
    date,
    benchmarks: selected.map((b) => b.name),
    rows,
    errors,
  });
  process.stdout.write(`${formatTable(rows)}\n\n${machineLine(machine)}; ${date}\n`);
  for (const e of errors) process.stderr.write(`bench: could not finish ${e}\n`);
  process.stdout.write(`figures written to ${REPORT_FILE}\n`);
  return errors.length > 0 ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
