// The oracle is a plain filter over every known event, and canonicalising identifiers is its costly part. An index
// of the known events by canonical EPC, class GTIN and location, built once, gives for a query the events that can
// match it (a superset, never fewer), so the oracle runs on those alone.
import { canonicalId, gtinOf, isClassPattern } from "../../../src/model/index.ts";
import type { EpcisEvent, EventQuery } from "../../../src/model/types.ts";
import { CLASS_FIELDS, classesIn, EPC_FIELDS, epcsIn, locationOf } from "../../../src/target/pools.ts";

/** Classes without a GTIN are kept under this key, beside the GTINs. */
const NO_GTIN = "";

function add(index: Map<string, EpcisEvent[]>, key: string, e: EpcisEvent): void {
  const list = index.get(key);
  if (list === undefined) index.set(key, [e]);
  else if (list.at(-1) !== e) list.push(e);
}

export class CandidateIndex {
  readonly #all: readonly EpcisEvent[];
  readonly #byEpc = new Map<string, EpcisEvent[]>();
  readonly #byGtin = new Map<string, EpcisEvent[]>();
  readonly #byLocation = new Map<string, EpcisEvent[]>();

  constructor(events: readonly EpcisEvent[]) {
    this.#all = events;
    for (const e of events) {
      for (const f of EPC_FIELDS) for (const epc of epcsIn(e, f)) add(this.#byEpc, canonicalId(epc), e);
      for (const f of CLASS_FIELDS)
        for (const c of classesIn(e, f)) add(this.#byGtin, gtinOf(c) ?? NO_GTIN, e);
      const location = locationOf(e);
      if (location !== undefined) add(this.#byLocation, canonicalId(location), e);
    }
  }

  /** Every known event that can meet the query; the oracle decides which do. */
  candidates(q: EventQuery): readonly EpcisEvent[] {
    if (q.MATCH_anyEPC !== undefined)
      return this.#union(q.MATCH_anyEPC.map((v) => this.#byEpc.get(canonicalId(v))));
    if (q.EQ_bizLocation !== undefined) {
      return this.#union(q.EQ_bizLocation.map((v) => this.#byLocation.get(canonicalId(v))));
    }
    if (q.MATCH_anyEPCClass !== undefined)
      return this.#union(q.MATCH_anyEPCClass.flatMap((v) => this.#ofClass(v)));
    return this.#all;
  }

  // A company-prefix pattern covers every GTIN of the company; any other value covers at most the classes of its
  // own GTIN, or, without one, the classes that have none.
  #ofClass(value: string): (EpcisEvent[] | undefined)[] {
    if (isClassPattern(value) && gtinOf(value) === undefined) return [...this.#byGtin.values()];
    return [this.#byGtin.get(gtinOf(value) ?? NO_GTIN)];
  }

  #union(lists: readonly (EpcisEvent[] | undefined)[]): EpcisEvent[] {
    const seen = new Set<EpcisEvent>();
    for (const list of lists) for (const e of list ?? []) seen.add(e);
    // Known order, so that expected sets read the same way as without the index.
    return this.#all.filter((e) => seen.has(e));
  }
}
