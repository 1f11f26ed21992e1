// The sender's own identifiers, for the configurations that treat them apart (resolves: "own",
// partyLocationMasterData: "own"): the party that records most of the dataset's events, and every key under its
// GS1 company prefix. The prefix is read off the party's GLN the way the generator writes one, the company prefix
// padded with zeros: the GLN without its check digit and trailing zeros, at least six digits (the shortest
// company prefix EPC encodes). A GLN whose location reference is not zero gives a longer, narrower prefix.
import type { DigitalLinkElement, EpcisEvent } from "../../model/index.ts";
import { CANONICAL_DL_BASE, canonicalId, idValue, PARTY_FIELDS } from "../../model/index.ts";

const MIN_PREFIX = 6;

export interface OwnIdentifiers {
  /** Canonical …/417/{pgln} of the sender's party; undefined when no event names a party. */
  party?: string;
  /** The company prefix of that party. */
  prefix?: string;
}

const PARTY_BASE = `${CANONICAL_DL_BASE}/417/`;

function partyOf(event: EpcisEvent): string | undefined {
  for (const field of PARTY_FIELDS) {
    const id = idValue(event[field]);
    const canonical = id === undefined ? undefined : canonicalId(id);
    if (canonical?.startsWith(PARTY_BASE)) return canonical;
  }
  return undefined;
}

/** The party that records most events (its information provider, else its product owner) and its prefix. */
export function ownIdentifiers(events: readonly EpcisEvent[]): OwnIdentifiers {
  const counts = new Map<string, number>();
  for (const e of events) {
    const party = partyOf(e);
    if (party !== undefined) counts.set(party, (counts.get(party) ?? 0) + 1);
  }
  let party: string | undefined;
  for (const [p, n] of counts) if (party === undefined || n > (counts.get(party) ?? 0)) party = p;
  if (party === undefined) return {};
  const gln = party.slice(PARTY_BASE.length);
  const significant = gln.slice(0, -1).replace(/0+$/, "");
  return { party, prefix: gln.slice(0, Math.max(MIN_PREFIX, significant.length)) };
}

/** Whether a key (the first element of an identifier) falls under the sender's company prefix. */
export function isOwnKey(own: OwnIdentifiers, key: DigitalLinkElement | undefined): boolean {
  if (own.prefix === undefined || key === undefined) return false;
  // An SSCC's extension digit and a GTIN-14's indicator come before the company prefix.
  const digits = key.ai === "00" || key.ai === "01" ? key.value.slice(1) : key.value;
  return digits.startsWith(own.prefix);
}
