// The task a receiver is given (spec 1, step 2: "The Receiver takes a product identifier. It often comes from an
// earlier step such as an advance shipment notice."): a lot or an item that was shipped, written as a Digital
// Link URI under the canonical base. Of those, the one with the longest trace below it, so that the task walks
// through aggregations and transformations; the first in the sender's order among equals.
import {
  bizStepsEqual,
  CANONICAL_DL_BASE,
  canonicalId,
  type EpcisEvent,
  isDigitalLink,
  parseDigitalLink,
} from "./index.ts";
import { type TraceSet, traceBelow } from "./trace-set.ts";

export interface ReceiverTask {
  /** The identifier to trace, a Digital Link URI under https://id.gs1.org: /01/{gtin}/10/{lot} or /21/{serial}. */
  identifier: string;
  /** The product's own Digital Link URI, /01/{gtin}, whose link set offers its master data. */
  product: string;
  trace: TraceSet;
  /** What the receiver is to fetch, in one sentence. */
  instruction: string;
}

/** A lot or item identifier in canonical Digital Link form, or undefined for anything else (an SSCC, a GLN). */
function productIdentifier(id: string): string | undefined {
  const canonical = canonicalId(id);
  if (!isDigitalLink(canonical)) return undefined;
  const ais = parseDigitalLink(canonical).elements.map((e) => e.ai);
  return ais.length === 2 && ais[0] === "01" && (ais[1] === "10" || ais[1] === "21") ? canonical : undefined;
}

/** The shipped lots and items, once each, in the order first shipped. */
function shippedProducts(events: readonly EpcisEvent[]): string[] {
  const found = new Set<string>();
  for (const e of events) {
    if (e.type !== "ObjectEvent" || typeof e.bizStep !== "string" || !bizStepsEqual(e.bizStep, "shipping"))
      continue;
    const ids = [...(e.epcList ?? []), ...(e.quantityList ?? []).map((q) => q.epcClass)];
    for (const id of ids) {
      const product = productIdentifier(id);
      if (product !== undefined) found.add(product);
    }
  }
  return [...found];
}

/**
 * The company prefix a GLN is written under, as GS1 keys are allocated: the GLN without its check digit and the
 * zeros of an empty location reference, at least six digits (the shortest company prefix).
 */
function companyPrefixOf(gln: string): string {
  const significant = gln.slice(0, -1).replace(/0+$/, "");
  return gln.slice(0, Math.max(6, significant.length));
}

/** Whether a product's GTIN is the sender's own, issued under its company prefix (after the indicator digit). */
function issuedBy(prefix: string | undefined, product: string): boolean {
  if (prefix === undefined) return false;
  return parseDigitalLink(product).elements[0]!.value.slice(1).startsWith(prefix);
}

/**
 * The task over the events the sender holds. A product the sender issued is preferred, as a shipment notice from
 * the sender names one and as every sender resolves its own; throws when no lot or item was ever shipped.
 */
export function chooseTask(events: readonly EpcisEvent[], senderGln?: string): ReceiverTask {
  const prefix = senderGln === undefined ? undefined : companyPrefixOf(senderGln);
  const shipped = shippedProducts(events);
  const own = shipped.filter((p) => issuedBy(prefix, p));
  let best: { identifier: string; trace: TraceSet } | undefined;
  for (const identifier of own.length > 0 ? own : shipped) {
    const trace = traceBelow(events, identifier);
    if (best === undefined || trace.events.size > best.trace.events.size) best = { identifier, trace };
  }
  if (best === undefined) {
    throw new Error(
      "The sender's dataset ships no lot or item, so there is no product for a receiver to trace; generate a larger dataset (--events).",
    );
  }
  return taskFor(best.identifier, best.trace);
}

/** The task of tracing `identifier` (a lot or item's Digital Link URI) over the events the sender holds. */
export function taskOf(events: readonly EpcisEvent[], identifier: string): ReceiverTask {
  return taskFor(identifier, traceBelow(events, identifier));
}

function taskFor(identifier: string, trace: TraceSet): ReceiverTask {
  const gtin = parseDigitalLink(identifier).elements[0]!.value;
  return {
    identifier,
    product: `${CANONICAL_DL_BASE}/01/${gtin}`,
    trace,
    instruction:
      "resolve the identifier at the sender's resolver, fetch its events and those of every aggregation and transformation it passed through back to the first events, and the master data of the products, business locations and parties those events name",
  };
}
