// The hostile matrix as the readable table npm run prove prints and writes beside its JSON.
import type { HostileResult } from "./hostile-judge.ts";
import type { HostileMatrix } from "./hostile-matrix.ts";
import { columns } from "./table.ts";

const MIB = 1024 * 1024;

/** A byte count as the table shows it: whole GiB or MiB where it is one. */
function bytesText(n: number): string {
  if (n % 1024 ** 3 === 0) return `${n / 1024 ** 3} GiB`;
  if (n % MIB === 0) return `${n / MIB} MiB`;
  return String(n);
}

/** The budget flags of a row as the table shows them; "default" when it sets none. */
function budgetText(flags: readonly string[]): string {
  const shown: string[] = [];
  for (let i = 0; i < flags.length; i += 1) {
    const flag = flags[i]!;
    if (flag === "--max-answer-bytes") shown.push(`${flag} ${bytesText(Number(flags[i + 1]))}`);
    else if (flag === "--max-pages" || flag === "--retry-budget" || flag === "--timeout") {
      shown.push(`${flag} ${flags[i + 1]}`);
    }
  }
  return shown.length > 0 ? shown.join(" ") : "default";
}

function peakText(r: HostileResult): string {
  if (r.peakRssBytes === undefined) return "-";
  const mib = Math.round(r.peakRssBytes / MIB);
  return r.peakAtExit ? `${mib} MiB` : `>=${mib} MiB`;
}

export function formatHostileMatrix(m: HostileMatrix): string {
  const head = [
    "row",
    "scope",
    "budget",
    "exit",
    "due",
    "fail",
    "error",
    "time",
    "peak RSS",
    "other origin",
    "key",
    "verdict",
  ];
  const rows = m.rows.map((r) => [
    r.label,
    r.scope,
    budgetText(r.flags),
    r.timedOut ? "-" : String(r.exitCode ?? r.signal ?? "-"),
    String(r.exitDue),
    r.reportWritten ? String(r.failed.length) : "-",
    r.reportWritten ? String(r.errored.length) : "-",
    `${Math.round(r.durationMs / 1000)} s`,
    peakText(r),
    `${r.otherOriginRequests} req`,
    r.keyLeaks.length > 0 ? "LEAKED" : "kept",
    r.ok ? "ok" : "FAILED",
  ]);
  const behaviours = m.rows.map((r) => `  ${r.label}: ${r.behaviour}`);
  const budgets = m.rows.filter((r) => r.why).map((r) => `  ${r.label}: ${r.why}`);
  const failed = m.rows
    .filter((r) => !r.ok)
    .flatMap((r) => [`  ${r.label}: ${r.problems.join("; ")}`, ...(r.note ? [`    ${r.note}`] : [])]);
  return [
    `hostile matrix (${m.effort} effort, ${m.events} events, large pages of ${bytesText(m.pageBytes)}, ${m.concurrency} at once, ${Math.round(m.wallMs / 1000)} s): tracecheck run, each in a process of its own, against a target that misbehaves`,
    columns([head, ...rows]),
    "",
    "what each target does:",
    ...behaviours,
    ...(budgets.length > 0 ? ["", "budgets set by flag instead of the default:", ...budgets] : []),
    "",
    `${m.ok} of ${m.total} runs ended by themselves with the exit due, under ${m.peakBoundBytes / MIB} MiB of resident memory, their report written and the key kept from every other origin`,
    ...(failed.length > 0 ? ["", "not as due:", ...failed] : []),
  ].join("\n");
}
