import type { EpcisEvent } from "../../model/index.ts";
import { isDigitalLink } from "../../model/index.ts";
import { bizStepKey, CLASS_LISTS, EPC_FIELDS, idKey } from "../store/index.ts";
import { type EventsFaultId, faultOn } from "./faults.ts";

type Ilmd = Record<string, unknown>;

/** An extension field; its prefix is declared in the answer's @context (query-document.ts). */
export const EXTENSION_FIELD = "example:note";

/**
 * The events as served: the stored events, rewritten to Digital Link form when the sender is configured to
 * answer that way, and changed where a switched-on fault says. Stored events are never modified.
 */
export function shapeEvents(
  events: readonly EpcisEvent[],
  opts: {
    faults: ReadonlySet<string>;
    answerInDigitalLink: boolean;
    /** Add a field of the sender's own namespace to every event (EPCIS 2.0 allows extension fields). */
    extensionField?: boolean;
    filtered: boolean;
  },
): EpcisEvent[] {
  const on = (id: EventsFaultId): boolean => faultOn(opts.faults, id);
  const edits: ((e: EpcisEvent) => void)[] = [];
  if (opts.answerInDigitalLink) edits.push(toDigitalLinkForm);
  if (opts.extensionField) edits.push((e) => (e[EXTENSION_FIELD] = "served by the reference sender"));
  if (on("content-drops-field") && opts.filtered) edits.push((e) => delete e.ilmd);
  if (on("shape-bad-eventtime")) edits.push(dropEventTimeZone);
  if (on("core-shipping-disposition")) edits.push(shippingActive);
  if (on("core-commission-action")) edits.push(commissionObserve);
  if (on("module-core-owner-empty")) edits.push((e) => (e["gdst:productOwner"] = ""));
  if (on("module-seafood-no-owner")) edits.push((e) => delete e["gdst:productOwner"]);
  if (on("module-seafood-no-lot")) edits.push((e) => delete ilmdOf(e)?.["cbvmda:lotNumber"]);
  if (on("module-wildcatch-flag")) edits.push(lowerCaseVesselFlags);
  if (on("module-aquaculture-no-method")) edits.push((e) => delete ilmdOf(e)?.["gdst:aquacultureMethod"]);
  if (edits.length === 0) return [...events];
  return events.map((stored) => {
    const e = structuredClone(stored);
    for (const edit of edits) edit(e);
    return e;
  });
}

/** The Digital Link form of an identifier that has one (EPCIS 2.0 allows either form in an answer). */
function dl(id: string): string {
  const canonical = idKey(id);
  return isDigitalLink(canonical) ? canonical : id;
}

function toDigitalLinkForm(e: EpcisEvent): void {
  if (typeof e.parentID === "string") e.parentID = dl(e.parentID);
  for (const f of EPC_FIELDS) {
    const v = e[f];
    if (f !== "parentID" && Array.isArray(v))
      e[f] = v.map((epc) => (typeof epc === "string" ? dl(epc) : epc));
  }
  for (const l of CLASS_LISTS) {
    for (const q of e[l] ?? []) if (typeof q?.epcClass === "string") q.epcClass = dl(q.epcClass);
  }
  if (typeof e.bizLocation?.id === "string") e.bizLocation.id = dl(e.bizLocation.id);
  if (typeof e.readPoint?.id === "string") e.readPoint.id = dl(e.readPoint.id);
}

function dropEventTimeZone(e: EpcisEvent): void {
  if (typeof e.eventTime === "string") e.eventTime = e.eventTime.replace(/(Z|z|[+-]\d{2}:\d{2})$/, "");
}

/** A disposition word in the same form (bare, URN or Web URI) as the one it replaces. */
function dispositionLike(existing: unknown, word: string): string {
  if (typeof existing === "string") {
    for (const prefix of ["urn:epcglobal:cbv:disp:", "https://ref.gs1.org/cbv/Disp-"]) {
      if (existing.startsWith(prefix)) return prefix + word;
    }
  }
  return word;
}

function shippingActive(e: EpcisEvent): void {
  if (e.type === "ObjectEvent" && typeof e.bizStep === "string" && bizStepKey(e.bizStep) === "shipping") {
    e.disposition = dispositionLike(e.disposition, "active");
  }
}

/** One defect, the action: the ilmd goes with it, since EPCIS 2.0 allows ilmd on an ObjectEvent only with ADD. */
function commissionObserve(e: EpcisEvent): void {
  if (
    e.type === "ObjectEvent" &&
    typeof e.bizStep === "string" &&
    bizStepKey(e.bizStep) === "commissioning"
  ) {
    e.action = "OBSERVE";
    delete e.ilmd;
  }
}

function ilmdOf(e: EpcisEvent): Ilmd | undefined {
  const ilmd = e.ilmd;
  return ilmd !== null && typeof ilmd === "object" && !Array.isArray(ilmd) ? (ilmd as Ilmd) : undefined;
}

function lowerCaseVesselFlags(e: EpcisEvent): void {
  const list = ilmdOf(e)?.["cbvmda:vesselCatchInformationList"] as Ilmd | undefined;
  const catches = list?.["cbvmda:vesselCatchInformation"];
  if (!Array.isArray(catches)) return;
  for (const c of catches) {
    if (c !== null && typeof c === "object" && typeof c["cbvmda:vesselFlagState"] === "string") {
      c["cbvmda:vesselFlagState"] = c["cbvmda:vesselFlagState"].toLowerCase();
    }
  }
}
