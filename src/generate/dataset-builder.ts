// Accumulates chains into one dataset: hands out unique lots, serials, SSCCs and transformation ids, shares
// instants between chains, and keeps track of which parties, sites and products the kept events name, so that
// the master data covers exactly those (plus the sender).
import type { Dataset, EpcisEvent } from "../model/index.ts";
import {
  buildCatalogue,
  type Catalogue,
  type IdForms,
  idForms,
  type Party,
  type Site,
  type TradeItem,
  withCheckDigit,
} from "./catalogue.ts";
import {
  buildChain,
  type ChainContext,
  type KeyedValue,
  type MasterDataSubject,
  randomUuidUrn,
} from "./chain.ts";
import { type Moment, rewritten } from "./clock.ts";
import { organizationDocument, placeDocument, productDocument } from "./master-data.ts";
import type { ChainModule, ResolvedShape } from "./options.ts";
import type { Random } from "./random.ts";
import { VALUE_DECORATIONS } from "./vocabulary.ts";

const RECENT_MOMENTS = 64;

export class DatasetBuilder implements ChainContext {
  readonly catalogue: Catalogue;
  private readonly events: EpcisEvent[] = [];
  private readonly used = new Set<MasterDataSubject>();
  private readonly turns = new Map<string, number>();
  private readonly recent: Moment[] = [];
  private readonly templates = new Map<string, IdForms>();
  private recentNext = 0;
  // Start past two base-36 digits so that every value has at least three characters.
  private valueCounter = 36 * 36;
  private ssccCounter: number;
  private transformations = 0;

  constructor(
    rng: Random,
    readonly shape: ResolvedShape,
  ) {
    this.catalogue = buildCatalogue(rng.fork());
    this.ssccCounter = rng.int(1, 99_999);
  }

  get size(): number {
    return this.events.length;
  }

  turn(key: string): number {
    const n = this.turns.get(key) ?? 0;
    this.turns.set(key, n + 1);
    return n;
  }

  keyedValue(rng: Random, item: TradeItem, ai: "10" | "21"): KeyedValue {
    const decoration = rng.pick(VALUE_DECORATIONS);
    const n = (this.valueCounter++).toString(36);
    const counter = rng.chance(0.7) ? n.toUpperCase() : n;
    // Letters and digits are written as themselves in both spellings, so the running number is appended to a
    // template built once per product and decoration around a placeholder "0": far cheaper than formatting
    // and converting every identifier of a million-event dataset.
    const key = `${item.gtin}/${ai}/${decoration}`;
    let template = this.templates.get(key);
    if (template === undefined) {
      const elements = [
        { ai: "01", value: item.gtin },
        { ai, value: `${decoration}0` },
      ];
      template = idForms(elements, item.companyPrefixLength);
      this.templates.set(key, template);
    }
    return {
      value: decoration + counter,
      id: { dl: template.dl.slice(0, -1) + counter, urn: template.urn.slice(0, -1) + counter },
    };
  }

  nextSscc(owner: Party): IdForms {
    const cp = owner.companyPrefix;
    const width = 16 - cp.length;
    const n = this.ssccCounter++;
    const extension = Math.floor(n / 10 ** width) % 10;
    const serialReference = String(n % 10 ** width).padStart(width, "0");
    return idForms([{ ai: "00", value: withCheckDigit(extension + cp + serialReference) }], cp.length);
  }

  // Transformation ids are URIs, not GS1 keys (spec 4.1 compares them as given); several carry characters that
  // must be percent-encoded in a query string.
  nextTransformationId(rng: Random, site: Site, lot: string): string {
    const n = ++this.transformations;
    switch (n % 4) {
      case 0:
        return randomUuidUrn(rng);
      case 1:
        return `https://trace.example.com/transformations/${n}?plant=${site.gln}&lot=${encodeURIComponent(lot)}`;
      case 2:
        return `urn:tracecheck:transformation:${n};line=A+B,shift(${rng.int(1, 3)})`;
      default:
        return `urn:tracecheck:transformation:batch%2F${n}&lot=${encodeURIComponent(lot)}`;
    }
  }

  sharedMoment(rng: Random): Moment | undefined {
    if (this.recent.length === 0 || !rng.chance(0.25)) return undefined;
    return rewritten(rng, rng.pick(this.recent));
  }

  remember(moment: Moment): void {
    this.recent[this.recentNext] = moment;
    this.recentNext = (this.recentNext + 1) % RECENT_MOMENTS;
  }

  /** Adds one chain, keeping at most `limit` of its events (a prefix of the chain is still coherent). */
  addChain(rng: Random, module: ChainModule, limit = Number.POSITIVE_INFINITY): void {
    let room = limit;
    for (const draft of buildChain(this, rng, module)) {
      if (room <= 0) break;
      if (!this.shape.eventTypes.has(draft.event.type)) continue;
      this.events.push(draft.event);
      for (const subject of draft.uses) this.used.add(subject);
      room--;
    }
  }

  dataset(): Dataset {
    const c = this.catalogue;
    const isUsed = (s: MasterDataSubject): boolean => this.used.has(s);
    return {
      events: this.events,
      masterData: [
        ...c.parties.filter((p) => p === c.sender || isUsed(p)).map(organizationDocument),
        ...c.sites.filter(isUsed).map(placeDocument),
        ...c.items.filter(isUsed).map(productDocument),
      ],
    };
  }
}
