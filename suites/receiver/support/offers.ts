// The master data the sender's link sets offer for what a trace names (spec 4.2: "The master data link in a link
// set leads to a master data document"), asked of the sender's resolver once the recording has ended, so that a
// receiver is held only to the master data the sender offers and found at the hrefs it gives.

import type { HttpClient } from "../../../src/http/index.ts";
import { canonicalId, type EpcisEvent, rebaseDigitalLink } from "../../../src/model/index.ts";
import { entryAbout, linksetEntries, linksOf, MASTER_DATA_LINK } from "../../../src/target/linkset.ts";
import { masterDataSubjects } from "../../workflow/support/subjects.ts";
import { normalizeUrl } from "./requests.ts";

/** The master data hrefs the sender's link sets offer, by the canonical URI of the subject. */
export type MasterDataOffers = ReadonlyMap<string, readonly string[]>;

/** The products, business locations and parties the events name, canonical, and `also` (the task's product). */
export function subjectsOf(events: Iterable<EpcisEvent>, also: readonly string[]): string[] {
  return [...new Set([...also.map(canonicalId), ...masterDataSubjects([...events]).map((s) => s.id)])];
}

/** The masterData hrefs, normalized, of each subject's link set at the sender's resolver; none when it has none. */
export async function masterDataOffers(
  client: HttpClient,
  resolverBase: string,
  subjects: readonly string[],
): Promise<MasterDataOffers> {
  const entries = await Promise.all(
    subjects.map(async (subject): Promise<[string, string[]]> => {
      const url = `${rebaseDigitalLink(subject, resolverBase)}?linkType=linkset`;
      try {
        const answer = await client.get(url);
        if (answer.status < 200 || answer.status > 299) return [subject, []];
        const body = answer.json();
        const entry = entryAbout(body, subject) ?? linksetEntries(body)[0];
        const hrefs = entry === undefined ? [] : linksOf(entry, MASTER_DATA_LINK).map((l) => l.href);
        return [subject, hrefs.flatMap((h) => normalizeUrl(h, answer.url) ?? [])];
      } catch {
        return [subject, []];
      }
    }),
  );
  return new Map(entries);
}
