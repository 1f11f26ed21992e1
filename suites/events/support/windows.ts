// eventTime windows that split events into slices of about `size` and together cover every instant: narrower
// queries whose answers a broad answer must hold (EVT-PAGING).
import { compareInstants, parseInstant } from "../../../src/model/index.ts";
import type { EpcisEvent, EventQuery } from "../../../src/model/types.ts";

export function eventTimeWindows(
  events: readonly EpcisEvent[],
  size: number,
  maxWindows: number,
): EventQuery[] {
  const times = events
    .flatMap((e) => {
      if (typeof e.eventTime !== "string") return [];
      try {
        return [{ text: e.eventTime, at: parseInstant(e.eventTime) }];
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
  const windows: EventQuery[] = [{ LT_eventTime: bounds[0]! }];
  for (let i = 1; i < bounds.length; i++)
    windows.push({ GE_eventTime: bounds[i - 1]!, LT_eventTime: bounds[i]! });
  windows.push({ GE_eventTime: bounds.at(-1)! });
  return windows;
}
