// A trace as a person reads it: one line per event in time order (UTC), what it did, where, and to what; then the
// master data fetched and what could not be fetched.
import {
  canonicalBizStep,
  canonicalId,
  type EpcisEvent,
  formatInstant,
  idValue,
  parseInstant,
} from "../model/index.ts";
import type { TraceOutcome } from "./trace.ts";

function utc(time: string | undefined): string {
  if (time === undefined) return "(no eventTime)";
  try {
    return formatInstant(parseInstant(time));
  } catch {
    return time;
  }
}

function classes(list: EpcisEvent["quantityList"]): string[] {
  return (list ?? []).map((q) => `${canonicalId(q.epcClass)} (${q.quantity ?? "?"} ${q.uom ?? ""})`.trim());
}

/** What an event is about, field by field, identifiers in their canonical Digital Link form. */
function subjects(e: EpcisEvent): string[] {
  const ids = (label: string, values: readonly string[] | undefined) =>
    (values ?? []).map((v) => `${label} ${canonicalId(v)}`);
  return [
    ...(typeof e.parentID === "string" ? [`parent ${canonicalId(e.parentID)}`] : []),
    ...ids("child", e.childEPCs),
    ...classes(e.childQuantityList).map((c) => `child ${c}`),
    ...ids("input", e.inputEPCList),
    ...classes(e.inputQuantityList).map((c) => `input ${c}`),
    ...ids("output", e.outputEPCList),
    ...classes(e.outputQuantityList).map((c) => `output ${c}`),
    ...ids("epc", e.epcList),
    ...classes(e.quantityList).map((c) => `class ${c}`),
  ];
}

function eventLine(e: EpcisEvent): string {
  const step = typeof e.bizStep === "string" ? canonicalBizStep(e.bizStep) : "(no bizStep)";
  const location = idValue(e.bizLocation);
  const what = [e.type, e.action, step].filter((p) => p !== undefined).join(" ");
  const where = location === undefined ? "" : ` at ${canonicalId(location)}`;
  return `${utc(e.eventTime)}  ${what}${where}\n${subjects(e)
    .map((s) => `    ${s}`)
    .join("\n")}`;
}

function masterDataLine(doc: Record<string, unknown>): string {
  const type = typeof doc["@type"] === "string" ? doc["@type"] : "(untyped)";
  const id = typeof doc["@id"] === "string" ? doc["@id"] : "(no @id)";
  const name = ["name", "productName", "organizationName", "physicalLocationName"]
    .map((k) => doc[k])
    .find((v) => typeof v === "string");
  return `  ${type}  ${id}${typeof name === "string" ? `  ${name}` : ""}`;
}

export function readableTrace(outcome: TraceOutcome): string {
  const lines = [
    `Trace of ${outcome.identifier}: ${outcome.events.length} event(s), ${outcome.masterData.length} master data document(s), ${outcome.requests} request(s)`,
    "",
    ...outcome.events.map(eventLine),
    "",
    "Master data:",
    ...(outcome.masterData.length === 0 ? ["  (none)"] : outcome.masterData.map(masterDataLine)),
  ];
  if (outcome.gaps.length > 0) {
    lines.push("", "Not fetched:", ...outcome.gaps.map((g) => `  ${g}`));
  }
  return `${lines.join("\n")}\n`;
}
