// SIGINT and SIGTERM as an abort: a run stops promptly and writes what finished, a receiver session ends its
// recording and grades it. A second signal ends the process at once, with the shell's status for it.

export type StopSignal = "SIGINT" | "SIGTERM";

/** Runs `work` with the first SIGINT or SIGTERM turned into an abort of its signal (reason: the signal's name). */
export async function withStopSignals<T>(
  work: (signal: AbortSignal) => Promise<T>,
  onFirst?: (name: StopSignal) => void,
): Promise<T> {
  const controller = new AbortController();
  const stop = (name: StopSignal) => {
    if (controller.signal.aborted) process.exit(name === "SIGTERM" ? 143 : 130);
    onFirst?.(name);
    controller.abort(name);
  };
  const onInt = () => stop("SIGINT");
  const onTerm = () => stop("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  try {
    return await work(controller.signal);
  } finally {
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
  }
}
