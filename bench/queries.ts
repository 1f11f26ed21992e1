// Queries for the oracle and store benchmarks, taken from the events themselves so that each one selects
// something: one EPC, one EPC class, one UTC day of eventTime (spec 4.1).
import type { EpcisEvent, EventQuery } from "../src/model/index.ts";
import { formatInstant, parseInstant } from "../src/model/index.ts";

export type QueryKind = "single EPC" | "single class" | "one-day window";
export const QUERY_KINDS: readonly QueryKind[] = ["single EPC", "single class", "one-day window"];

const DAY_SECONDS = 86_400n;

function firstEpc(e: EpcisEvent): string | undefined {
  return e.epcList?.[0] ?? e.childEPCs?.[0] ?? e.parentID ?? e.inputEPCList?.[0] ?? e.outputEPCList?.[0];
}

function firstClass(e: EpcisEvent): string | undefined {
  const q =
    e.quantityList?.[0] ?? e.childQuantityList?.[0] ?? e.inputQuantityList?.[0] ?? e.outputQuantityList?.[0];
  return q?.epcClass;
}

function utcDayOf(eventTime: string | undefined): EventQuery | undefined {
  if (eventTime === undefined) return undefined;
  const seconds = parseInstant(eventTime).epochSeconds;
  const start = seconds - (((seconds % DAY_SECONDS) + DAY_SECONDS) % DAY_SECONDS);
  return {
    GE_eventTime: formatInstant({ epochSeconds: start, fraction: "" }),
    LT_eventTime: formatInstant({ epochSeconds: start + DAY_SECONDS, fraction: "" }),
  };
}

function queryFor(kind: QueryKind, e: EpcisEvent): EventQuery | undefined {
  if (kind === "one-day window") return utcDayOf(e.eventTime);
  const value = kind === "single EPC" ? firstEpc(e) : firstClass(e);
  if (value === undefined) return undefined;
  return kind === "single EPC" ? { MATCH_anyEPC: [value] } : { MATCH_anyEPCClass: [value] };
}

/** `count` queries of `kind`, from events spread evenly over the list (the same ones for the same list). */
export function queriesOf(kind: QueryKind, events: readonly EpcisEvent[], count: number): EventQuery[] {
  const out: EventQuery[] = [];
  const step = Math.max(1, Math.floor(events.length / count));
  for (let i = Math.floor(step / 2); i < events.length && out.length < count; i++) {
    const q = queryFor(kind, events[i] as EpcisEvent);
    if (q === undefined) continue;
    out.push(q);
    i += step - 1;
  }
  if (out.length === 0) throw new Error(`No event offers a ${kind} query; generate a larger dataset.`);
  return out;
}
