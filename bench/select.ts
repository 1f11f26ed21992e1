import type { Benchmark } from "./row.ts";

/** The benchmarks named on the command line, in their own order; all of them when none is named. */
export function selectBenchmarks(names: readonly string[], all: readonly Benchmark[]): Benchmark[] {
  const known = all.map((b) => b.name);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) {
    throw new Error(`Unknown benchmark ${unknown.join(", ")}; choose among ${known.join(", ")}.`);
  }
  return names.length === 0 ? [...all] : all.filter((b) => names.includes(b.name));
}
