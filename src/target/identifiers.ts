// The identifiers a receiver can ask the resolver about, taken from what the harness already knows: the events
// of the baseline and the party and location exchanged at setup (spec 1). Each comes back as its canonical
// Digital Link URI under https://id.gs1.org, grouped by the six path forms of spec 4.2.
import {
  CANONICAL_DL_BASE,
  canonicalId,
  type DigitalLinkElement,
  type EpcisEvent,
  formatDigitalLink,
  idValue,
  PARTY_FIELDS,
  type PathForm,
  parseDigitalLink,
  pathFormOf,
} from "../model/index.ts";
import { memoized } from "../model/memo.ts";
import { identifiersOf } from "./baseline.ts";

export type IdentifiersByForm = Record<PathForm, string[]>;

export interface IdentifierSources {
  events: readonly EpcisEvent[];
  /** The party's Digital Link URI exchanged at setup (…/417/{pgln}), from --party. */
  party?: string;
  /** The location number exchanged at setup, from --gln: thirteen digits or a Digital Link URI. */
  gln?: string;
}

/**
 * The elements of an EPC, class, location or party in any spelling, or undefined for anything else. Frozen, and
 * the same list for the same string: the setup values and the identifiers of a run ask about each identifier of
 * every event, the same few hundred strings again and again, and parsing them each time was the most of a short
 * run's work in its own thread.
 */
export const elementsOf: (id: string) => readonly Readonly<DigitalLinkElement>[] | undefined = memoized(
  (id) => {
    let elements: DigitalLinkElement[];
    try {
      elements = parseDigitalLink(canonicalId(id)).elements;
    } catch {
      return undefined;
    }
    for (const e of elements) Object.freeze(e);
    return Object.freeze(elements);
  },
);

/** No identifier of any of the six forms. */
export function noIdentifiers(): IdentifiersByForm {
  return { "00": [], "417": [], "414": [], "01": [], "01/10": [], "01/21": [] };
}

class Collector {
  readonly byForm: IdentifiersByForm = noIdentifiers();
  readonly #seen = new Set<string>();
  /** Each identifier as given with the forms it was asked for: a second add of the same adds nothing. */
  readonly #asked = new Set<string>();

  /** Adds the identifier when it is one of the six forms, and the GTIN or GLN it is qualified under. */
  add(id: string, only?: readonly PathForm[]): void {
    const asked = `${only?.join(",") ?? "*"} ${id}`;
    if (this.#asked.has(asked)) return;
    this.#asked.add(asked);
    const elements = elementsOf(id);
    const first = elements?.[0];
    if (elements === undefined || first === undefined) return;
    const keep = (els: readonly DigitalLinkElement[]) => {
      const form = pathFormOf(els);
      if (form === undefined || (only !== undefined && !only.includes(form))) return;
      const uri = formatDigitalLink(CANONICAL_DL_BASE, els);
      if (this.#seen.has(uri)) return;
      this.#seen.add(uri);
      this.byForm[form].push(uri);
    };
    keep(elements);
    // A location with an extension (254) is asked about by its GLN; a lot or serial also names its product.
    if (first.ai === "01" || first.ai === "414") keep([first]);
  }
}

/**
 * The identifiers of each path form, setup values first and then in the order the events name them: SSCCs from
 * parents and EPC lists, GTIN+serial from SGTINs, GTIN+lot from classes, GLNs from business locations and read
 * points, GTINs from all of these, PGLNs from --party, else the events' product owners and information providers.
 */
export function identifiersFromBaseline(sources: IdentifierSources): IdentifiersByForm {
  const found = new Collector();
  if (sources.party !== undefined) found.add(sources.party, ["417"]);
  if (sources.gln !== undefined) {
    const gln = sources.gln.trim();
    found.add(/^\d{13}$/.test(gln) ? `${CANONICAL_DL_BASE}/414/${gln}` : gln, ["414"]);
  }
  for (const event of sources.events) {
    const { epcs, classes } = identifiersOf(event);
    for (const epc of epcs) found.add(epc);
    for (const cls of classes) found.add(cls);
    for (const place of [event.bizLocation?.id, event.readPoint?.id]) {
      if (typeof place === "string") found.add(place, ["414"]);
    }
    if (sources.party === undefined) {
      for (const field of PARTY_FIELDS) {
        const party = idValue(event[field]);
        if (party !== undefined) found.add(party, ["417"]);
      }
    }
  }
  return found.byForm;
}

/**
 * At most `limit` identifiers: the first one always (a setup value when there is one), the rest drawn with the
 * seed, so that --seed replays the same choice and a large repository is not asked about everything it holds.
 */
export function sampleIdentifiers(ids: readonly string[], limit: number, seed: number): string[] {
  if (ids.length <= limit) return [...ids];
  if (limit <= 0) return [];
  const [first, ...rest] = ids;
  let state = seed >>> 0;
  const next = () => {
    // mulberry32: a small, well-mixed generator; only the draw's reproducibility matters here.
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  return [first!, ...rest.slice(0, limit - 1)];
}
