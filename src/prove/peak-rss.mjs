// Preloaded (node --import) into a tracecheck process by the hostile matrix and memory.test.ts: as the process exits, writes its peak
// resident memory, in bytes, to the file PEAK_RSS_FILE names. The kernel's high-water mark covers every thread of
// the process, and no sampling can miss a short peak.
import { writeFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

const file = process.env.PEAK_RSS_FILE;
if (file && isMainThread) {
  process.on("exit", () => {
    writeFileSync(file, String(process.resourceUsage().maxRSS * 1024));
  });
}
