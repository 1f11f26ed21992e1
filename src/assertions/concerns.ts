// Which events concern an identifier: what the epcis link of its link set must lead to (spec 4.2).

import type { PathForm } from "../model/index.ts";
import {
  canonicalId,
  classMatches,
  type EpcisEvent,
  type EventQuery,
  gtinOf,
  runOracle,
} from "../model/index.ts";
import { identifiersOf } from "../target/baseline.ts";
import { selectedAsWritten } from "./trace-back.ts";

/**
 * An event mentions an identifier when one of its EPCs, classes, parent, business location or read point is that
 * identifier or one qualified under it (a lot or serial under its GTIN, a GLN with an extension), in any form.
 */
export function mentions(event: EpcisEvent, uri: string): boolean {
  const target = canonicalId(uri);
  const { epcs, classes } = identifiersOf(event);
  const places = [event.bizLocation?.id, event.readPoint?.id].filter(
    (p): p is string => typeof p === "string",
  );
  return [...epcs, ...classes, ...places].some((id) => {
    const c = canonicalId(id);
    return c === target || c.startsWith(`${target}/`);
  });
}

/** Where an event holds an identifier: among its EPCs, its classes, or as its business location. */
export type HeldAs = "epc" | "class" | "location";

function heldValues(e: EpcisEvent, held: HeldAs): string[] {
  if (held === "location") {
    const id = e.bizLocation?.id;
    return typeof id === "string" ? [id] : [];
  }
  const { epcs, classes } = identifiersOf(e);
  return (held === "epc" ? epcs : classes).filter((v): v is string => typeof v === "string");
}

/**
 * The identifier as the events write it (URN or Digital Link, on whatever host): `id` itself when an event holds
 * it so, else the most common spelling whose canonical form is the same (the first of equals); undefined when no
 * event holds it in any spelling.
 */
export function writtenSpelling(events: readonly EpcisEvent[], id: string, held: HeldAs): string | undefined {
  const target = canonicalId(id);
  const counts = new Map<string, number>();
  for (const e of events) {
    for (const v of heldValues(e, held)) {
      if (v === id) return id;
      if (canonicalId(v) === target) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
  }
  let best: string | undefined;
  for (const [v, n] of counts) if (best === undefined || n > (counts.get(best) ?? 0)) best = v;
  return best;
}

/** Where the identifier of each path form with a certain query is held: the EPC, the class, the location. */
const HELD: Partial<Record<PathForm, HeldAs>> = {
  "00": "epc",
  "01/21": "epc",
  "01/10": "class",
  "414": "location",
};

/**
 * The query whose answer, over the events the harness knows, every epcis link of that path form must include:
 * the EPC for an SSCC or a serial, the class for a lot, the business location for a GLN. None for a product or a
 * party, whose links may lead to broader sets (a party's leads to the whole repository, spec 1 step 2).
 */
export function certainQuery(form: PathForm, uri: string): EventQuery | undefined {
  switch (HELD[form]) {
    case "epc":
      return { MATCH_anyEPC: [uri] };
    case "class":
      return { MATCH_anyEPCClass: [uri] };
    case "location":
      return { EQ_bizLocation: [uri] };
    default:
      return undefined;
  }
}

export interface WrittenQuery {
  query: EventQuery;
  /**
   * The query names the identifier as the events write it. When false no event holds it in any spelling and the
   * query names its canonical form, a value of the harness's making: a sender that matches only as written may
   * refuse it or answer nothing (the spec states form equivalence for bizStep alone).
   */
  asWritten: boolean;
}

/** certainQuery for the identifier as the events write it (writtenSpelling), else for its canonical form. */
export function writtenQuery(
  form: PathForm,
  uri: string,
  events: readonly EpcisEvent[],
): WrittenQuery | undefined {
  if (form === "01") return productQuery(uri, events);
  const held = HELD[form];
  if (held === undefined) return undefined;
  const written = writtenSpelling(events, uri, held);
  const query = certainQuery(form, written ?? uri);
  return query === undefined ? undefined : { query, asWritten: written !== undefined };
}

const LGTIN_URN = /^urn:epc:class:lgtin:(\d+)\.(\d+)\./;

function classesHeld(e: EpcisEvent): string[] {
  return identifiersOf(e).classes;
}

/**
 * What a receiver asks a query interface about a product (spec 4.1: MATCH_anyEPCClass "matches one of the
 * patterns or URIs"): the GTIN's class pattern, urn:epc:idpat:sgtin:CP.IR.*, written with the company prefix of
 * the lgtin URNs the events write for it. Where they write none, the GTIN's canonical Digital Link, a value of the
 * harness's making (asWritten false). No single parameter selects a GTIN's serialised items.
 */
export function productQuery(gtinUri: string, events: readonly EpcisEvent[]): WrittenQuery {
  const gtin = gtinOf(gtinUri);
  for (const e of gtin === undefined ? [] : events) {
    for (const c of classesHeld(e)) {
      const urn = LGTIN_URN.exec(c);
      if (urn !== null && gtinOf(c) === gtin) {
        return {
          query: { MATCH_anyEPCClass: [`urn:epc:idpat:sgtin:${urn[1]}.${urn[2]}.*`] },
          asWritten: true,
        };
      }
    }
  }
  return { query: { MATCH_anyEPCClass: [canonicalId(gtinUri)] }, asWritten: false };
}

/**
 * The events a query for an identifier must answer among those the harness knows: those holding its values as the
 * query writes them (selectedAsWritten); for a class pattern, those holding a class it covers written as an EPC URN,
 * the form a pattern has (as EVT-CLASS-PATTERN judges it).
 */
export function requiredEvents(events: readonly EpcisEvent[], query: EventQuery): EpcisEvent[] {
  const patterns = (query.MATCH_anyEPCClass ?? []).filter((v) => v.startsWith("urn:epc:idpat:"));
  if (patterns.length === 0) return selectedAsWritten(events, query);
  return runOracle(events, query).filter((e) =>
    classesHeld(e).some((c) => c.startsWith("urn:") && patterns.some((p) => classMatches(p, c))),
  );
}

/**
 * The events the harness knows are about an identifier, in any spelling, as spec 4.1's parameters can select them:
 * those holding the EPC of an SSCC or serial, the class of a lot, the location as bizLocation, and for a product
 * an EPC or class of its GTIN. None for a party, whose link leads to the whole repository.
 */
export function eventsAbout(form: PathForm, uri: string, events: readonly EpcisEvent[]): EpcisEvent[] {
  if (form === "01") {
    const gtin = gtinOf(uri);
    if (gtin === undefined) return [];
    return events.filter((e) => {
      const { epcs, classes } = identifiersOf(e);
      return [...epcs, ...classes].some((id) => typeof id === "string" && gtinOf(id) === gtin);
    });
  }
  const query = certainQuery(form, uri);
  return query === undefined ? [] : runOracle(events, query);
}
