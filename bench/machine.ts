import os from "node:os";

export interface Machine {
  os: string;
  cpus: { model: string; count: number };
  memoryGiB: number;
  node: string;
  /** One-minute load average when the benchmarks started: other work on the machine skews every figure. */
  loadAverage: number;
  /**
   * Whether NODE_EXTRA_CA_CERTS is set: Node reads the certificates it names as it starts, before any of a
   * program's code runs, in every process (on a two-core machine, some 50 to 100 ms for a distribution's bundle).
   */
  extraCaCerts: boolean;
}

/** Whether `env` sets NODE_EXTRA_CA_CERTS, which every Node process it starts reads before anything else. */
export function extraCaCertsSet(env: NodeJS.ProcessEnv): boolean {
  return (env.NODE_EXTRA_CA_CERTS ?? "") !== "";
}

export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpus: { model: cpus[0]?.model.trim() ?? "unknown", count: os.availableParallelism() },
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    loadAverage: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
    extraCaCerts: extraCaCertsSet(process.env),
  };
}

export function machineLine(m: Machine): string {
  const certs = m.extraCaCerts ? ", NODE_EXTRA_CA_CERTS set" : "";
  return `${m.cpus.count} × ${m.cpus.model}, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}${certs}, load average ${m.loadAverage} at start`;
}
