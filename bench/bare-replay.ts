// The bare loop the harness is compared with: the same requests, sent with undici alone at the harness's
// concurrency, each body read to its end, nothing parsed, checked or recorded.
import { Agent, request } from "undici";
import type { RecordedRequest } from "./request-recorder.ts";

export interface ReplayOutcome {
  failed: number;
}

export async function replay(
  requests: readonly RecordedRequest[],
  host: string,
  concurrency: number,
): Promise<ReplayOutcome> {
  const agent = new Agent({ connections: concurrency });
  let next = 0;
  let failed = 0;
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const r = requests[next++] as RecordedRequest;
      try {
        const res = await request(`http://${host}:${r.port}${r.path}`, {
          method: r.method as "GET",
          headers: r.headers,
          dispatcher: agent,
        });
        await res.body.arrayBuffer();
      } catch {
        failed++;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await agent.close();
  }
  return { failed };
}
