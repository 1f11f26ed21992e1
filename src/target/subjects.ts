// The identifiers events name that have master data (spec 2.2): the business location (a gs1:Place), the
// product of each EPC or class (a gs1:Product) and the parties (a gs1:Organization).
import type { MasterDataTypeName } from "../definition/index.ts";
import {
  CANONICAL_DL_BASE,
  type EpcisEvent,
  formatDigitalLink,
  gtinOf,
  idValue,
  PARTY_FIELDS,
} from "../model/index.ts";
import { identifiersOf } from "./baseline.ts";
import { keyUri } from "./sender.ts";

export interface Subject {
  /** Canonical Digital Link URI of the key: /414/{gln}, /01/{gtin} or /417/{pgln}. */
  id: string;
  type: MasterDataTypeName;
  role: string;
}

// The core module's party KDEs; EPCIS source and destination lists name parties and places by their type.
const LISTS = [
  ["sourceList", "source"],
  ["destinationList", "destination"],
] as const;

/** Every subject the events name, once each, in the order first named. */
export function masterDataSubjects(events: readonly EpcisEvent[]): Subject[] {
  const found = new Map<string, Subject>();
  const add = (id: string | undefined, type: MasterDataTypeName, role: string) => {
    if (id !== undefined && !found.has(id)) found.set(id, { id, type, role });
  };
  const place = (value: unknown, role: string) => {
    const id = idValue(value);
    add(id === undefined ? undefined : keyUri(id, "414"), "gs1:Place", role);
  };
  const party = (value: unknown, role: string) => {
    const id = idValue(value);
    add(id === undefined ? undefined : keyUri(id, "417"), "gs1:Organization", role);
  };
  for (const e of events) {
    place(e.bizLocation, "business location");
    const { epcs, classes } = identifiersOf(e);
    for (const id of [...epcs, ...classes]) {
      const gtin = gtinOf(id);
      add(
        gtin === undefined ? undefined : formatDigitalLink(CANONICAL_DL_BASE, [{ ai: "01", value: gtin }]),
        "gs1:Product",
        "product",
      );
    }
    for (const field of PARTY_FIELDS) party(e[field], `party (${field})`);
    for (const [list, member] of LISTS) {
      const entries = e[list];
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) {
        if (entry === null || typeof entry !== "object") continue;
        const value = (entry as Record<string, unknown>)[member];
        party(value, `${list} party`);
        place(value, `${list} location`);
      }
    }
  }
  return [...found.values()];
}
