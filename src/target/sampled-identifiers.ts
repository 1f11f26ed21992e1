// The identifiers the resolver checks ask about: those of the baseline and of the setup values, a few per path
// form, drawn with the run's seed.
import type { RunContext } from "../engine/context.ts";
import { perRun } from "../engine/run-scope.ts";
import { type EpcisEvent, PATH_FORMS, type PathForm } from "../model/index.ts";
import { loadBaseline } from "./client.ts";
import {
  type IdentifierSources,
  type IdentifiersByForm,
  identifiersFromBaseline,
  sampleIdentifiers,
} from "./identifiers.ts";
import { keyUri, presumedOwnership, sender } from "./sender.ts";

/** Identifiers asked about per path form; enough to catch a defect, few enough to keep a run short. */
export const IDS_PER_FORM = 4;

/** Events the harness knows the target holds: as served, and as loaded when --dataset was given. */
export function knownEvents(ctx: RunContext): EpcisEvent[] {
  const baseline = loadBaseline(ctx);
  return [...baseline.events, ...(baseline.datasetEvents ?? [])];
}

/** The events given plus the party and location exchanged at setup (--party, --gln). */
export function identifierSources(ctx: RunContext, events: readonly EpcisEvent[]): IdentifierSources {
  const sources: IdentifierSources = { events };
  if (ctx.party !== undefined) sources.party = ctx.party;
  if (ctx.gln !== undefined) sources.gln = ctx.gln;
  return sources;
}

/** Every identifier of the six path forms the known events and the setup values name, once per run. */
export const allIdentifiers = perRun(
  (ctx: RunContext): IdentifiersByForm => identifiersFromBaseline(identifierSources(ctx, knownEvents(ctx))),
);

/**
 * A few identifiers per path form, drawn with the seed: the sender's own first (exchanged at setup, or under its
 * company prefix; the guessed party's when no --party was given), about half of them where the events name enough, so that every form is asked about an
 * identifier its resolver must answer for; the rest from the other identifiers the events name.
 */
export const sampledIdentifiers = perRun((ctx: RunContext): IdentifiersByForm => {
  const values = sender(ctx);
  const all = allIdentifiers(ctx);
  const picked = { ...all };
  for (const form of PATH_FORMS) {
    const owned = all[form].map((uri) => ({ uri, own: presumedOwnership(values, uri) }));
    const own = [
      ...owned.filter((x) => x.own?.setup === true),
      ...owned.filter((x) => x.own?.setup === false),
    ].map((x) => x.uri);
    const others = owned.filter((x) => x.own === undefined).map((x) => x.uri);
    const ownCount = Math.min(
      own.length,
      Math.max(Math.ceil(IDS_PER_FORM / 2), IDS_PER_FORM - others.length),
    );
    picked[form] = [
      ...sampleIdentifiers(own, ownCount, ctx.seed),
      ...sampleIdentifiers(others, IDS_PER_FORM - ownCount, ctx.seed),
    ];
  }
  return picked;
});

/** Why a path form cannot be checked: no identifier of that form is known. */
export function noIdentifierReason(form: string): string {
  return `no /${form.split("/").join("/…/")}/… identifier is known from the baseline or the setup values (--party, --gln), so this path form could not be asked about`;
}

/** Of each product covered, at most this many of its lots and as many of its serials are asked about. */
export const QUALIFIED_PER_PRODUCT = 2;

/** Products covered per property case (--runs): every product of a target with up to 100 at the default 25. */
export const PRODUCTS_PER_RUN = 4;

export interface CoveredIdentifiers {
  /** The sampled identifiers, then each covered product with some of its lots and serials. */
  byForm: IdentifiersByForm;
  /** How many products (GTINs) the known events name, and how many of them are covered. */
  products: number;
  coveredProducts: number;
}

/**
 * What the resolver checks ask about: the sampled identifiers, and every product (GTIN) of `all` with a few of its
 * lots and serials drawn with the seed, so that a defect confined to one product's link sets or master data is
 * found. A target with more products than `runs` × PRODUCTS_PER_RUN has that many of them drawn with the seed.
 */
export function coverProducts(
  all: IdentifiersByForm,
  sampled: IdentifiersByForm,
  effort: { runs: number; seed: number },
): CoveredIdentifiers {
  const byForm = Object.fromEntries(
    PATH_FORMS.map((form) => [form, [...sampled[form]]]),
  ) as IdentifiersByForm;
  const asked = new Set(PATH_FORMS.flatMap((form) => sampled[form]));
  const add = (form: PathForm, uris: readonly string[]) => {
    for (const uri of uris) {
      if (asked.has(uri)) continue;
      asked.add(uri);
      byForm[form].push(uri);
    }
  };
  const byProduct = (form: PathForm) => {
    const groups = new Map<string, string[]>();
    for (const uri of all[form]) {
      const gtin = keyUri(uri, "01");
      if (gtin !== undefined) groups.set(gtin, [...(groups.get(gtin) ?? []), uri]);
    }
    return groups;
  };
  const lots = byProduct("01/10");
  const serials = byProduct("01/21");
  const products = sampleIdentifiers(all["01"], Math.max(1, effort.runs) * PRODUCTS_PER_RUN, effort.seed);
  add("01", products);
  for (const gtin of products) {
    add("01/10", sampleIdentifiers(lots.get(gtin) ?? [], QUALIFIED_PER_PRODUCT, effort.seed));
    add("01/21", sampleIdentifiers(serials.get(gtin) ?? [], QUALIFIED_PER_PRODUCT, effort.seed));
  }
  return { byForm, products: all["01"].length, coveredProducts: products.length };
}

/** coverProducts over the run's identifiers, once per run. */
export const coveredIdentifiers = perRun(
  (ctx: RunContext): CoveredIdentifiers => coverProducts(allIdentifiers(ctx), sampledIdentifiers(ctx), ctx),
);
