// The master data the sender's link sets offer for what a trace names (spec 4.2: "The master data link in a link
// set leads to a master data document"), asked of the sender's resolver once the recording has ended, so that a
// receiver is held only to the master data the sender offers and found at the hrefs it gives.

import type { RunContext } from "../../../src/engine/context.ts";
import { canonicalId, type EpcisEvent } from "../../../src/model/index.ts";
import { entryToFollow, linksOf, MASTER_DATA_LINK } from "../../../src/target/linkset.ts";
import { identifierLinksetUrl, readLinkset } from "../../../src/target/resolver.ts";
import { masterDataSubjects } from "../../../src/target/subjects.ts";
import { normalizeUrl } from "./requests.ts";

/** The master data hrefs the sender's link sets offer, by the canonical URI of the subject. */
export type MasterDataOffers = ReadonlyMap<string, readonly string[]>;

/** The products, business locations and parties the events name, canonical, and `also` (the task's product). */
export function subjectsOf(events: Iterable<EpcisEvent>, also: readonly string[]): string[] {
  return [...new Set([...also.map(canonicalId), ...masterDataSubjects([...events]).map((s) => s.id)])];
}

/** The masterData hrefs, normalized, of each subject's link set at the sender's resolver; none when it has none. */
export async function masterDataOffers(
  ctx: RunContext,
  subjects: readonly string[],
): Promise<MasterDataOffers> {
  const entries = await Promise.all(
    subjects.map(async (subject): Promise<[string, string[]]> => {
      try {
        const read = await readLinkset(ctx, identifierLinksetUrl(ctx.resolverBase, subject));
        if (read.problem !== undefined || read.result === undefined) return [subject, []];
        const entry = entryToFollow(read.body, subject);
        const hrefs = entry === undefined ? [] : linksOf(entry, MASTER_DATA_LINK).map((l) => l.href);
        const answeredAt = read.result.url;
        return [subject, hrefs.flatMap((h) => normalizeUrl(h, answeredAt) ?? [])];
      } catch {
        return [subject, []];
      }
    }),
  );
  return new Map(entries);
}
