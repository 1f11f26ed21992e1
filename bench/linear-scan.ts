// The linear scan the store's indexes are compared with: the cheapest one there is, a plain filter comparing
// identifiers as written and eventTime as instants parsed beforehand (as any store does on load). Cheaper than
// the oracle, which canonicalises every identifier it meets, so the index's gain is not overstated.
import type { EpcisEvent, EventQuery, Instant } from "../src/model/index.ts";
import { compareInstants, parseInstant } from "../src/model/index.ts";

export interface ScanRow {
  event: EpcisEvent;
  eventTime: Instant | undefined;
}

export function scanRows(events: readonly EpcisEvent[]): ScanRow[] {
  return events.map((event) => ({
    event,
    eventTime: typeof event.eventTime === "string" ? parseInstant(event.eventTime) : undefined,
  }));
}

function hasEpc(e: EpcisEvent, wanted: ReadonlySet<string>): boolean {
  if (typeof e.parentID === "string" && wanted.has(e.parentID)) return true;
  for (const list of [e.epcList, e.childEPCs, e.inputEPCList, e.outputEPCList]) {
    if (list?.some((epc) => wanted.has(epc))) return true;
  }
  return false;
}

function hasClass(e: EpcisEvent, wanted: ReadonlySet<string>): boolean {
  for (const list of [e.quantityList, e.childQuantityList, e.inputQuantityList, e.outputQuantityList]) {
    if (list?.some((q) => wanted.has(q.epcClass))) return true;
  }
  return false;
}

/** The events meeting the EPC, class and eventTime parameters of `q`; other parameters are not scanned for. */
export function linearScan(rows: readonly ScanRow[], q: EventQuery): EpcisEvent[] {
  const epcs = q.MATCH_anyEPC === undefined ? undefined : new Set(q.MATCH_anyEPC);
  const classes = q.MATCH_anyEPCClass === undefined ? undefined : new Set(q.MATCH_anyEPCClass);
  const from = q.GE_eventTime === undefined ? undefined : parseInstant(q.GE_eventTime);
  const to = q.LT_eventTime === undefined ? undefined : parseInstant(q.LT_eventTime);
  const out: EpcisEvent[] = [];
  for (const { event, eventTime } of rows) {
    if (epcs !== undefined && !hasEpc(event, epcs)) continue;
    if (classes !== undefined && !hasClass(event, classes)) continue;
    if (from !== undefined || to !== undefined) {
      if (eventTime === undefined) continue;
      if (from !== undefined && compareInstants(eventTime, from) < 0) continue;
      if (to !== undefined && compareInstants(eventTime, to) >= 0) continue;
    }
    out.push(event);
  }
  return out;
}
