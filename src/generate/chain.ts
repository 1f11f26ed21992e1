// One supply chain of the seven core events (spec 6), in the order goods move: Commission at the vessel or
// farm → Shipping → Receiving at the sender's plant → Transformation (sometimes two events sharing one
// transformationID) → Aggregation into an SSCC → Shipping → Receiving at the distributor → Disaggregation →
// (Shipping → Receiving at a store) → Decommission. Any prefix of a chain is itself coherent.
import { createHash } from "node:crypto";
import type { EpcisEvent, QuantityElement } from "../model/index.ts";
import { bizStepForms } from "../model/index.ts";
import type { Catalogue, IdForms, Party, Site, TradeItem } from "./catalogue.ts";
import { ChainClock, type Moment, randomMoment } from "./clock.ts";
import { harvestFacts, lotIlmd } from "./ilmd.ts";
import type { ChainModule, ResolvedShape } from "./options.ts";
import type { Random } from "./random.ts";
import { DECOMMISSION_DISPOSITIONS, RECEIVING_DISPOSITIONS } from "./vocabulary.ts";

/** Something whose master data a dataset must carry once an event names it. */
export type MasterDataSubject = Party | Site | TradeItem;

export interface Draft {
  event: EpcisEvent;
  uses: MasterDataSubject[];
}

/** What a chain needs from the dataset it belongs to. */
export interface ChainContext {
  catalogue: Catalogue;
  shape: ResolvedShape;
  /** How many times this key was asked for before: spreads choices evenly over the catalogue. */
  turn(key: string): number;
  /**
   * A new lot (AI 10) or serial (AI 21) of a product, GS1 CSET 82 and at most 20 characters, never handed out
   * before in this dataset, with the class or instance identifier in both spellings.
   */
  keyedValue(rng: Random, item: TradeItem, ai: "10" | "21"): KeyedValue;
  nextSscc(owner: Party): IdForms;
  nextTransformationId(rng: Random, site: Site, lot: string): string;
  /** Sometimes an instant another chain used, so that distinct events share one exact instant. */
  sharedMoment(rng: Random): Moment | undefined;
  remember(moment: Moment): void;
}

export interface KeyedValue {
  value: string;
  id: IdForms;
}

type Mode = "serial" | "lot" | "both";
const MODES: readonly Mode[] = ["serial", "lot", "both"];

const HOUR = 3600;
const DAY = 24 * HOUR;

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/** A version 4 UUID URN from 32 hex digits and the digit of its variant (8, 9, a or b). */
export function uuidUrnOf(h: string, variant: string): string {
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function randomUuidUrn(rng: Random): string {
  const h = rng.hex(32);
  return uuidUrnOf(h, "89ab"[rng.int(0, 3)] as string);
}

function pickTurn<T>(ctx: ChainContext, key: string, items: readonly T[]): T {
  return items[ctx.turn(key) % items.length] as T;
}

class ChainWriter {
  readonly drafts: Draft[] = [];
  readonly clock: ChainClock;

  constructor(
    private readonly ctx: ChainContext,
    private readonly rng: Random,
  ) {
    this.clock = new ChainClock(rng, ctx.sharedMoment(rng) ?? randomMoment(rng));
  }

  id(forms: IdForms): string {
    const form = this.ctx.shape.epcForm;
    if (form === "mixed") return this.rng.chance(0.5) ? forms.urn : forms.dl;
    return forms[form];
  }

  private bizStep(bare: string): string {
    const forms = bizStepForms(bare);
    const form = this.ctx.shape.bizStepForm;
    if (form === "mixed") return this.rng.chance(0.5) ? forms.short : forms.webUri;
    return form === "web" ? forms.webUri : forms[form];
  }

  ids(instances: readonly KeyedValue[]): string[] {
    return instances.map((i) => this.id(i.id));
  }

  quantities(lot: KeyedValue, quantity: number): QuantityElement[] {
    return [{ epcClass: this.id(lot.id), quantity, uom: "KGM" }];
  }

  emit(
    type: string,
    site: Site,
    owner: Party,
    bizStep: string,
    body: Record<string, unknown>,
    subjects: MasterDataSubject[],
    withBizLocation = true,
  ): void {
    const provider = this.rng.chance(0.7) ? this.ctx.catalogue.sender : owner;
    const event: EpcisEvent = { type, ...this.clock.stamp(site.offset), eventID: "" };
    const { ilmd, disposition, ...rest } = body;
    Object.assign(event, rest);
    event.bizStep = this.bizStep(bizStep);
    if (disposition !== undefined) event.disposition = disposition as string;
    event.readPoint = { id: this.id(site.id) };
    if (withBizLocation) event.bizLocation = { id: this.id(site.id) };
    if (ilmd !== undefined) event.ilmd = ilmd;
    event["gdst:productOwner"] = this.id(owner.id);
    event["cbvmda:informationProvider"] = this.id(provider.id);
    event.eventID = this.rng.chance(0.15) ? hashEventId(event) : randomUuidUrn(this.rng);
    this.ctx.remember(this.clock.now);
    this.drafts.push({ event, uses: [owner, provider, site, ...subjects] });
  }

  lot(item: TradeItem): KeyedValue {
    return this.ctx.keyedValue(this.rng, item, "10");
  }

  instances(item: TradeItem, count: number): KeyedValue[] {
    return Array.from({ length: count }, () => this.ctx.keyedValue(this.rng, item, "21"));
  }
}

// An EPCIS 2.0 style event hash identifier over the event's content as written. It is not the CBV 2.0
// canonical pre-hash algorithm; it only has to be unique and stable for a given event.
function hashEventId(event: EpcisEvent): string {
  const digest = createHash("sha256").update(JSON.stringify(event)).digest("hex");
  return `ni:///sha-256;${digest}?ver=CBV2.0`;
}

/** Builds the events of one chain (not yet filtered by event type). */
export function buildChain(ctx: ChainContext, rng: Random, module: ChainModule): Draft[] {
  const c = ctx.catalogue;
  const w = new ChainWriter(ctx, rng);
  const harvester = pickTurn(ctx, `harvester:${module}`, module === "wildcatch" ? c.fishers : c.farms);
  const origin = pickTurn(ctx, `site:${harvester.party.pgln}`, harvester.sites);
  const rawItem = pickTurn(ctx, `item:${harvester.party.pgln}`, harvester.products);
  const outItem = pickTurn(ctx, `out:${module}`, module === "wildcatch" ? c.wildOutputs : c.farmedOutputs);
  const plant = pickTurn(ctx, "plant", c.plants.slice(0, 2));
  const packSite = rng.chance(0.3) ? (c.plants[2] as Site) : plant;
  const hub = pickTurn(ctx, "hub", c.distributionSites);
  const store = pickTurn(ctx, "store", c.stores);
  const facts = harvestFacts(rng, harvester, origin);

  const inMode = rng.pick(MODES);
  const outMode = rng.pick(MODES);
  const inLot = w.lot(rawItem);
  const outLot = w.lot(outItem);
  const inputs = inMode === "lot" ? [] : w.instances(rawItem, rng.int(1, 4));
  const outputs = outMode === "lot" ? [] : w.instances(outItem, rng.int(1, 4));
  const inQty = round1(rng.int(2000, 200000) / 10);
  const outQty = round1(inQty * (rng.int(40, 70) / 100));
  const inUses = [rawItem];
  const outUses = [outItem];

  const inBody = (): Record<string, unknown> => ({
    ...(inMode === "lot" ? {} : { epcList: w.ids(inputs) }),
    ...(inMode === "serial" ? {} : { quantityList: w.quantities(inLot, inQty) }),
  });
  const outBody = (): Record<string, unknown> => ({
    ...(outMode === "lot" ? {} : { epcList: w.ids(outputs) }),
    ...(outMode === "serial" ? {} : { quantityList: w.quantities(outLot, outQty) }),
  });

  // Commission at the vessel or farm.
  w.emit(
    "ObjectEvent",
    origin,
    harvester.party,
    "commissioning",
    { action: "ADD", ...inBody(), disposition: "active", ilmd: lotIlmd(facts, inLot.value) },
    inUses,
  );

  // Shipping to the sender's plant: the goods are in transit, so no business location.
  w.clock.advance(HOUR, 5 * DAY);
  w.emit(
    "ObjectEvent",
    origin,
    harvester.party,
    "shipping",
    { action: "OBSERVE", ...inBody(), disposition: "in_transit" },
    inUses,
    false,
  );

  w.clock.advance(6 * HOUR, 10 * DAY);
  w.emit(
    "ObjectEvent",
    plant,
    c.sender,
    "receiving",
    { action: "OBSERVE", ...inBody(), disposition: rng.pick(RECEIVING_DISPOSITIONS) },
    inUses,
  );

  // Transformation: a long-running one is recorded as two events under one transformationID (spec 4.1).
  const transformationId = rng.chance(0.6) ? ctx.nextTransformationId(rng, plant, outLot.value) : undefined;
  const split =
    transformationId !== undefined && inMode !== "serial" && outMode !== "serial" && rng.chance(0.4);
  const share = split ? rng.int(30, 70) / 100 : 1;
  const inFirst = round1(inQty * share);
  const outFirst = round1(outQty * share);
  w.clock.advance(HOUR, 3 * DAY);
  const transformation = (
    inputIds: KeyedValue[],
    outputIds: KeyedValue[],
    inAmount: number,
    outAmount: number,
  ): Record<string, unknown> => ({
    ...(inputIds.length > 0 ? { inputEPCList: w.ids(inputIds) } : {}),
    ...(inMode === "serial" ? {} : { inputQuantityList: w.quantities(inLot, inAmount) }),
    ...(outputIds.length > 0 ? { outputEPCList: w.ids(outputIds) } : {}),
    ...(outMode === "serial" ? {} : { outputQuantityList: w.quantities(outLot, outAmount) }),
    ...(transformationId === undefined ? {} : { transformationID: transformationId }),
    disposition: "active",
    ilmd: lotIlmd(facts, outLot.value),
  });
  w.emit(
    "TransformationEvent",
    plant,
    c.sender,
    "commissioning",
    transformation(inputs, outputs, inFirst, outFirst),
    [...inUses, ...outUses],
  );
  if (split) {
    w.clock.advance(HOUR, 12 * HOUR);
    w.emit(
      "TransformationEvent",
      plant,
      c.sender,
      "commissioning",
      transformation([], [], round1(inQty - inFirst), round1(outQty - outFirst)),
      [...inUses, ...outUses],
    );
  }

  const sscc = ctx.nextSscc(c.sender);
  const children = (): Record<string, unknown> => ({
    ...(outMode === "lot" ? {} : { childEPCs: w.ids(outputs) }),
    ...(outMode === "serial" ? {} : { childQuantityList: w.quantities(outLot, outQty) }),
  });
  w.clock.advance(10 * 60, DAY);
  w.emit(
    "AggregationEvent",
    packSite,
    c.sender,
    "packing",
    { action: "ADD", parentID: w.id(sscc), ...children(), disposition: "active" },
    outUses,
  );

  // Packed and shipped at once now and then: two events at exactly the same instant.
  if (rng.chance(0.3)) w.clock.hold();
  else w.clock.advance(10 * 60, DAY);
  w.emit(
    "ObjectEvent",
    packSite,
    c.sender,
    "shipping",
    { action: "OBSERVE", epcList: [w.id(sscc)], disposition: "in_transit" },
    [],
    false,
  );

  w.clock.advance(DAY, 14 * DAY);
  w.emit(
    "ObjectEvent",
    hub,
    c.distributor,
    "receiving",
    { action: "OBSERVE", epcList: [w.id(sscc)], disposition: rng.pick(RECEIVING_DISPOSITIONS) },
    [],
  );

  w.clock.advance(10 * 60, 2 * DAY);
  w.emit(
    "AggregationEvent",
    hub,
    c.distributor,
    "unpacking",
    { action: "DELETE", parentID: w.id(sscc), ...children(), disposition: "inactive" },
    outUses,
  );

  let finalSite = hub;
  let finalOwner = c.distributor;
  if (rng.chance(0.5)) {
    w.clock.advance(HOUR, 3 * DAY);
    w.emit(
      "ObjectEvent",
      hub,
      c.distributor,
      "shipping",
      { action: "OBSERVE", ...outBody(), disposition: "in_transit" },
      outUses,
      false,
    );
    w.clock.advance(HOUR, 2 * DAY);
    w.emit(
      "ObjectEvent",
      store,
      c.retailer,
      "receiving",
      { action: "OBSERVE", ...outBody(), disposition: rng.pick(RECEIVING_DISPOSITIONS) },
      outUses,
    );
    finalSite = store;
    finalOwner = c.retailer;
  }

  w.clock.advance(HOUR, 20 * DAY);
  w.emit(
    "ObjectEvent",
    finalSite,
    finalOwner,
    "decommissioning",
    { action: "DELETE", ...outBody(), disposition: rng.pick(DECOMMISSION_DISPOSITIONS) },
    outUses,
  );
  return w.drafts;
}
