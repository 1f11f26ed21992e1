// Time windows that split events into slices of about `size` and together cover every instant: narrower queries
// whose answers a broad answer must hold (EVT-PAGING).
import { compareInstants, formatInstant, fractionDigitsOf, parseInstant } from "../../../src/model/index.ts";
import type { EpcisEvent, EventQuery } from "../../../src/model/types.ts";

export type TimeField = "eventTime" | "recordTime";

export function timeWindows(
  events: readonly EpcisEvent[],
  field: TimeField,
  size: number,
  maxWindows: number,
): EventQuery[] {
  const times = events
    .flatMap((e) => {
      const text = e[field];
      if (typeof text !== "string") return [];
      try {
        // Bounds in UTC with the event's own digits: ones every sender must take (support/probes.ts).
        const at = parseInstant(text);
        return [{ text: formatInstant(at, { fractionDigits: fractionDigitsOf(text) }), at }];
      } catch {
        return [];
      }
    })
    .sort((a, b) => compareInstants(a.at, b.at));
  const step = Math.max(1, size, Math.ceil(times.length / maxWindows));
  const bounds: string[] = [];
  for (let i = step; i < times.length; i += step) {
    const t = times[i]!;
    const previous = bounds.at(-1);
    if (previous === undefined || compareInstants(parseInstant(previous), t.at) < 0) bounds.push(t.text);
  }
  if (bounds.length === 0) return [{}];
  const ge = field === "eventTime" ? "GE_eventTime" : "GE_recordTime";
  const lt = field === "eventTime" ? "LT_eventTime" : "LT_recordTime";
  const windows: EventQuery[] = [{ [lt]: bounds[0]! }];
  for (let i = 1; i < bounds.length; i++) windows.push({ [ge]: bounds[i - 1]!, [lt]: bounds[i]! });
  windows.push({ [ge]: bounds.at(-1)! });
  return windows;
}
