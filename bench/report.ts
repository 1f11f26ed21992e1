import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Machine } from "./machine.ts";
import type { BenchRow } from "./row.ts";

export interface BenchReport {
  machine: Machine;
  date: string;
  benchmarks: string[];
  rows: BenchRow[];
  /** Benchmarks that could not finish, with the reason; their rows are missing. */
  errors: string[];
}

export async function writeBenchReport(file: string, report: BenchReport): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
}
