import os from "node:os";

export interface Machine {
  os: string;
  cpus: { model: string; count: number };
  memoryGiB: number;
  node: string;
  /** One-minute load average when the benchmarks started: other work on the machine skews every figure. */
  loadAverage: number;
}

export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpus: { model: cpus[0]?.model.trim() ?? "unknown", count: os.availableParallelism() },
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    loadAverage: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
  };
}

export function machineLine(m: Machine): string {
  return `${m.cpus.count} × ${m.cpus.model}, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}, load average ${m.loadAverage} at start`;
}
