import { describe, expect, it } from "vitest";
import type { Benchmark } from "../../bench/row.ts";
import { selectBenchmarks } from "../../bench/select.ts";

const named = (name: string): Benchmark => ({ name, run: async () => [] });
const ALL = [named("full-run"), named("oracle"), named("store")];

describe("selectBenchmarks", () => {
  it("runs every benchmark when none is named", () => {
    expect(selectBenchmarks([], ALL).map((b) => b.name)).toEqual(["full-run", "oracle", "store"]);
  });

  it("runs the named ones in the suite's own order", () => {
    expect(selectBenchmarks(["store", "full-run"], ALL).map((b) => b.name)).toEqual(["full-run", "store"]);
  });

  it("refuses an unknown name and lists the known ones", () => {
    expect(() => selectBenchmarks(["orcale"], ALL)).toThrow(
      "Unknown benchmark orcale; choose among full-run, oracle, store.",
    );
  });
});
