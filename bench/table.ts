// The table `npm run bench` prints: Markdown, so that the same text reads on a console and pastes into the README.
import type { BenchRow } from "./row.ts";

/** Three significant digits, thousands grouped: enough to compare runs, few enough to read. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const abs = Math.abs(v);
  if (abs >= 100) return Math.round(v).toLocaleString("en-US");
  if (abs >= 10) return v.toFixed(1);
  if (abs >= 1) return v.toFixed(2);
  if (abs === 0) return "0";
  return v.toPrecision(3);
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|");
}

export function formatTable(rows: readonly BenchRow[]): string {
  const header = ["what", "measure", "value", "ratio", "target", "met", "note"];
  const lines = rows.map((r) => [
    r.what,
    r.measure,
    `${formatNumber(r.value)} ${r.unit}`.trim(),
    r.ratio === undefined ? "" : `${formatNumber(r.ratio)}×`,
    r.target,
    r.met ? "yes" : "**no**",
    r.note ?? "",
  ]);
  const all = [header, ...lines].map((l) => l.map(cell));
  const widths = header.map((_, i) => Math.max(...all.map((l) => (l[i] as string).length)));
  const render = (l: string[]) => `| ${l.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
  const rule = `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`;
  return [render(all[0] as string[]), rule, ...all.slice(1).map(render)].join("\n");
}
