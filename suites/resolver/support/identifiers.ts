// The identifiers the resolver checks ask about: those of the baseline and of the setup values, a few per path
// form, drawn with the run's seed.
import type { RunContext } from "../../../src/harness/context.ts";
import {
  type IdentifierSources,
  type IdentifiersByForm,
  identifiersFromBaseline,
  PATH_FORMS,
  sampleIdentifiers,
} from "../../../src/harness/identifiers-from-baseline.ts";
import { perRun } from "../../../src/harness/run-scope.ts";
import { loadBaseline } from "../../../src/harness/target.ts";
import type { EpcisEvent } from "../../../src/model/index.ts";
import { presumedOwnership, sender } from "./sender.ts";

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

/**
 * A few identifiers per path form, drawn with the seed: the sender's own first (exchanged at setup, or under its
 * company prefix; the guessed party's when no --party was given), about half of them where the events name enough, so that every form is asked about an
 * identifier its resolver must answer for; the rest from the other identifiers the events name.
 */
export const sampledIdentifiers = perRun((ctx: RunContext): IdentifiersByForm => {
  const values = sender(ctx);
  const all = identifiersFromBaseline(identifierSources(ctx, knownEvents(ctx)));
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
