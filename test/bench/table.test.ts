import { describe, expect, it } from "vitest";
import type { BenchRow } from "../../bench/row.ts";
import { formatNumber, formatTable } from "../../bench/table.ts";

describe("formatNumber", () => {
  it("keeps about three significant digits and groups thousands", () => {
    expect(formatNumber(1234567.8)).toBe("1,234,568");
    expect(formatNumber(123.4)).toBe("123");
    expect(formatNumber(12.345)).toBe("12.3");
    expect(formatNumber(1.2345)).toBe("1.23");
    expect(formatNumber(0.012345)).toBe("0.0123");
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(-15.55)).toBe("-15.6");
  });
});

describe("formatTable", () => {
  const rows: BenchRow[] = [
    { what: "oracle", measure: "one query", value: 12.5, unit: "ms", target: "< 20 ms", met: true },
    {
      what: "harness overhead",
      measure: "a | b",
      value: 17.1,
      unit: "s",
      target: "≤ 3×",
      ratio: 25.7,
      met: false,
      note: "bare loop 0.666 s",
    },
  ];
  const lines = formatTable(rows).split("\n");

  it("prints a Markdown table: header, rule, one line per row, every line with the same columns", () => {
    expect(lines).toHaveLength(2 + rows.length);
    expect(lines[0]).toMatch(/^\| what +\| measure +\| value +\| ratio +\| target +\| met +\| note +\|$/);
    expect(lines[1]).toMatch(/^\|-+(\|-+){6}\|$/);
    const widths = new Set(lines.map((l) => l.length));
    expect(widths.size).toBe(1);
  });

  it("shows the value with its unit, the ratio with ×, and an unmet target in bold", () => {
    expect(lines[2]).toContain("12.5 ms");
    expect(lines[2]).toContain("| yes ");
    expect(lines[3]).toContain("17.1 s");
    expect(lines[3]).toContain("25.7×");
    expect(lines[3]).toContain("**no**");
    expect(lines[3]).toContain("bare loop 0.666 s");
  });

  it("escapes a pipe inside a cell so that it does not split the column", () => {
    expect(lines[3]).toContain("a \\| b");
  });
});
