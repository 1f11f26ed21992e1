// The reference sender on a thread of its own (src/reference/thread.ts): told what to serve, it generates its
// dataset if it was not given one, listens, says where, and closes when told. It loads its server while the run
// loads the harness, and its work then runs beside the harness's on another core instead of between its checks.
import { parentPort } from "node:worker_threads";
import { generateDataset } from "../generate/dataset.ts";
import { type RunningReference, startReference } from "./server.ts";
import type { ThreadReply, ThreadRequest, ThreadStart } from "./thread.ts";

const port = parentPort;
if (port === null) throw new Error("thread-worker.ts runs as a worker thread of src/reference/thread.ts.");

let running: RunningReference | undefined;
const reply = (sent: ThreadReply) => port.postMessage(sent);
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

// An exception the reference does not catch is the run's to report, as it was when the reference shared the run's
// thread; the thread goes on serving rather than end and leave the run talking to nobody.
const fault = (err: unknown) => reply({ type: "fault", error: message(err) });
process.on("uncaughtException", fault);
process.on("unhandledRejection", fault);

port.on("message", (request: ThreadRequest) => {
  if (request.type === "start") {
    void begin(request.start);
    return;
  }
  // Closed or not (a close that fails leaves nothing to serve either), the thread is done: it says so, and ends.
  void (running?.close() ?? Promise.resolve())
    .catch(() => undefined)
    .then(() => {
      reply({ type: "closed" });
      port.close();
    });
});

/** Starts the reference on its dataset (generated here when not given), and says where it listens, or why not. */
async function begin({ data, ...options }: ThreadStart): Promise<void> {
  try {
    const dataset = "dataset" in data ? data.dataset : generateDataset(data);
    running = await startReference({ ...options, dataset });
    reply({ type: "listening", eventsBase: running.eventsBase, resolverBase: running.resolverBase });
  } catch (err) {
    reply({ type: "failed", error: message(err) });
  }
}
