// The readable forms of the proving results: one line per run, the columns the issue asks for.
import type { KillMatrix } from "./kill-matrix.ts";
import type { NoFalseVerdicts, RealDocuments } from "./run-matrix.ts";

/** Rows of cells as left-aligned text columns, two spaces apart. */
export function columns(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export function formatKillMatrix(m: KillMatrix): string {
  const head = ["fault", "exit", "failed requirements", "named one failed", "also failed", "verdict"];
  const rows = m.rows.map((r) => [
    r.fault,
    String(r.exitCode ?? "-"),
    r.failed.length > 0 ? r.failed.join(",") : "-",
    r.caughtBy.length > 0 ? `yes (${r.caughtBy.join(",")})` : `no (names ${r.violates.join(",")})`,
    r.alsoFailed.length > 0 ? r.alsoFailed.join(",") : "-",
    r.verdict,
  ]);
  const clean = m.clean.ok
    ? `reference without faults: exit ${m.clean.exitCode}, no fail, no warn, no error`
    : `reference without faults: NOT CLEAN, ${m.clean.note}`;
  const notes = m.rows.filter((r) => r.note).map((r) => `  ${r.fault}: ${r.note}`);
  const doubled = m.rows
    .filter((r) => r.alsoFailed.length > 0)
    .map((r) => `  ${r.fault} (names ${r.violates.join(",")}): also failed ${r.alsoFailed.join(",")}`);
  return [
    `kill matrix (${m.effort} effort, seed ${m.seed}, ${m.concurrency} at once, ${Math.round(m.wallMs / 1000)} s)`,
    columns([head, ...rows]),
    "",
    clean,
    `${m.caught} of ${m.total} faults caught by a requirement they name`,
    doubled.length === 0
      ? "no fault failed a requirement it does not name"
      : `${doubled.length} of ${m.total} faults failed requirements they do not name (one defect must fail once)`,
    ...(notes.length > 0 ? ["", "not caught:", ...notes] : []),
    ...(doubled.length > 0
      ? ["", "failed again under requirements the fault does not name:", ...doubled]
      : []),
  ].join("\n");
}

export function formatNoFalseVerdicts(n: NoFalseVerdicts): string {
  const head = ["run", "exit", "fail", "warn", "error", "verdict"];
  const rows = n.rows.map((r) => [
    r.label,
    String(r.exitCode ?? "-"),
    r.failed.join(",") || "-",
    r.warned.join(",") || "-",
    r.errored.join(",") || "-",
    r.ok ? "clean" : "FALSE VERDICT",
  ]);
  return [
    `no false verdicts (${n.effort} effort, ${Math.round(n.wallMs / 1000)} s)`,
    columns([head, ...rows]),
    "",
    `${n.clean} of ${n.total} runs of a correct sender came out clean`,
  ].join("\n");
}

export function formatRealDocuments(d: RealDocuments): string {
  const head = ["document", "exit", "due", "verdict"];
  const rows = d.rows.map((r) => [
    r.document,
    String(r.exitCode ?? "-"),
    String(r.expectedExit),
    r.ok ? "as the table says" : "WRONG",
  ]);
  const notes = d.rows
    .filter((r) => !r.ok)
    .flatMap((r) => [
      `  ${r.document}:`,
      ...[r.note, ...r.unexpected, ...r.wrong].filter(Boolean).map((l) => `    ${l}`),
    ]);
  return [
    `real documents (${d.effort} effort, ${Math.round(d.wallMs / 1000)} s)`,
    columns([head, ...rows]),
    "",
    `${d.ok} of ${d.total} documents got exactly the verdicts docs/real-documents.md gives`,
    ...(notes.length > 0 ? ["", "not as the table says:", ...notes] : []),
  ].join("\n");
}
