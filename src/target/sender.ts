// Who the sender is, as the receiver knows it (spec 1, step 1): the party and location exchanged at setup, given
// on the command line or else taken from the events with a note that says so, and the GS1 company prefix of that
// party. An identifier under that prefix, or exchanged at setup, is the sender's own: its resolver must answer
// for it. Another company's GTIN, GLN or party may be declined by a sender that resolves only what it issued. A
// party or location taken from the events is the harness's guess: it makes nothing the sender's own.

import type { RunContext } from "../engine/context.ts";
import { perRun } from "../engine/run-scope.ts";
import {
  CANONICAL_DL_BASE,
  canonicalId,
  type EpcisEvent,
  formatDigitalLink,
  idValue,
  PARTY_FIELDS,
} from "../model/index.ts";
import { identifiersOf } from "./baseline.ts";
import { loadBaseline } from "./client.ts";
import { elementsOf } from "./identifiers.ts";

/** The canonical URI of the key alone (/417/…, /414/…, /01/…) when the identifier's first AI is `ai`. */
export function keyUri(id: string, ai: string): string | undefined {
  const first = elementsOf(id)?.[0];
  return first?.ai === ai ? formatDigitalLink(CANONICAL_DL_BASE, [first]) : undefined;
}

function mostCommon(values: readonly string[]): { value: string; count: number } | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: { value: string; count: number } | undefined;
  for (const [value, count] of counts) if (best === undefined || count > best.count) best = { value, count };
  return best;
}

/** The party an event is recorded by: its information provider, else its product owner. */
function partyOf(e: EpcisEvent): string | undefined {
  for (const field of PARTY_FIELDS) {
    const id = idValue(e[field]);
    const uri = id === undefined ? undefined : keyUri(id, "417");
    if (uri !== undefined) return uri;
  }
  return undefined;
}

function bizLocationKey(e: EpcisEvent): string | undefined {
  const id = idValue(e.bizLocation);
  return id === undefined ? undefined : keyUri(id, "414");
}

// EPC URNs write the company prefix apart from the rest of the key (EPC Tag Data Standard): sgtin, sscc, sgln,
// pgln, lgtin and their patterns all start with it, six to twelve digits long.
const URN_PREFIX = /^urn:epc:(?:id|class|idpat):[a-z]+:(\d{6,12})\./;

/**
 * Every identifier an event names: its EPCs and parent, its classes, its places and its parties, as the event writes
 * them, the first two as the baseline reads them (identifiersOf).
 */
export function identifiersNamedIn(e: EpcisEvent): unknown[] {
  const { epcs, classes } = identifiersOf(e);
  return [
    ...epcs,
    ...classes,
    idValue(e.bizLocation),
    idValue(e.readPoint),
    ...PARTY_FIELDS.map((field) => idValue(e[field])),
  ];
}

/**
 * The company prefix of a party, as the events' EPC URNs write it: the longest prefix of a URN that the party's
 * GLN begins with. Undefined when no URN names it; the harness does not guess a prefix's length.
 */
export function companyPrefixOf(party: string, events: readonly EpcisEvent[]): string | undefined {
  const pgln = elementsOf(party)?.[0]?.value;
  if (pgln === undefined) return undefined;
  let found: string | undefined;
  for (const e of events) {
    for (const value of identifiersNamedIn(e)) {
      if (typeof value !== "string" || !value.startsWith("urn:epc:")) continue;
      const prefix = URN_PREFIX.exec(value)?.[1];
      if (prefix !== undefined && pgln.startsWith(prefix) && prefix.length > (found?.length ?? 0)) {
        found = prefix;
      }
    }
  }
  return found;
}

/** The digits of a key where GS1 places the company prefix: after the indicator or extension digit of a GTIN or SSCC. */
function prefixedDigits(uri: string): string | undefined {
  const key = elementsOf(uri)?.[0];
  if (key === undefined) return undefined;
  return key.ai === "01" || key.ai === "00" ? key.value.slice(1) : key.value;
}

export interface SetupValues {
  party?: string;
  /**
   * The party is known to be the sender's: given with --party, or the embedded reference's own (which takes for
   * its party the one that records most events, the same rule the guess follows). Otherwise it is a guess.
   */
  partyGiven?: boolean;
  gln?: string;
  /** The GLN was given with --gln, not taken from the events. */
  glnGiven?: boolean;
  /** The company prefix of the party, when the events' URNs write it. */
  prefix?: string;
  /** How the values were obtained, for the verdict's note. */
  notes: string[];
}

/** Whether an identifier falls under the party's company prefix. */
function underPrefix(prefix: string | undefined, uri: string): boolean {
  if (prefix === undefined) return false;
  return prefixedDigits(uri)?.startsWith(prefix) === true;
}

/**
 * The party (…/417/{pgln}) and GLN (…/414/{gln}) exchanged at setup: --party and --gln, else the events': the
 * party that records most of them, and its most common business location (one under its own company prefix
 * first, since that is a place of its own).
 */
export function setupValues(ctx: RunContext, events: readonly EpcisEvent[]): SetupValues {
  const out: SetupValues = { notes: [] };
  if (ctx.party !== undefined) {
    out.party = ctx.party;
    out.partyGiven = true;
  } else {
    const found = mostCommon(events.flatMap((e) => partyOf(e) ?? []));
    if (found !== undefined) {
      out.party = found.value;
      if (ctx.embedded === true) out.partyGiven = true;
      out.notes.push(
        `no --party given: took ${found.value}, the information provider of ${found.count} of ${events.length} events` +
          (ctx.embedded === true
            ? " (the embedded reference's own party, by the same rule)"
            : "; a guess, so no identifier is taken for the sender's own by it"),
      );
    }
  }
  const prefix = out.party === undefined ? undefined : companyPrefixOf(out.party, events);
  if (prefix !== undefined) out.prefix = prefix;
  if (ctx.gln !== undefined) {
    const gln = ctx.gln.trim();
    out.gln = /^\d{13}$/.test(gln) ? formatDigitalLink(CANONICAL_DL_BASE, [{ ai: "414", value: gln }]) : gln;
    out.glnGiven = true;
  } else {
    const own = events.filter((e) => out.party !== undefined && partyOf(e) === out.party);
    const places = (list: readonly EpcisEvent[]) => list.flatMap((e) => bizLocationKey(e) ?? []);
    const found =
      mostCommon(places(own).filter((p) => underPrefix(prefix, p))) ??
      mostCommon(places(own)) ??
      mostCommon(places(events));
    if (found !== undefined) {
      out.gln = found.value;
      out.notes.push(`no --gln given: took ${found.value}, the business location of ${found.count} events`);
    }
  }
  return out;
}

/** The setup values over every event the harness knows (as served, and as loaded with --dataset), once per run. */
export const sender = perRun((ctx: RunContext): SetupValues => {
  const baseline = loadBaseline(ctx);
  return setupValues(ctx, [...baseline.events, ...(baseline.datasetEvents ?? [])]);
});

export interface Ownership {
  /** Exchanged at setup, rather than known by its company prefix. */
  setup: boolean;
  /** Why the identifier is the sender's own, for a verdict's reason. */
  why: string;
}

function claim(values: SetupValues, uri: string, trustGuess: boolean): Ownership | undefined {
  const canonical = canonicalId(uri);
  const partyKnown = values.partyGiven === true || trustGuess;
  if (partyKnown && values.party !== undefined && canonicalId(values.party) === canonical) {
    return { setup: true, why: "it is the party exchanged at setup" };
  }
  if (values.glnGiven === true && values.gln !== undefined && canonicalId(values.gln) === canonical) {
    return { setup: true, why: "it is the location exchanged at setup" };
  }
  if (partyKnown && underPrefix(values.prefix, canonical)) {
    return {
      setup: false,
      why: `it is under the company prefix ${values.prefix} of the sender's party ${values.party}`,
    };
  }
  return undefined;
}

/**
 * Whether an identifier is the sender's own, and why; undefined when the harness cannot tell that it is. The
 * party and the location exchanged at setup are, and every key under the party's company prefix; a party or
 * location the harness took from the events is its guess and makes nothing the sender's own (the location still
 * counts when it is under the prefix of a party that was given).
 */
export function ownership(values: SetupValues, uri: string): Ownership | undefined {
  return claim(values, uri, false);
}

/**
 * ownership with the guessed party and its prefix taken for the sender's: which identifiers to ask about first,
 * so that a run without --party still asks mostly about identifiers the sender is likely to resolve. No verdict
 * rests on it.
 */
export function presumedOwnership(values: SetupValues, uri: string): Ownership | undefined {
  return claim(values, uri, true);
}
