// Event identity for comparing result sets (ARCHITECTURE.md: "as sets of event identity (eventID, else a
// canonical hash)").
import { createHash } from "node:crypto";
import { type CbvVocabulary, canonicalBizStep, canonicalCbvTerm } from "./bizstep.ts";
import { canonicalId } from "./identifiers.ts";
import { formatInstant, parseInstant } from "./instant.ts";
import { CLASS_LISTS, EPC_LIST_FIELDS, type EpcisEvent, type QuantityElement } from "./types.ts";

/** JSON with object keys sorted recursively, so that equal values give equal text whatever their key order. */
export function canonicalJson(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, value]) => value !== undefined)
      // The keys of one object are distinct, so no two compare equal.
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, value]) => `${JSON.stringify(key)}:${canonicalJson(value)}`);
    return `{${entries.join(",")}}`;
  }
  if (typeof v === "bigint")
    throw new TypeError("canonicalJson cannot write a bigint; convert it to a string first.");
  return JSON.stringify(v) ?? "null";
}

const DISPOSITION: CbvVocabulary = { urn: "urn:epcglobal:cbv:disp:", web: "https://ref.gs1.org/cbv/Disp-" };
/** Business transaction types (bizTransactionList[].type). */
const BIZ_TRANSACTION_TYPE: CbvVocabulary = {
  urn: "urn:epcglobal:cbv:btt:",
  web: "https://ref.gs1.org/cbv/BTT-",
};
/** Source and destination types (sourceList[].type, destinationList[].type). */
const SOURCE_DEST_TYPE: CbvVocabulary = {
  urn: "urn:epcglobal:cbv:sdt:",
  web: "https://ref.gs1.org/cbv/SDT-",
};
/** A list of typed elements (bizTransactionList, sourceList, destinationList) with each type in its bare word. */
function canonicalTypes(list: unknown, vocabulary: CbvVocabulary): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((x: unknown) => {
    if (x === null || typeof x !== "object") return x;
    const type = (x as { type?: unknown }).type;
    return typeof type === "string" ? { ...x, type: canonicalCbvTerm(type, vocabulary) } : x;
  });
}

function canonicalTime(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return formatInstant(parseInstant(value));
  } catch {
    return value;
  }
}

function canonicalIds(list: unknown): unknown {
  return Array.isArray(list) ? list.map((x) => (typeof x === "string" ? canonicalId(x) : x)) : list;
}

function canonicalQuantities(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((q: QuantityElement) =>
    q !== null && typeof q === "object" && typeof q.epcClass === "string"
      ? { ...q, epcClass: canonicalId(q.epcClass) }
      : q,
  );
}

function canonicalPlace(place: unknown): unknown {
  if (place === null || typeof place !== "object") return place;
  const id = (place as { id?: unknown }).id;
  return typeof id === "string" ? { ...place, id: canonicalId(id) } : place;
}

/**
 * The event as it is hashed: without recordTime (the server assigns it), and with the values a server may
 * legitimately rewrite (identifier form, the CBV form of bizStep, disposition, business transaction types and
 * source and destination types, the written form of eventTime) in one canonical form, so that a served copy hashes
 * like the loaded event.
 */
function hashable(e: EpcisEvent): Record<string, unknown> {
  const { recordTime: _recordTime, ...rest } = e;
  const out: Record<string, unknown> = { ...rest };
  for (const key of EPC_LIST_FIELDS) {
    if (key in out) out[key] = canonicalIds(out[key]);
  }
  for (const key of CLASS_LISTS) {
    if (key in out) out[key] = canonicalQuantities(out[key]);
  }
  if (typeof out.parentID === "string") out.parentID = canonicalId(out.parentID);
  if ("bizLocation" in out) out.bizLocation = canonicalPlace(out.bizLocation);
  if ("readPoint" in out) out.readPoint = canonicalPlace(out.readPoint);
  if (typeof out.bizStep === "string") out.bizStep = canonicalBizStep(out.bizStep);
  if (typeof out.disposition === "string") out.disposition = canonicalCbvTerm(out.disposition, DISPOSITION);
  if ("bizTransactionList" in out)
    out.bizTransactionList = canonicalTypes(out.bizTransactionList, BIZ_TRANSACTION_TYPE);
  if ("sourceList" in out) out.sourceList = canonicalTypes(out.sourceList, SOURCE_DEST_TYPE);
  if ("destinationList" in out) out.destinationList = canonicalTypes(out.destinationList, SOURCE_DEST_TYPE);
  if ("eventTime" in out) out.eventTime = canonicalTime(out.eventTime);
  return out;
}

/** The eventID when the event has one, else "hash:" + the SHA-256 (hex) of its canonical JSON. */
export function eventIdentity(e: EpcisEvent): string {
  if (typeof e.eventID === "string" && e.eventID !== "") return e.eventID;
  return (
    "hash:" +
    createHash("sha256")
      .update(canonicalJson(hashable(e)))
      .digest("hex")
  );
}
