// The shape every benchmark returns: one row per figure, with the target it is judged against.

export interface BenchRow {
  what: string;
  measure: string;
  value: number;
  unit: string;
  /** The target as written in the issue, e.g. "< 30 s"; "recorded" for a figure kept for reference only. */
  target: string;
  /** For a figure that compares two things measured in the same run: the first divided by the second. */
  ratio?: number;
  met: boolean;
  note?: string;
}

export interface Benchmark {
  /** The name `npm run bench -- <name>` selects it by. */
  name: string;
  run(): Promise<BenchRow[]>;
}

/** A figure kept for reference: nothing to meet. */
export const RECORDED = "recorded";
