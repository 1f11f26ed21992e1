// The parties, locations and trade items a generated dataset speaks of, with their GS1 keys. Every key is built
// from its owner's company prefix (lengths 7 to 10 all occur) and carries a valid check digit.

import type { DigitalLinkElement } from "../model/index.ts";
import { CANONICAL_DL_BASE, digitalLinkToEpcUrn, formatDigitalLink, gs1CheckDigit } from "../model/index.ts";
import type { Random } from "./random.ts";
import {
  AQUACULTURE_METHODS,
  BRAND_NAMES,
  CITIES,
  COUNTRY_CODES,
  FARMED_PRODUCTS,
  GEAR_TYPES,
  INLAND_CATCH_AREAS,
  INLAND_CATCH_PRODUCTS,
  LOCATION_CLASSIFICATIONS,
  MARINE_CATCH_AREAS,
  ORGANIZATION_NAMES,
  PROCESSED_FARMED_PRODUCTS,
  PROCESSED_WILD_PRODUCTS,
  type ProductTemplate,
  STREETS,
  TIME_OFFSETS,
  VESSEL_NAMES,
  WILD_CATCH_PRODUCTS,
} from "./vocabulary.ts";

/** One identifier in both of its spellings: the Digital Link URI under id.gs1.org and the EPC URN. */
export interface IdForms {
  dl: string;
  urn: string;
}

export interface PostalAddress {
  streetAddress: string;
  addressLocality: string;
  postalCode: string;
  addressCountry: string;
}

export interface Party {
  name: string;
  companyPrefix: string;
  pgln: string;
  id: IdForms;
  address: PostalAddress;
}

export interface VesselDetails {
  vesselName: string;
  vesselID: string;
  imoNumber: string;
  flag: string;
  gear: string;
  catchAreas: readonly string[];
}

export interface Site {
  gln: string;
  id: IdForms;
  name: string;
  classification: string;
  /** The offset its events are written in. */
  offset: string;
  address: PostalAddress;
  vessel?: VesselDetails;
}

export interface TradeItem {
  gtin: string;
  companyPrefixLength: number;
  name: string;
  classification: string;
  brand: string;
}

export interface Harvester {
  party: Party;
  method: "MARINE_FISHERY" | "INLAND_FISHERY" | "AQUACULTURE";
  sites: Site[];
  products: TradeItem[];
  /** For a farm: how it farms (gdst:aquacultureMethod). */
  aquacultureMethod?: string;
  country: string;
}

export interface Catalogue {
  /** The party whose repository holds the data: the processor, first of all parties. */
  sender: Party;
  parties: Party[];
  fishers: Harvester[];
  farms: Harvester[];
  plants: Site[];
  distributionSites: Site[];
  stores: Site[];
  distributor: Party;
  retailer: Party;
  wildOutputs: TradeItem[];
  farmedOutputs: TradeItem[];
  sites: Site[];
  items: TradeItem[];
}

export function idForms(elements: DigitalLinkElement[], companyPrefixLength: number): IdForms {
  const dl = formatDigitalLink(CANONICAL_DL_BASE, elements);
  const urn = digitalLinkToEpcUrn(dl, companyPrefixLength);
  if (urn === undefined)
    throw new Error(
      `The generator built ${dl}, which has no EPC URN form; please report this generator bug.`,
    );
  return { dl, urn };
}

export function withCheckDigit(body: string): string {
  return body + gs1CheckDigit(body);
}

function shuffled<T>(rng: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    const a = out[i] as T;
    out[i] = out[j] as T;
    out[j] = a;
  }
  return out;
}

// IMO ship numbers: six digits weighted 7..2, the sum's last digit is the seventh digit.
function imoNumber(rng: Random): string {
  const body = String(rng.int(1, 9)) + rng.digits(5);
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(body[i]) * (7 - i);
  return `IMO${body}${sum % 10}`;
}

class CatalogueBuilder {
  private readonly prefixes: string[] = [];
  private readonly nextRef = new Map<Party, number>();
  private offsetTurn = 0;
  private readonly offsets: string[];
  readonly sites: Site[] = [];
  readonly items: TradeItem[] = [];

  constructor(private readonly rng: Random) {
    this.offsets = shuffled(rng, TIME_OFFSETS);
  }

  // Distinct prefixes, none the beginning of another, so that a company pattern (CP.*.*) names one company.
  private companyPrefix(length: number): string {
    for (;;) {
      const candidate = String(this.rng.int(1, 9)) + this.rng.digits(length - 1);
      const clash = this.prefixes.some((p) => p.startsWith(candidate) || candidate.startsWith(p));
      if (!clash) {
        this.prefixes.push(candidate);
        return candidate;
      }
    }
  }

  private address(): PostalAddress {
    const place = this.rng.pick(CITIES);
    return {
      streetAddress: `${this.rng.int(1, 400)} ${this.rng.pick(STREETS)}`,
      addressLocality: place.city,
      postalCode: this.rng.digits(5),
      addressCountry: place.country,
    };
  }

  party(name: string, prefixLength: number): Party {
    const companyPrefix = this.companyPrefix(prefixLength);
    const pgln = withCheckDigit(companyPrefix.padEnd(12, "0"));
    const party: Party = {
      name,
      companyPrefix,
      pgln,
      id: idForms([{ ai: "417", value: pgln }], prefixLength),
      address: this.address(),
    };
    this.nextRef.set(party, 1);
    return party;
  }

  private reference(owner: Party, width: number): string {
    const n = this.nextRef.get(owner) ?? 1;
    this.nextRef.set(owner, n + 1);
    return String(n).padStart(width, "0");
  }

  site(owner: Party, name: string, classification: string, vessel?: VesselDetails): Site {
    const cp = owner.companyPrefix;
    const gln = withCheckDigit(cp + this.reference(owner, 12 - cp.length));
    const offset = this.offsets[this.offsetTurn++ % this.offsets.length] as string;
    const site: Site = {
      gln,
      id: idForms([{ ai: "414", value: gln }], cp.length),
      name,
      classification,
      offset,
      address: this.address(),
      ...(vessel === undefined ? {} : { vessel }),
    };
    this.sites.push(site);
    return site;
  }

  item(owner: Party, template: ProductTemplate): TradeItem {
    const cp = owner.companyPrefix;
    const indicator = this.rng.chance(0.3) ? String(this.rng.int(1, 8)) : "0";
    const gtin = withCheckDigit(indicator + cp + this.reference(owner, 12 - cp.length));
    const item: TradeItem = {
      gtin,
      companyPrefixLength: cp.length,
      name: template.name,
      classification: template.classification,
      brand: this.rng.pick(BRAND_NAMES),
    };
    this.items.push(item);
    return item;
  }

  vessel(flag: string, areas: readonly string[], name: string): VesselDetails {
    return {
      vesselName: name,
      vesselID: `V-${this.rng.digits(6)}`,
      imoNumber: imoNumber(this.rng),
      flag,
      gear: this.rng.pick(GEAR_TYPES),
      catchAreas: areas,
    };
  }
}

/**
 * Builds the cast of a dataset: a processor (the sender), two fishing companies (one marine, one inland), two
 * farms, a distributor and a retailer, with their sites and products.
 */
export function buildCatalogue(rng: Random): Catalogue {
  const b = new CatalogueBuilder(rng);
  // Seven parties and four prefix lengths: every length from 7 to 10 occurs at least once.
  const lengths = shuffled(rng, [7, 8, 9, 10, rng.int(7, 10), rng.int(7, 10), rng.int(7, 10)]);
  const length = (i: number): number => lengths[i] as number;
  const sender = b.party(rng.pick(ORGANIZATION_NAMES.processor), length(0));
  const marine = b.party(ORGANIZATION_NAMES.fishing[rng.int(0, 1)] as string, length(1));
  const inland = b.party(ORGANIZATION_NAMES.fishing[2], length(2));
  const farmA = b.party(ORGANIZATION_NAMES.farm[0], length(3));
  const farmB = b.party(rng.pick(ORGANIZATION_NAMES.farm.slice(1)), length(4));
  const distributor = b.party(rng.pick(ORGANIZATION_NAMES.distributor), length(5));
  const retailer = b.party(rng.pick(ORGANIZATION_NAMES.retailer), length(6));

  const vesselNames = shuffled(rng, VESSEL_NAMES);
  const fisher = (party: Party, method: "MARINE_FISHERY" | "INLAND_FISHERY", vessels: number): Harvester => {
    const areas = method === "MARINE_FISHERY" ? MARINE_CATCH_AREAS : INLAND_CATCH_AREAS;
    const flag = rng.pick(COUNTRY_CODES);
    const sites: Site[] = [];
    for (let i = 0; i < vessels; i++) {
      const name = vesselNames.pop() ?? `Vessel ${i + 1}`;
      const details = b.vessel(flag, areas, name);
      sites.push(b.site(party, `FV ${name}`, LOCATION_CLASSIFICATIONS.vessel, details));
    }
    const templates = method === "MARINE_FISHERY" ? WILD_CATCH_PRODUCTS : INLAND_CATCH_PRODUCTS;
    const products = shuffled(rng, templates)
      .slice(0, 2)
      .map((t) => b.item(party, t));
    return { party, method, sites, products, country: flag };
  };
  const farm = (party: Party, templates: readonly ProductTemplate[]): Harvester => {
    const country = rng.pick(COUNTRY_CODES);
    const sites = [b.site(party, `${party.name} site ${rng.int(1, 9)}`, LOCATION_CLASSIFICATIONS.farm)];
    return {
      party,
      method: "AQUACULTURE",
      sites,
      products: templates.map((t) => b.item(party, t)),
      aquacultureMethod: rng.pick(AQUACULTURE_METHODS),
      country,
    };
  };

  const fishers = [fisher(marine, "MARINE_FISHERY", 3), fisher(inland, "INLAND_FISHERY", 1)];
  const farmed = shuffled(rng, FARMED_PRODUCTS);
  const farms = [farm(farmA, farmed.slice(0, 2)), farm(farmB, farmed.slice(2))];
  const plants = [
    b.site(sender, `${sender.name} plant 1`, LOCATION_CLASSIFICATIONS.plant),
    b.site(sender, `${sender.name} plant 2`, LOCATION_CLASSIFICATIONS.plant),
    b.site(sender, `${sender.name} cold store`, LOCATION_CLASSIFICATIONS.coldStorage),
  ];
  const distributionSites = [
    b.site(distributor, `${distributor.name} warehouse`, LOCATION_CLASSIFICATIONS.warehouse),
    b.site(distributor, `${distributor.name} hub`, LOCATION_CLASSIFICATIONS.distributionCenter),
    b.site(distributor, `${distributor.name} auction hall`, LOCATION_CLASSIFICATIONS.fishAuction),
  ];
  const stores = [
    b.site(retailer, `${retailer.name} downtown`, LOCATION_CLASSIFICATIONS.retailStore),
    b.site(retailer, `${retailer.name} waterfront`, LOCATION_CLASSIFICATIONS.retailStore),
  ];
  const wildOutputs = PROCESSED_WILD_PRODUCTS.map((t) => b.item(sender, t));
  const farmedOutputs = PROCESSED_FARMED_PRODUCTS.map((t) => b.item(sender, t));
  return {
    sender,
    parties: [sender, marine, inland, farmA, farmB, distributor, retailer],
    fishers,
    farms,
    plants,
    distributionSites,
    stores,
    distributor,
    retailer,
    wildOutputs,
    farmedOutputs,
    sites: b.sites,
    items: b.items,
  };
}
